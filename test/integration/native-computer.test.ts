/**
 * The providers' own computer tools, rewritten onto ours: Anthropic's computer toolset, OpenAI's
 * `computer` tool (several actions per call, a screenshot after them, safety checks shown to the
 * gate) and Gemini's `computer_use` (coordinates out of 1000). Our computer tool here is a
 * recording stand-in with the real name and gate metadata; the fake provider speaks each API.
 */
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../../server/src/tools/define-tool.js";
import { computerTool } from "../../server/src/tools/outside/computer.js";
import { startAgentHarness, type AgentHarness, type FakeApi } from "../helpers/agent-setup.js";
import { richCapabilities } from "./safety-helpers.js";

let h: AgentHarness;
afterEach(async () => {
  await h.dispose();
});

const ran: unknown[] = [];
/** A 1x1 PNG, as the stand-in's screenshot. */
const PIXEL = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

async function harness(api: FakeApi, options: Record<string, unknown> = {}, started?: AgentHarness) {
  h = started ?? (await startAgentHarness({ api, options: { safety: "full_access", tools: { computer: true }, ...options } }));
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
        const what = Array.isArray(input.steps) ? `${input.steps.length} steps` : String(input.action);
        return { isError: false, content: [{ type: "text", text: `ran ${what}` }, { type: "image", mediaType: "image/png", data: PIXEL }] };
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

describe("OpenAI's computer tool", () => {
  it("runs a call's actions as our steps, shows its safety checks to the gate, and answers with the screenshot", async () => {
    h = await startAgentHarness({ api: "openai", options: { safety: "ask", tools: { computer: true } }, capabilities: richCapabilities() });
    await harness("openai", { safety: "ask" }, h);
    const prompts: any[] = [];
    h.client.script.requestPermission = (p) => {
      prompts.push(p);
      return { optionId: "allow_once" };
    };
    const actions = [
      { type: "click", button: "left", x: 10, y: 20 },
      { type: "keypress", keys: ["CTRL", "L"] },
      { type: "type", text: "hi" },
      { type: "scroll", x: 5, y: 5, scroll_x: 0, scroll_y: -300 },
    ];
    const check = { id: "cu_sc_1", code: "malicious_instructions", message: "The screen may contain instructions" };
    h.fake.enqueue({ toolCalls: [{ name: "computer", nativeKind: "computer_call", input: { actions, pending_safety_checks: [check] } }] }, { text: "done" });
    await h.prompt(await h.newSession(), "search");
    expect(h.fake.requests[0]!.body.tools).toContainEqual({ type: "computer" });
    expect(h.fake.requests[0]!.body.tools.filter((t: any) => t.name === "computer")).toEqual([]);
    expect(ran).toEqual([
      {
        steps: [
          { action: "left_click", coordinate: [10, 20] },
          { action: "key", text: "ctrl+l" },
          { action: "type", text: "hi" },
          { action: "scroll", coordinate: [5, 5], scroll_direction: "up", scroll_amount: 3 },
        ],
        safety_checks: [check],
      },
    ]);
    expect(prompts).toHaveLength(1);
    expect(prompts[0].summary).toContain("provider safety check: The screen may contain instructions");
    const input = h.fake.requests[1]!.body.input;
    const output = input.find((i: any) => i.type === "computer_call_output");
    expect(output.output).toEqual({ type: "computer_screenshot", image_url: `data:image/png;base64,${PIXEL}` });
    expect(output.acknowledged_safety_checks).toEqual([check]);
    expect(JSON.stringify(input.at(-1))).toContain("ran 4 steps");
    expect(h.fake.violations).toEqual([]);
  });
});

describe("Gemini's computer use", () => {
  it("offers computerUse without navigate and key_down/up, runs calls in per-mille steps, answers by the native name", async () => {
    await harness("gemini");
    h.fake.enqueue(
      {
        toolCalls: [
          { name: "click_at", input: { x: 500, y: 250 } },
          { name: "type_text_at", input: { x: 100, y: 900, text: "hello", press_enter: false, safety_decision: { decision: "require_confirmation", explanation: "typing into a form" } } },
          { name: "navigate", input: { url: "https://example.com" } },
        ],
      },
      { text: "done" },
    );
    await h.prompt(await h.newSession(), "go");
    const tools = h.fake.requests[0]!.body.tools;
    expect(tools).toContainEqual({ computerUse: { environment: "ENVIRONMENT_BROWSER", excludedPredefinedFunctions: ["navigate", "key_down", "key_up"] } });
    expect(tools.flatMap((t: any) => t.functionDeclarations ?? []).map((d: any) => d.name)).not.toContain("computer");
    expect(ran).toEqual([
      { steps: [{ action: "left_click", coordinate: [500, 250], units: "per_mille" }] },
      {
        steps: [
          { action: "left_click", coordinate: [100, 900], units: "per_mille" },
          { action: "key", text: "ctrl+a" },
          { action: "key", text: "BackSpace" },
          { action: "type", text: "hello" },
        ],
        safety_checks: [{ id: "gemini_safety_decision", message: "typing into a form" }],
      },
    ]);
    const parts = h.fake.requests[1]!.body.contents.at(-1).parts;
    const responses = parts.filter((p: any) => p.functionResponse).map((p: any) => p.functionResponse);
    expect(responses.map((r: any) => r.name)).toEqual(["click_at", "type_text_at", "navigate"]);
    expect(responses[1].response.safety_acknowledgement).toBe("true");
    expect(responses[2].response.error).toContain("not available on the desktop");
    expect(h.fake.violations).toEqual([]);
  });

  it("does not run a call Gemini blocked", async () => {
    await harness("gemini");
    h.fake.enqueue({ toolCalls: [{ name: "click_at", input: { x: 1, y: 1, safety_decision: { decision: "blocked", explanation: "a payment button" } } }] }, { text: "ok" });
    await h.prompt(await h.newSession(), "go");
    expect(ran).toEqual([]);
    const response = h.fake.requests[1]!.body.contents.at(-1).parts.find((p: any) => p.functionResponse).functionResponse;
    expect(response.response.error).toBe("Not run: Gemini blocked this action (a payment button).");
  });
});
