/**
 * Compaction through the loop with the fake provider: usage near the window triggers the summary
 * request and the turn continues from the checkpoint; the log (and context_archive) still holds
 * every message; a loaded session comes back as its working context; a failed summary changes
 * nothing; compact_context and /compact run one on request; /context reports the window.
 */
import { appendFileSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startAgentHarness, type AgentHarness } from "../helpers/agent-setup.js";

let harnesses: AgentHarness[] = [];
afterEach(async () => {
  const open = harnesses;
  harnesses = [];
  for (const h of open.reverse()) await h.dispose();
});

async function harness(root?: string, options: Record<string, unknown> = {}): Promise<AgentHarness> {
  const h = await startAgentHarness({ ...(root ? { root } : {}), options });
  harnesses.push(h);
  return h;
}

function logOf(h: AgentHarness, id: string): any[] {
  const file = path.join(h.root, ".agent-lsp", "conversations", `${id}.jsonl`);
  return readFileSync(file, "utf8").trim().split("\n").map((l) => JSON.parse(l));
}

/** All text a request sent in user messages (tool results included). */
function sentText(body: any): string {
  return JSON.stringify(body.messages);
}

const command = (h: AgentHarness, sessionId: string, name: string, args: string[] = []) =>
  h.client.connection.sendRequest("agent/command", { sessionId, command: name, args }) as Promise<{ message: string }>;

/** A session whose first turn reported a context of 180,000 tokens (claude-sonnet-4-6: a 200,000 window, 85% is 170,000). */
async function nearlyFullSession(h: AgentHarness): Promise<string> {
  const id = await h.newSession();
  // A prompt as long as the count says (about 160,000 tokens): the count and the estimate agree, as with a real provider.
  h.fake.enqueue({ text: "Done with the parser: tokens are split in lexer.ts.", usage: { input: 179_000, output: 1000 } });
  await h.prompt(id, `fix the parser in lexer.ts; its output:\n${"the lexer splits identifiers, numbers and strings\n".repeat(12_500)}`);
  return id;
}

describe("automatic compaction", () => {
  it("summarises the older history before the call that would pass the threshold, then continues from the checkpoint", async () => {
    const h = await harness();
    const id = await nearlyFullSession(h);
    h.fake.enqueue({ text: "SUMMARY: the parser was fixed in lexer.ts." }, { text: "The tests pass now." });
    const res = await h.prompt(id, "now run the tests");
    expect(res.stopReason).toBe("end_turn");
    expect(h.fake.requests).toHaveLength(3);

    // The summary request: the conversation as a transcript, no tools, not streamed to the chat.
    const summary = h.fake.requests[1]!.body;
    expect(summary.tools ?? []).toEqual([]);
    expect(sentText(summary)).toContain("Done with the parser");
    expect(sentText(summary)).not.toContain("now run the tests");
    expect(h.client.answerText()).not.toContain("SUMMARY:");

    // The continued turn: the checkpoint and the new prompt, nothing of the archived answer.
    const continued = h.fake.requests[2]!.body;
    expect(sentText(continued)).toContain("[Checkpoint 1");
    expect(sentText(continued)).toContain("SUMMARY: the parser was fixed");
    expect(sentText(continued)).toContain("now run the tests");
    expect(sentText(continued)).not.toContain("Done with the parser");

    const marker = h.client.updatesOf("compaction")[0];
    expect(marker).toMatchObject({ n: 1, trigger: "auto", through: 2, summaryPreview: expect.stringContaining("SUMMARY") });
    expect(marker.tokensBefore).toBeGreaterThanOrEqual(170_000);
    expect(marker.tokensAfter).toBeLessThan(marker.tokensBefore / 10);
    expect(h.client.updatesOf("status").map((u) => u.text).join("\n")).toMatch(/Compacted: about \d+ -> \d+ tokens/);

    // Nothing deleted: every message numbered in order, the compaction record marking 1-2.
    const log = logOf(h, id);
    expect(log.filter((r) => r.type === "message").map((r) => r.seq)).toEqual([1, 2, 3, 4]);
    expect(log.find((r) => r.type === "compaction")).toMatchObject({ n: 1, through: 2, trigger: "auto", archived: 2 });
    expect(h.fake.violations).toEqual([]);
  });

  it("lets the model read archived messages back with context_archive", async () => {
    const h = await harness();
    const id = await nearlyFullSession(h);
    h.fake.enqueue(
      { text: "SUMMARY." },
      { toolCalls: [{ name: "context_archive", input: { query: "TOKENS ARE SPLIT" } }] },
      { toolCalls: [{ name: "context_archive", input: { message: 2 } }] },
      { text: "found it" },
    );
    await h.prompt(id, "where were tokens split?");
    const search = JSON.stringify(h.fake.requests[3]!.body.messages.at(-1));
    expect(search).toContain("message(s) matching");
    expect(search).toContain("#2 assistant [archived by compaction 1]");
    const read = JSON.stringify(h.fake.requests[4]!.body.messages.at(-1));
    expect(read).toContain("#2 (assistant");
    expect(read).toContain("Done with the parser: tokens are split in lexer.ts.");
  });

  it("leaves the session as it was when the summary call fails, and says so", async () => {
    const h = await harness();
    const id = await nearlyFullSession(h);
    h.fake.enqueue({ error: { status: 400, message: "summary refused" } }, { text: "Carrying on." });
    expect((await h.prompt(id, "next step")).stopReason).toBe("end_turn");
    expect(h.client.updatesOf("status").map((u) => u.text).join("\n")).toMatch(/Compaction failed \(.*summary refused.*\); the conversation was left as it was/);
    expect(sentText(h.fake.requests[2]!.body)).toContain("Done with the parser");
    expect(h.client.updatesOf("compaction")).toEqual([]);
    expect(logOf(h, id).some((r) => r.type === "compaction")).toBe(false);
  });

  it("is left to the provider with provider_native on Anthropic, whose summary becomes the checkpoint", async () => {
    const h = await harness(undefined, { compaction: { provider_native: true } });
    const id = await nearlyFullSession(h);
    expect(h.fake.requests[0]!.body.context_management).toEqual({ edits: [{ type: "compact_20260112", trigger: { type: "input_tokens", value: 170_000 } }] });
    expect(h.fake.requests[0]!.headers["anthropic-beta"]).toContain("compact-2026-01-12");
    // No summary call of ours: the provider compacts within the call and answers from its summary.
    h.fake.enqueue({ compaction: "SERVER SUMMARY: parser fixed.", text: "Tests run." }, { text: "ok" });
    await h.prompt(id, "run the tests");
    expect(h.fake.requests).toHaveLength(2);
    expect(h.client.answerText()).not.toContain("SERVER SUMMARY");
    expect(h.client.updatesOf("compaction")[0]).toMatchObject({ n: 1, trigger: "provider", through: 3 });

    await h.prompt(id, "and then?");
    const next = sentText(h.fake.requests[2]!.body);
    expect(next).toContain("SERVER SUMMARY: parser fixed.");
    expect(next).toContain("Tests run.");
    expect(next).not.toContain("Done with the parser");
    expect(logOf(h, id).find((r) => r.type === "compaction")).toMatchObject({ trigger: "provider", through: 3 });
    expect(h.fake.violations).toEqual([]);
  });
});

describe("edit and re-send after a compaction", () => {
  it("takes back only the last exchange; the checkpoint stays", async () => {
    const h = await harness();
    const id = await nearlyFullSession(h);
    h.fake.enqueue({ text: "SUMMARY: parser fixed." }, { text: "Tests pass." }, { text: "Linted." });
    await h.prompt(id, "run the tests");
    await h.prompt(id, "run the linter", { replaceLast: true });
    const sent = sentText(h.fake.requests[3]!.body);
    expect(sent).toContain("SUMMARY: parser fixed.");
    expect(sent).toContain("run the linter");
    expect(sent).not.toContain("run the tests");
    expect(sent).not.toContain("Tests pass.");
  });

  it("cannot take back a prompt the checkpoint stands for: the checkpoint is never rewound", async () => {
    const h = await harness();
    const id = await h.newSession();
    h.fake.enqueue({ toolCalls: [{ name: "compact_context", input: {} }] }, { text: "SUMMARY of the long task." }, { text: "continuing" }, { text: "other" });
    await h.prompt(id, "long task");
    await h.prompt(id, "another task", { replaceLast: true });
    const sent = sentText(h.fake.requests[3]!.body);
    expect(sent).toContain("SUMMARY of the long task.");
    expect(sent).toContain("another task");
  });
});

describe("a compacted session loaded again", () => {
  it("replays the marker and what came after, and sends the checkpoint as its context", async () => {
    const first = await harness();
    const id = await nearlyFullSession(first);
    first.fake.enqueue({ text: "SUMMARY: parser fixed." }, { text: "Tests pass." });
    await first.prompt(id, "run the tests");

    const second = await harness(first.root);
    await second.client.connection.sendRequest("agent/loadSession", { sessionId: id });
    const replay = second.client.updates.map((u) => u.update);
    expect(replay.map((u) => u.kind)).toEqual(["compaction", "user_message", "text"]);
    expect(replay[0]).toMatchObject({ n: 1, through: 2 });

    second.fake.enqueue({ text: "hello again" });
    await second.prompt(id, "and now?");
    const body = second.fake.requests[0]!.body;
    expect(sentText(body)).toContain("SUMMARY: parser fixed.");
    expect(sentText(body)).toContain("Tests pass.");
    expect(sentText(body)).not.toContain("Done with the parser");
    const log = logOf(second, id);
    expect(log.filter((r) => r.type === "message").map((r) => r.seq)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("reports a corrupt line of the log by number and skips it", async () => {
    const first = await harness();
    const id = await first.newSession();
    first.fake.enqueue({ text: "one" });
    await first.prompt(id, "first");
    appendFileSync(path.join(first.root, ".agent-lsp", "conversations", `${id}.jsonl`), '{"type":"message","seq":3,"message":{"role":"user"}}\nnot json\n');

    const second = await harness(first.root);
    await second.client.connection.sendRequest("agent/loadSession", { sessionId: id });
    const status = second.client.updatesOf("status").map((u) => u.text).join("\n");
    expect(status).toMatch(/2 line\(s\) of this session's log could not be read .*line 4, 5 of/);
    expect(second.client.updates.map((u) => u.update.kind)).toEqual(["user_message", "text", "status"]);
  });
});

describe("compaction on request", () => {
  it("compact_context runs one before the model's next call, with its focus", async () => {
    const h = await harness();
    const id = await h.newSession();
    h.fake.enqueue(
      { toolCalls: [{ name: "compact_context", input: { focus: "the failing test names" } }] },
      { text: "SUMMARY with test names." },
      { text: "continuing" },
    );
    await h.prompt(id, "long task");
    expect(h.fake.requests).toHaveLength(3);
    expect(sentText(h.fake.requests[1]!.body)).toContain("Focus the summary on: the failing test names");
    expect(sentText(h.fake.requests[2]!.body)).toContain("SUMMARY with test names.");
    expect(h.client.updatesOf("compaction")[0]).toMatchObject({ trigger: "model", through: 3 });
  });

  it("/compact runs one now; /context reports the window, its parts and the last compaction", async () => {
    const h = await harness();
    const id = await h.newSession();
    h.fake.enqueue({ text: `answer one: ${"a long answer ".repeat(500)}`, usage: { input: 5000, output: 100 } });
    await h.prompt(id, "question one");
    h.fake.enqueue({ text: "SUMMARY by request." });
    const done = await command(h, id, "compact", ["keep", "the", "API"]);
    expect(done.message).toMatch(/Compacted \(checkpoint 1\)/);
    // Before and after in one measure: the provider's count (5,100 and the prompt since) scaled,
    // not an estimate of the whole request (system prompt and tools) set against it.
    const [, before, after] = /about (\d+) -> (\d+) tokens/.exec(done.message)!.map(Number);
    expect(before).toBeGreaterThanOrEqual(5100);
    expect(after).toBeLessThan(before!);
    expect(sentText(h.fake.requests[1]!.body)).toContain("Focus the summary on: keep the API");
    expect(h.client.updatesOf("compaction")[0]).toMatchObject({ trigger: "user" });

    const report = (await command(h, id, "context")).message;
    expect(report).toMatch(/Context window of anthropic\/claude-sonnet-4-6: 200,000 tokens/);
    expect(report).toMatch(/- System prompt: about [\d,]+ tokens/);
    expect(report).toMatch(/- Tools \(\d+\): about [\d,]+ tokens/);
    expect(report).toMatch(/- History \(1 message\(s\) in the working context\)/);
    expect(report).toMatch(/- Last compaction: #1 \(user\)/);
  });

  it("/compact with nothing to compact fails with a reason and changes nothing", async () => {
    const h = await harness();
    const id = await h.newSession();
    await expect(command(h, id, "compact")).rejects.toThrow(/Nothing to compact/);
    expect(h.fake.requests).toHaveLength(0);
  });
});
