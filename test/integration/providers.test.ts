/**
 * Every provider end to end through the loop against the fake: a text turn, a tool turn with the
 * result fed back, a 429 retried after its retry-after, usage with cost, and a readable error.
 */
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../../server/src/tools/define-tool.js";
import { startAgentHarness, type AgentHarness, type FakeApi } from "../helpers/agent-setup.js";

let h: AgentHarness;
afterEach(async () => {
  await h.dispose();
});

const APIS: FakeApi[] = ["anthropic", "openai", "openai-compatible", "gemini"];

async function harness(api: FakeApi) {
  h = await startAgentHarness({ api });
  h.server.runtime()!.registry.register(
    defineTool({
      name: "lookup",
      description: "Looks a word up",
      input: z.object({ word: z.string() }),
      policyClass: "read_only",
      category: "test",
      execute: async ({ word }) => `definition of ${word}`,
    }),
  );
}

describe.each(APIS)("%s end to end", (api) => {
  it("streams text, runs a tool, retries a 429 and reports usage", async () => {
    await harness(api);
    h.fake.enqueue(
      { error: { status: 429, message: "rate limited", retryAfterSeconds: 0 } },
      { thinking: "I should look it up.", toolCalls: [{ name: "lookup", input: { word: "lsp" } }], usage: { input: 100, output: 10 } },
      { text: "LSP is a protocol.", usage: { input: 120, output: 6, cacheRead: 40 } },
    );
    const id = await h.newSession();
    const res = await h.prompt(id, "what is lsp?");
    expect(res.stopReason).toBe("end_turn");
    expect(h.client.answerText()).toBe("LSP is a protocol.");
    expect(h.client.updatesOf("status")[0].text).toContain("rate limited");
    expect(h.client.updatesOf("tool_call_update").at(-1)).toMatchObject({ status: "completed", output: "definition of lsp" });
    const usage = h.client.updatesOf("usage").at(-1);
    expect(usage.inputTokens).toBe(220);
    expect(usage.outputTokens).toBeGreaterThanOrEqual(16); // some APIs count reasoning tokens as output
    expect(JSON.stringify(h.fake.requests.at(-1)!.body)).toContain("definition of lsp");
    expect(h.fake.violations).toEqual([]);
  });

  it("ends the turn with the provider's own message on a bad request", async () => {
    await harness(api);
    h.fake.enqueue({ error: { status: 400, message: "model does not exist: nope-1" } });
    const res = await h.prompt(await h.newSession(), "hi");
    expect(res.stopReason).toBe("error");
    expect(h.client.updatesOf("error")[0].message).toContain("model does not exist: nope-1");
  });
});

describe("openai-compatible without tool support", () => {
  it("tells the user which model lacks tools", async () => {
    await harness("openai-compatible");
    h.fake.enqueue({ error: { status: 400, message: "registry.ollama.ai/library/qwen2.5-coder:7b does not support tools" } });
    const res = await h.prompt(await h.newSession(), "hi");
    expect(res.stopReason).toBe("error");
    const message = h.client.updatesOf("error")[0].message as string;
    expect(message).toContain('"qwen2.5-coder:7b"');
    expect(message).toMatch(/does not support tool/);
    expect(message).not.toMatch(/at .*\.js:\d+/); // no stack trace
  });
});
