/**
 * The agent loop against the fake provider: multi-step tool turns, retries with backoff,
 * errors surfaced to the editor, and a stream that closes halfway.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../../server/src/tools/define-tool.js";
import { startAgentHarness, type AgentHarness } from "../helpers/agent-setup.js";

let h: AgentHarness;
const calls: unknown[] = [];
beforeEach(async () => {
  h = await startAgentHarness();
  calls.length = 0;
  h.server.runtime()!.registry.register(
    defineTool({
      name: "echo",
      description: "Echoes its input",
      input: z.object({ value: z.string() }),
      policyClass: "read_only",
      category: "test",
      execute: async (input) => {
        calls.push(input);
        return `echo: ${input.value}`;
      },
    }),
  );
});
afterEach(async () => {
  await h.dispose();
});

describe("turn loop", () => {
  it("runs a multi-step tool turn in order and feeds results back", async () => {
    h.fake.enqueue(
      { text: "Let me check.", toolCalls: [{ name: "echo", input: { value: "a" } }, { name: "echo", input: { value: "b" } }] },
      { toolCalls: [{ name: "echo", input: { value: "c" } }] },
      { text: "All done." },
    );
    const id = await h.newSession();
    const res = await h.prompt(id, "go");
    expect(res.stopReason).toBe("end_turn");
    expect(calls).toEqual([{ value: "a" }, { value: "b" }, { value: "c" }]);
    expect(h.fake.violations).toEqual([]);
    const second = h.fake.requests[1]!.body.messages;
    const results = second[2].content.filter((b: any) => b.type === "tool_result");
    expect(results.map((r: any) => JSON.stringify(r.content))).toEqual([expect.stringContaining("echo: a"), expect.stringContaining("echo: b")]);
    // echo only reads, so a and b may run side by side: each call's own updates are in order.
    const byCall = new Map<string, string[]>();
    for (const u of h.client.updatesOf("tool_call_update")) byCall.set(u.id, [...(byCall.get(u.id) ?? []), u.status]);
    expect([...byCall.values()]).toEqual([
      ["running", "completed"],
      ["running", "completed"],
      ["running", "completed"],
    ]);
    expect(h.client.updatesOf("tool_call").map((u) => u.status)).toEqual(["pending", "pending", "pending"]);
  });

  it("gives the model a readable error for bad tool input and unknown tools", async () => {
    h.fake.enqueue({ toolCalls: [{ name: "echo", input: { value: 7 } }, { name: "nope", input: {} }] }, { text: "ok" });
    const id = await h.newSession();
    await h.prompt(id, "go");
    const results = h.fake.requests[1]!.body.messages[2].content;
    expect(results[0]).toMatchObject({ is_error: true });
    expect(JSON.stringify(results[0].content)).toContain("value");
    expect(JSON.stringify(results[1].content)).toContain('There is no tool \\"nope\\"');
  });

  it("retries a 529 with backoff and then succeeds, saying so in a status update", async () => {
    h.fake.enqueue({ error: { status: 529, message: "Overloaded" } }, { error: { status: 429, message: "slow down", retryAfterSeconds: 0 } }, { text: "Made it." });
    const id = await h.newSession();
    const res = await h.prompt(id, "go");
    expect(res.stopReason).toBe("end_turn");
    expect(h.client.answerText()).toBe("Made it.");
    const statuses = h.client.updatesOf("status").map((u) => u.text);
    expect(statuses).toHaveLength(2);
    expect(statuses[0]).toMatch(/^retrying in \d+ ms: 529 overloaded \(attempt 2 of 4\)$/);
    expect(statuses[1]).toBe("retrying in 0 ms: 429 rate limited (attempt 3 of 4)");
    expect(h.fake.requests).toHaveLength(3);
  });

  it("ends the turn with error and a readable message on a 400", async () => {
    h.fake.enqueue({ error: { status: 400, message: "prompt is too long: 300000 tokens > 200000 maximum" } });
    const id = await h.newSession();
    const res = await h.prompt(id, "go");
    expect(res.stopReason).toBe("error");
    const err = h.client.updatesOf("error")[0];
    expect(err.message).toContain("prompt is too long");
    expect(h.fake.requests).toHaveLength(1); // not retried
  });

  it("gives up after the configured retries", async () => {
    h.fake.enqueue(...Array.from({ length: 4 }, () => ({ error: { status: 503, message: "unavailable" } })));
    const id = await h.newSession();
    const res = await h.prompt(id, "go");
    expect(res.stopReason).toBe("error");
    expect(h.fake.requests).toHaveLength(4);
  });

  it("a stream that closes halfway ends the turn with an error and keeps the history intact", async () => {
    h.fake.enqueue({ text: "This answer will be cut off somewhere in the middle", cutAfterEvents: 5 });
    const id = await h.newSession();
    const res = await h.prompt(id, "go");
    expect(res.stopReason).toBe("error");
    expect(h.client.updatesOf("error")[0].message).toMatch(/clos|ended|terminated|connection/i);
    // The session goes on: the next turn sends the earlier user message and the partial answer.
    h.fake.enqueue({ text: "Second try." });
    await expect(h.prompt(id, "again")).resolves.toMatchObject({ stopReason: "end_turn" });
    expect(h.fake.violations).toEqual([]);
    const log = readFileSync(path.join(h.root, ".agent-lsp", "conversations", `${id}.jsonl`), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(log[0]).toMatchObject({ type: "session", sessionId: id });
    expect(log.filter((r) => r.type === "message").map((r) => r.seq)).toEqual([1, 2, 3, 4].slice(0, log.length - 1));
  });

  it("stops at max_turns", async () => {
    await h.close();
    h = await startAgentHarness({ options: { max_turns: 2 } });
    h.server.runtime()!.registry.register(
      defineTool({ name: "echo", description: "x", input: z.object({ value: z.string() }), policyClass: "read_only", category: "test", execute: async () => "x" }),
    );
    h.fake.enqueue({ toolCalls: [{ name: "echo", input: { value: "1" } }] }, { toolCalls: [{ name: "echo", input: { value: "2" } }] });
    const id = await h.newSession();
    await expect(h.prompt(id, "loop")).resolves.toMatchObject({ stopReason: "max_turns" });
  });
});
