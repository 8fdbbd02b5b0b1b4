/**
 * The providers' own computer tools, rewritten onto ours: Anthropic's computer toolset, OpenAI's
 * `computer` tool (several actions per call, a screenshot after them, safety checks shown to the
 * gate) and Gemini's `computer_use` (coordinates out of 1000). Our computer tool here is a
 * recording stand-in with the real name and gate metadata; the fake provider speaks each API.
 */
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../../server/src/tools/define-tool.js";
import { computerTool } from "../../server/src/tools/computer.js";
import { startAgentHarness, type AgentHarness, type FakeApi } from "../helpers/agent-setup.js";

let h: AgentHarness;
afterEach(async () => {
  await h.dispose();
});

const ran: unknown[] = [];
/** A 1x1 PNG, as the stand-in's screenshot. */
const PIXEL = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

async function harness(api: FakeApi, options: Record<string, unknown> = {}) {
  h = await startAgentHarness({ api, options: { safety: "full_access", tools: { computer: true }, ...options } });
  ran.length = 0;
  const registry = h.server.runtime()!.registry;
  registry.unregister("computer");
  registry.register(
    defineTool({
      name: "computer",
      description: "stand-in computer",
      input: z.record(z.string(), z.unknown()),
      policyClass: "gui_control",
      category: "computer",
      metadata: computerTool.metadata,
      execute: async (input) => {
        ran.push(input);
        return { isError: false, content: [{ type: "text", text: `ran ${String(input.action)}` }, { type: "image", mediaType: "image/png", data: PIXEL }] };
      },
    }),
  );
}

describe("Anthropic's computer toolset", () => {
  it("is offered in place of our computer tool and its members run as our actions", async () => {
    await harness("anthropic");
    h.fake.enqueue(
      {
        toolCalls: [
          { name: "left_click", input: { coordinate: [10, 20], text: "shift" }, nativeKind: "toolset:computer" },
          { name: "zoom", input: { region: [0, 0, 50, 50] }, nativeKind: "toolset:computer" },
        ],
      },
      { text: "done" },
    );
    await h.prompt(await h.newSession(), "click");
    const tools = h.fake.requests[0]!.body.tools;
    expect(tools).toContainEqual({ type: "computer_toolset_20260801" });
    expect(tools.map((t: any) => t.name)).not.toContain("computer");
    expect(ran).toEqual([
      { coordinate: [10, 20], text: "shift", action: "left_click" },
      { region: [0, 0, 50, 50], action: "zoom" },
    ]);
    const replay = h.fake.requests[1]!.body.messages[1].content.filter((b: any) => b.type === "tool_use");
    expect(replay.map((b: any) => [b.name, b.toolset_name])).toEqual([
      ["left_click", "computer"],
      ["zoom", "computer"],
    ]);
    expect(h.fake.violations).toEqual([]);
  });

  it("is not offered when the computer tool is off", async () => {
    h = await startAgentHarness({ options: { safety: "full_access" } });
    h.fake.enqueue({ text: "ok" });
    await h.prompt(await h.newSession(), "hi");
    expect(h.fake.requests[0]!.body.tools).not.toContainEqual({ type: "computer_toolset_20260801" });
  });
});
