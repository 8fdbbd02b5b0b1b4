/**
 * Read-only calls the model asks for in one message run side by side; anything that may change
 * something runs alone, in order (issue 20, item 7). Each tool here logs when it starts and ends,
 * and waits until told, so the order of the log says what overlapped.
 */
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../../server/src/tools/define-tool.js";
import type { PolicyClass } from "../../server/src/vocabulary/policy.js";
import { startAgentHarness, type AgentHarness } from "../helpers/agent-setup.js";

let h: AgentHarness;
afterEach(async () => {
  await h?.dispose();
});

/** Registers a tool that logs `start NAME`, waits `ms`, logs `end NAME`. */
function slowTool(log: string[], name: string, policyClass: PolicyClass, ms = 150): void {
  h.server.runtime()!.registry.register(
    defineTool({
      name,
      description: "a slow test tool",
      input: z.object({}),
      policyClass,
      category: "test",
      execute: async () => {
        log.push(`start ${name}`);
        await new Promise((r) => setTimeout(r, ms));
        log.push(`end ${name}`);
        return `${name} done`;
      },
    }),
  );
}

describe("several tool calls in one model message", () => {
  it("runs reads together and a write alone, answering in the order asked", async () => {
    h = await startAgentHarness({ options: { tools: { provider_native: false } } });
    const log: string[] = [];
    const id = await h.newSession();
    slowTool(log, "read_a", "read_only");
    slowTool(log, "read_b", "read_only");
    slowTool(log, "write_c", "read_write");
    slowTool(log, "read_d", "read_only");
    h.fake.enqueue({ toolCalls: ["read_a", "read_b", "write_c", "read_d"].map((name) => ({ name, input: {} })) }, { text: "done" });
    await h.prompt(id, "go");
    // read_a and read_b overlap; write_c starts only after both ended; read_d after write_c.
    expect(log.slice(0, 2).sort()).toEqual(["start read_a", "start read_b"]);
    expect(log.slice(2, 4).sort()).toEqual(["end read_a", "end read_b"]);
    expect(log.slice(4)).toEqual(["start write_c", "end write_c", "start read_d", "end read_d"]);
    const results = (h.fake.requests[1]!.body.messages.at(-1).content as { type: string; content: { text: string }[] }[])
      .filter((b) => b.type === "tool_result")
      .map((b) => b.content[0]!.text);
    expect(results).toEqual(["read_a done", "read_b done", "write_c done", "read_d done"]);
  });
});
