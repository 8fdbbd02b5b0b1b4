/**
 * Prompts a client keeps on screen after agent-lsp withdrew them (Helix ignores $/cancelRequest):
 * a choice made there later is said in the message line and the chat file, never dropped in
 * silence. And a question with choices that also takes the user's own words, to a client asked
 * in its message box (`[editor] approvals = "message"`): the buttons and a chat-file block at
 * once, the first answer wins.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentHarness } from "../helpers/agent-setup.js";
import { waitFor } from "../helpers/wait.js";
import { safetyHarness, toolResultsSent } from "./safety-helpers.js";

let h: AgentHarness;
afterEach(async () => {
  await h?.dispose();
});

/** A message box the test answers when it likes: `answer` settles the pending one. */
function heldBox(harness: AgentHarness): { shown: () => boolean; answer: (title: string) => void } {
  let settle: ((title: string) => void) | undefined;
  harness.client.script.showMessageRequest = () => new Promise<string>((resolve) => (settle = resolve));
  return { shown: () => settle !== undefined, answer: (title) => settle!(title) };
}

const chatText = () => {
  const file = path.join(h.root, ".agent-lsp/chat.md");
  return existsSync(file) ? readFileSync(file, "utf8") : "";
};
const messages = () => h.client.messages.map((m) => m.message);

describe("a prompt answered after it was withdrawn", () => {
  it("an approval that timed out, answered Yes later: the message line and the chat file say nothing ran", async () => {
    h = await safetyHarness("ask", { extra: { approval_timeout_s: 0.5 } });
    const box = heldBox(h);
    h.fake.enqueue({ toolCalls: [{ name: "write_file", input: { path: "a.txt", content: "one\n" } }] }, { text: "It was not written." });
    await h.prompt(await h.newSession(), "write a.txt");
    expect(box.shown()).toBe(true);
    expect(toolResultsSent(h)[0]!.isError).toBe(true);
    box.answer("Yes");
    const said = 'agent-lsp: that approval had already timed out; nothing ran (you chose "Yes")';
    await waitFor(() => messages().includes(said), 10_000);
    await waitFor(() => chatText().includes(`_${said}_`), 10_000);
    expect(existsSync(path.join(h.root, "a.txt"))).toBe(false);
  });

  it("an approval withdrawn by the turn's cancel, answered later: said as withdrawn", async () => {
    h = await safetyHarness("ask");
    const box = heldBox(h);
    h.fake.enqueue({ toolCalls: [{ name: "write_file", input: { path: "a.txt", content: "one\n" } }] }, { text: "unused" });
    const sessionId = await h.newSession();
    const turn = h.prompt(sessionId, "write a.txt");
    await waitFor(box.shown, 10_000);
    await h.client.connection.sendNotification("agent/cancel", { sessionId });
    await expect(turn).resolves.toMatchObject({ stopReason: "cancelled" });
    box.answer("Yes, don't ask again");
    await waitFor(() => messages().some((m) => m.startsWith("agent-lsp: that approval had already been withdrawn (the turn was cancelled); nothing ran")), 10_000);
    expect(existsSync(path.join(h.root, "a.txt"))).toBe(false);
  });

  it("a box dismissed after the timeout says nothing more", async () => {
    h = await safetyHarness("ask", { extra: { approval_timeout_s: 0.5 } });
    let dismiss!: () => void;
    h.client.script.showMessageRequest = () => new Promise<null>((resolve) => (dismiss = () => resolve(null)));
    h.fake.enqueue({ toolCalls: [{ name: "write_file", input: { path: "a.txt", content: "one\n" } }] }, { text: "ok" });
    await h.prompt(await h.newSession(), "write a.txt");
    dismiss();
    // A marker sent after the dismissal: once it is back, the dismissal has been handled.
    await h.client.connection.sendRequest("agent/listSessions", {});
    expect(messages().filter((m) => /had already/.test(m))).toEqual([]);
  });
});

describe("a question with choices and room for the user's words, to a message-box client", () => {
  const ASK = { toolCalls: [{ name: "ask_user_question", input: { question: "Which database?", choices: ["Postgres", "SQLite"] } }] };

  it("the box answers first: its choice is the answer, and the chat file's block says where it was answered", async () => {
    h = await safetyHarness("ask");
    const box = heldBox(h);
    h.fake.enqueue(ASK, { text: "ok" });
    const turn = h.prompt(await h.newSession(), "set up storage");
    await waitFor(() => box.shown() && /### Question \(#[0-9a-f]+\): Which database\?/.test(chatText()), 10_000);
    box.answer("SQLite");
    await turn;
    expect(toolResultsSent(h)[0]!.text).toBe("The user answered: SQLite");
    await waitFor(() => chatText().includes("Answered in the message box."), 10_000);
  });

  it("the block answers first (the user's own words): the box clicked later is a late answer", async () => {
    h = await safetyHarness("ask");
    const box = heldBox(h);
    h.fake.enqueue(ASK, { text: "ok" });
    const turn = h.prompt(await h.newSession(), "set up storage");
    await waitFor(() => box.shown() && /### Question \(#[0-9a-f]+\)/.test(chatText()), 10_000);
    const id = /### Question \(#([0-9a-f]+)\)/.exec(chatText())![1]!;
    await h.client.connection.sendRequest("workspace/executeCommand", { command: "agent.answer", arguments: [{ block: id, answer: "Postgres" }] });
    await turn;
    expect(toolResultsSent(h)[0]!.text).toBe("The user answered: Postgres");
    box.answer("SQLite");
    await waitFor(() => messages().includes('agent-lsp: that question had already been answered in the chat file; the answer was not passed on (you chose "SQLite")'), 10_000);
  });
});
