/**
 * Edit and re-send (`agent/prompt` with `replaceLast`): the last exchange leaves what the model
 * sees, the log keeps its lines with a `rewind` record, and a resumed session comes back rewound.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startAgentHarness, type AgentHarness } from "../helpers/agent-setup.js";

let harnesses: AgentHarness[] = [];
afterEach(async () => {
  const open = harnesses;
  harnesses = [];
  for (const h of open.reverse()) await h.dispose();
});

async function harness(root?: string): Promise<AgentHarness> {
  const h = await startAgentHarness(root ? { root } : {});
  harnesses.push(h);
  return h;
}

/** Every text the model was sent in a recorded Anthropic request, user and assistant alike. */
function texts(body: any): string[] {
  return body.messages.flatMap((m: any) =>
    typeof m.content === "string" ? [m.content] : m.content.filter((b: any) => b.type === "text").map((b: any) => b.text),
  );
}

function logOf(h: AgentHarness, id: string): any[] {
  const file = path.join(h.root, ".agent-lsp", "conversations", `${id}.jsonl`);
  return readFileSync(file, "utf8").trim().split("\n").map((l) => JSON.parse(l));
}

describe("agent/prompt with replaceLast", () => {
  it("drops the last exchange (tool calls included) from what the model sees, and keeps it in the log", async () => {
    const h = await harness();
    const id = await h.newSession();
    h.fake.enqueue({ text: "First answer." });
    await h.prompt(id, "first question");
    h.fake.enqueue({ toolCalls: [{ name: "read_file", input: { path: "missing.txt" } }] }, { text: "Second answer." });
    await h.prompt(id, "second question, badly put");
    h.fake.enqueue({ text: "Better answer." });
    expect((await h.prompt(id, "second question, well put", { replaceLast: true })).stopReason).toBe("end_turn");

    const sent = texts(h.fake.requests.at(-1)!.body).join("\n");
    expect(sent).toContain("first question");
    expect(sent).toContain("First answer.");
    expect(sent).toContain("second question, well put");
    expect(sent).not.toContain("badly put");
    expect(sent).not.toContain("Second answer.");
    expect(JSON.stringify(h.fake.requests.at(-1)!.body.messages)).not.toContain("missing.txt");

    const log = logOf(h, id);
    // Nothing is deleted: the rewound prompt (seq 3) and its tool call, result and answer stay.
    expect(log.filter((r) => r.type === "message").map((r) => r.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(log.filter((r) => r.type === "rewind")).toEqual([{ type: "rewind", seq: 3, time: expect.any(String) }]);
  });

  it("is an ordinary prompt when there is nothing to replace", async () => {
    const h = await harness();
    const id = await h.newSession();
    h.fake.enqueue({ text: "Hi." });
    expect((await h.prompt(id, "hello", { replaceLast: true })).stopReason).toBe("end_turn");
    expect(logOf(h, id).some((r) => r.type === "rewind")).toBe(false);
  });

  it("replaces a prompt that failed, and a resumed session replays the rewound state", async () => {
    const first = await harness();
    const id = await first.newSession();
    first.fake.enqueue({ text: "Kept." }, { error: { status: 400, message: "model does not exist" } }, { text: "Fixed." });
    await first.prompt(id, "the kept one");
    await first.prompt(id, "the failed one");
    await first.prompt(id, "the edited one", { replaceLast: true });

    const second = await harness(first.root);
    await second.client.connection.sendRequest("agent/loadSession", { sessionId: id });
    const replay = second.client.updates.map((u) => u.update);
    // The failed prompt and its error are gone from the replay: it was edited into the next one.
    expect(replay.map((u) => u.kind)).toEqual(["user_message", "text", "user_message", "text"]);
    expect(replay[2]).toMatchObject({ text: expect.stringContaining("the edited one") });

    // Resumed, replacing again drops the edited exchange, not the kept one.
    second.fake.enqueue({ text: "Third." });
    await second.prompt(id, "edited twice", { replaceLast: true });
    const sent = texts(second.fake.requests.at(-1)!.body).join("\n");
    expect(sent).toContain("the kept one");
    expect(sent).not.toContain("the edited one");
    expect(sent).toContain("edited twice");
    // Messages: 1 kept prompt, 2 its answer, 3 failed prompt, 4 edited prompt, 5 its answer, 6, 7.
    expect(logOf(second, id).filter((r) => r.type === "rewind").map((r) => r.seq)).toEqual([3, 4]);
  });
});
