/**
 * The chat file (.agent-lsp/chat.md) on the in-process server, for a client without the agent
 * protocol: Send to agent streams the answer into the open buffer through workspace/applyEdit
 * (batched, appended after whatever the user typed meanwhile), or onto the disk when the file is
 * closed; approvals and questions become blocks answered by code actions when the client answers
 * window/showMessageRequest with MethodNotFound; Add selection quotes the selection.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import type { ClientCapabilities } from "vscode-languageserver/node.js";
import { startAgentHarness, type AgentHarness } from "../helpers/agent-setup.js";
import { defaultCapabilities } from "../helpers/lsp-client.js";
import { waitFor } from "../helpers/wait.js";

let h: AgentHarness;
afterEach(async () => {
  await h?.dispose();
});

const LITERALS = { textDocument: { codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ["quickfix", "refactor", "source"] } } } } };
const PLAIN = { ...defaultCapabilities(), ...LITERALS } as ClientCapabilities;
const CHAT = ".agent-lsp/chat.md";

async function start(options: Record<string, unknown> = {}, capabilities: ClientCapabilities = PLAIN): Promise<{ chatUri: string }> {
  h = await startAgentHarness({ capabilities, options: { tools: { provider_native: false }, ...options } });
  return { chatUri: pathToFileURL(path.join(h.root, CHAT)).href };
}

const execute = (command: string, args: unknown[] = []) => h.client.connection.sendRequest("workspace/executeCommand", { command, arguments: args }) as Promise<any>;
const codeActions = (uri: string, line: number) =>
  h.client.connection.sendRequest("textDocument/codeAction", {
    textDocument: { uri },
    range: { start: { line, character: 0 }, end: { line, character: 1 } },
    context: { diagnostics: [] },
  }) as Promise<any[]>;
const titles = (actions: any[]) => actions.map((a) => a.title as string);

/** Opens the chat file in the client with `prompt` under its `## You`. */
async function openChatWith(chatUri: string, prompt: string): Promise<void> {
  await execute("agent.openChat");
  const text = readFileSync(path.join(h.root, CHAT), "utf8");
  h.client.open(chatUri, `${text}${prompt}\n`, "markdown");
}

/** The ids of the approval and question blocks in `text`, in order. */
function blockIds(text: string | undefined): string[] {
  return [...(text ?? "").matchAll(/^### (?:Approval needed|Question) \(#([0-9a-f]{8})\)/gm)].map((m) => m[1]!);
}

/** The line of the chat buffer that starts with `prefix`. */
function lineOf(text: string, prefix: string): number {
  return text.split("\n").findIndex((l) => l.startsWith(prefix));
}

describe("chat file", () => {
  it("Send to agent streams the answer under ## Agent in the open buffer, tool lines, usage, a fresh ## You", async () => {
    const { chatUri } = await start();
    writeFileSync(path.join(h.root, "a.txt"), "hello\n");
    h.fake.enqueue({ toolCalls: [{ name: "read_file", input: { path: "a.txt" } }] }, { text: "The file says hello." });
    await openChatWith(chatUri, "What is in a.txt?");
    expect(await execute("agent.send")).toMatchObject({ status: "started" });
    await waitFor(() => /\n## You\n\n$/.test(h.client.text(chatUri)!.split("The file says hello.")[1] ?? ""), 10_000);
    const text = h.client.text(chatUri)!;
    expect(text).toMatch(/## You\n\nWhat is in a\.txt\?\n\n## Agent\n\n/);
    expect(text).toMatch(/^- Read a\.txt ✓$/m);
    expect(text).toMatch(/^_\d+ tokens in, \d+ out.*_$/m);
    expect(JSON.stringify(h.fake.requests[0]!.body.messages.at(-1).content)).toContain("What is in a.txt?");
    // Nothing went to disk behind the open buffer's back: every write was an applyEdit.
    expect(readFileSync(path.join(h.root, CHAT), "utf8")).not.toContain("The file says hello.");
  });

  it("a compaction during the turn is a marker line in the chat", async () => {
    const { chatUri } = await start({ compaction: { auto_threshold_percent: 1 } });
    // A 1% threshold of a 200,000-token window: the first call's 3,000 tokens pass it before the second.
    h.fake.enqueue({ toolCalls: [{ name: "list_files", input: {} }], usage: { input: 3000, output: 10 } }, { text: "SUMMARY." }, { text: "All listed." });
    await openChatWith(chatUri, "List the files");
    expect(await execute("agent.send")).toMatchObject({ status: "started" });
    await waitFor(() => (h.client.text(chatUri) ?? "").includes("All listed."), 10_000);
    expect(h.client.text(chatUri)!).toMatch(/^_── context compacted \(checkpoint 1, auto\): about [\d,]+ → [\d,]+ tokens; messages 1-3 archived ──_$/m);
  });

  it("the user's typing during the stream is kept: each batch is appended to the current text", { timeout: 20_000 }, async () => {
    const { chatUri } = await start();
    h.client.script.strictVersions = true; // as Helix: an edit for an older version is refused
    h.fake.enqueue({ text: "x".repeat(400), chunkSize: 4, chunkDelayMs: 5 });
    await openChatWith(chatUri, "Stream a lot");
    const started = Date.now();
    await execute("agent.send");
    await waitFor(() => (h.client.text(chatUri) ?? "").includes("xxxx"), 10_000);
    // The user writes a note at the top while the answer streams.
    h.client.change(chatUri, `NOTE from the user\n${h.client.text(chatUri)}`);
    await waitFor(() => /x{400}\n+(_.*_\n+)?## You\n\n$/.test(h.client.text(chatUri)!), 10_000).catch((err: Error) => {
      throw new Error(`${err.message}: ${JSON.stringify(h.client.text(chatUri))}`);
    });
    const elapsed = Date.now() - started;
    expect(h.client.text(chatUri)!.startsWith("NOTE from the user\n")).toBe(true);
    // 100 chunks arrived; edits are batched to about 10 a second.
    const edits = h.client.requests.filter((r) => r.method === "workspace/applyEdit").length;
    expect(edits).toBeLessThanOrEqual(Math.ceil(elapsed / 100) + 3);
  });

  it("a closed chat file is written on disk; Send with nothing pending says why in window/showMessage", async () => {
    const { chatUri } = await start();
    await expect(execute("agent.send")).rejects.toMatchObject({ code: -32602 });
    expect(h.client.messages.at(-1)?.message).toMatch(/agent\.send: nothing to send/);
    h.fake.enqueue({ text: "Answer on disk." });
    await execute("agent.prompt", ["Say something"]);
    await waitFor(() => existsSync(path.join(h.root, CHAT)) && /Answer on disk\.\n+(_.*_\n+)?## You\n\n$/.test(readFileSync(path.join(h.root, CHAT), "utf8")), 10_000);
    expect(readFileSync(path.join(h.root, CHAT), "utf8")).toMatch(/## You\n\nSay something\n\n## Agent\n\nAnswer on disk\./);
    // The empty `## You` of the new file took the prompt; one fresh heading follows the answer.
    expect(readFileSync(path.join(h.root, CHAT), "utf8").match(/^## You$/gm)).toHaveLength(2);
    expect(h.client.text(chatUri)).toBeUndefined();
  });

  it("ask mode, client without showMessageRequest: an approval block, Approve runs the change, the next one is not asked by message", async () => {
    const { chatUri } = await start({ safety: "ask" });
    h.client.script.showMessageRequest = () => "method-not-found";
    h.fake.enqueue({ toolCalls: [{ name: "write_file", input: { path: "a.txt", content: "one\n" } }] }, { toolCalls: [{ name: "write_file", input: { path: "b.txt", content: "two\n" } }] }, { text: "Wrote both." });
    await openChatWith(chatUri, "Write a.txt and b.txt");
    await execute("agent.send");
    await waitFor(() => blockIds(h.client.text(chatUri)).length === 1, 10_000);
    const [first] = blockIds(h.client.text(chatUri));
    // Said once the block is in the file.
    await waitFor(() => h.client.messages.some((m) => m.message === "agent-lsp: approval needed (see .agent-lsp/chat.md)"), 5000);
    const text = h.client.text(chatUri)!;
    const actions = await codeActions(chatUri, lineOf(text, `### Approval needed (#${first})`) + 2);
    expect(titles(actions).slice(0, 3)).toEqual(["Approve", "Approve, don't ask again", "Reject"]);
    await execute(actions[0].command.command, actions[0].command.arguments);
    await waitFor(() => blockIds(h.client.text(chatUri)).length === 2, 10_000);
    const second = blockIds(h.client.text(chatUri))[1]!;
    expect(second).not.toBe(first);
    expect(readFileSync(path.join(h.root, "a.txt"), "utf8")).toBe("one\n");
    // MethodNotFound is remembered: the second approval went straight to the chat file.
    expect(h.client.requests.filter((r) => r.method === "window/showMessageRequest")).toHaveLength(1);
    // An answer that is not one of the block's own is refused; the block still waits.
    await expect(execute("agent.answer", [{ block: second, answer: "maybe" }])).rejects.toMatchObject({ code: -32602, message: expect.stringContaining("allow_once, allow_always, reject") });
    // An answer to a block that no longer waits says so.
    await expect(execute("agent.answer", [{ block: first, answer: "allow_once" }])).rejects.toMatchObject({ message: expect.stringContaining("no longer waiting") });
    const secondActions = await codeActions(chatUri, lineOf(h.client.text(chatUri)!, `### Approval needed (#${second})`));
    await execute("agent.answer", secondActions.find((a) => a.title === "Reject").command.arguments);
    await waitFor(() => /Wrote both\./.test(h.client.text(chatUri)!), 10_000);
    expect(existsSync(path.join(h.root, "b.txt"))).toBe(false);
    expect(h.client.text(chatUri)).toContain(`_#${first}: approved_`);
    expect(h.client.text(chatUri)).toContain(`_#${second}: rejected_`);
  });

  it("[editor] approvals = auto: a client that answers message prompts still gets the block with the diff; message asks by message", async () => {
    const { chatUri } = await start({ safety: "ask", editor: { approvals: "auto" } });
    writeFileSync(path.join(h.root, "a.txt"), "one\n");
    h.client.script.showMessageRequest = () => "Yes";
    h.fake.enqueue({ toolCalls: [{ name: "edit_file", input: { path: "a.txt", target_content: "one", replacement_content: "two" } }] }, { text: "Edited." });
    await openChatWith(chatUri, "Change a.txt");
    await execute("agent.send");
    await waitFor(() => blockIds(h.client.text(chatUri)).length === 1, 10_000);
    const text = h.client.text(chatUri)!;
    expect(text).toMatch(/### Approval needed \(#[0-9a-f]{8}\): edit_file: a\.txt \(\+1 -1\)\n\n```diff\n[^]*-one\n\+two\n[^]*```\n/);
    expect(h.client.requests.filter((r) => r.method === "window/showMessageRequest")).toEqual([]);
    expect(h.client.messages.map((m) => m.message)).toContain("agent-lsp: approval needed (see .agent-lsp/chat.md)");
    await h.dispose();

    await start({ safety: "ask", editor: { approvals: "message" } });
    writeFileSync(path.join(h.root, "a.txt"), "one\n");
    h.client.script.showMessageRequest = () => "Yes";
    h.fake.enqueue({ toolCalls: [{ name: "edit_file", input: { path: "a.txt", target_content: "one", replacement_content: "two" } }] }, { text: "Edited." });
    await execute("agent.prompt", ["Change a.txt"]);
    await waitFor(() => readFileSync(path.join(h.root, "a.txt"), "utf8") === "two\n", 10_000);
    expect(h.client.requests.filter((r) => r.method === "window/showMessageRequest")).toHaveLength(1);
  });

  it("code actions: in the chat file the chat's own; elsewhere fix on any line, one per refactoring, add selection", async () => {
    const { chatUri } = await start();
    mkdirSync(path.join(h.root, "src"));
    const source = "function add(a, b) {\n  return a - b;\n}\n";
    const uri = pathToFileURL(path.join(h.root, "src/math.js")).href;
    writeFileSync(path.join(h.root, "src/math.js"), source);
    h.client.open(uri, source, "javascript");
    const inFile = titles(await codeActions(uri, 1));
    expect(inFile).toEqual([
      "Ask agent to fix line 2",
      "Ask agent: explain",
      "Ask agent to refactor: make it simpler and clearer",
      "Ask agent to refactor: improve the names",
      "Ask agent to refactor: split it into smaller functions",
      "Ask agent to refactor: make it faster",
      "Ask agent: write tests",
      "Add selection to agent chat",
      "Open agent chat",
    ]);
    await openChatWith(chatUri, "");
    expect(titles(await codeActions(chatUri, 0))).toEqual(expect.arrayContaining(["Send to agent", "New agent session", "Set safety mode: auto", "Undo last agent change", "Show checkpoints"]));
    const add = (await codeActions(uri, 1)).find((a) => a.title === "Add selection to agent chat");
    await execute(add.command.command, add.command.arguments);
    await waitFor(() => (h.client.text(chatUri) ?? "").includes("src/math.js:2"), 5000);
    expect(h.client.text(chatUri)).toContain("src/math.js:2\n\n```\n  return a - b;\n```\n");
    h.fake.enqueue({ text: "Fixed." });
    const fix = (await codeActions(uri, 1)).find((a) => a.title === "Ask agent to fix line 2");
    await execute(fix.command.command, fix.command.arguments);
    await waitFor(() => h.fake.requests.length === 1, 5000);
    expect(JSON.stringify(h.fake.requests[0]!.body.messages.at(-1).content)).toContain("return a - b;");
    expect(h.client.requests.filter((r) => r.method === "window/showMessageRequest")).toEqual([]);
  });

  it("a question without showMessageRequest is a block with one code action per choice; the answer reaches the turn", async () => {
    const { chatUri } = await start();
    h.client.script.showMessageRequest = () => "method-not-found";
    const source = "function add(a, b) {\n  return a - b;\n}\n";
    const uri = pathToFileURL(path.join(h.root, "math.js")).href;
    writeFileSync(path.join(h.root, "math.js"), source);
    h.client.open(uri, source, "javascript");
    await openChatWith(chatUri, "");
    h.fake.enqueue({ text: "Renamed." });
    // agent.refactor without an instruction asks how (the refactor menu entries carry one).
    await execute("agent.refactor", [{ uri, range: { start: { line: 1, character: 0 }, end: { line: 2, character: 0 } } }]);
    await waitFor(() => blockIds(h.client.text(chatUri)).length === 1, 10_000);
    const [id] = blockIds(h.client.text(chatUri));
    const actions = await codeActions(chatUri, lineOf(h.client.text(chatUri)!, `### Question (#${id})`) + 1);
    const improve = actions.find((a) => a.title === "Improve the names");
    expect(improve).toBeDefined();
    await execute(improve.command.command, improve.command.arguments);
    await waitFor(() => h.fake.requests.length === 1, 10_000);
    expect(JSON.stringify(h.fake.requests[0]!.body.messages.at(-1).content)).toContain("Improve the names");
    await waitFor(() => h.client.text(chatUri)!.includes(`_#${id}: answered "Improve the names"_`), 5000);
  });

  it("a question without choices: the answer written under the block is sent with Send answer; an empty one says what to do", async () => {
    const { chatUri } = await start();
    h.client.script.showMessageRequest = () => "method-not-found";
    await openChatWith(chatUri, "Name the helper");
    h.fake.enqueue({ toolCalls: [{ name: "ask_user_question", input: { question: "What should the helper be called?" } }] }, { text: "Named it." });
    await execute("agent.send");
    await waitFor(() => blockIds(h.client.text(chatUri)).length === 1, 10_000).catch((err: Error) => {
      throw new Error(`${err.message}: ${JSON.stringify(h.client.text(chatUri))} ${JSON.stringify(h.fake.requests.length)}`);
    });
    const [id] = blockIds(h.client.text(chatUri));
    const at = lineOf(h.client.text(chatUri)!, `### Question (#${id})`) + 1;
    const send = (await codeActions(chatUri, at)).find((a) => a.title === "Send answer");
    expect(send).toBeDefined();
    await expect(execute(send.command.command, send.command.arguments)).rejects.toThrow(/write your answer on the lines under the question first/);
    h.client.change(chatUri, `${h.client.text(chatUri)}sumPair\n(it adds a pair)\n`);
    await execute(send.command.command, send.command.arguments);
    await waitFor(() => h.fake.requests.length === 2, 10_000);
    expect(JSON.stringify(h.fake.requests[1]!.body.messages)).toContain("sumPair\\n(it adds a pair)");
    await waitFor(() => h.client.text(chatUri)!.includes(`_#${id}: answered "sumPair…"_`), 5000);
  });

  it("the chat file closed mid-turn: the rest of the answer goes on disk, nothing lost", { timeout: 20_000 }, async () => {
    const { chatUri } = await start();
    h.fake.enqueue({ text: `${"y".repeat(300)}END`, chunkSize: 3, chunkDelayMs: 5 });
    await openChatWith(chatUri, "Stream then close");
    await execute("agent.send");
    await waitFor(() => (h.client.text(chatUri) ?? "").includes("yyy"), 10_000);
    // Helix's :bc without saving: the buffer's text so far is gone, the disk has the file as it was.
    h.client.close(chatUri);
    const file = path.join(h.root, CHAT);
    await waitFor(() => /END\n+(_.*_\n+)?## You\n\n$/.test(readFileSync(file, "utf8")), 10_000);
    expect(readFileSync(file, "utf8")).toMatch(/y+END/);
  });

  it("the chat file deleted mid-turn: recreated with the rest of the answer; the session log keeps all of it", { timeout: 20_000 }, async () => {
    const { chatUri } = await start();
    h.fake.enqueue({ text: `${"z".repeat(300)}END`, chunkSize: 3, chunkDelayMs: 5 });
    await openChatWith(chatUri, "Stream then delete");
    await execute("agent.send");
    await waitFor(() => (h.client.text(chatUri) ?? "").includes("zzz"), 10_000);
    h.client.close(chatUri);
    const file = path.join(h.root, CHAT);
    rmSync(file);
    await waitFor(() => existsSync(file) && /END\n+(_.*_\n+)?## You\n\n$/.test(readFileSync(file, "utf8")), 10_000);
    expect(readFileSync(file, "utf8")).toMatch(/^# Agent chat\n/);
    const logs = readdirSync(path.join(h.root, ".agent-lsp/conversations"));
    const log = logs.map((f) => readFileSync(path.join(h.root, ".agent-lsp/conversations", f), "utf8")).join("");
    expect(log).toContain(`${"z".repeat(300)}END`);
  });

  it("a client with the agent protocol keeps its own UI unless [editor] chat_file = true", async () => {
    const rich = { ...PLAIN, experimental: { agent: {} } } as ClientCapabilities;
    const { chatUri } = await start({}, rich);
    expect(titles(await codeActions(chatUri, 0))).not.toContain("Send to agent");
    await h.dispose();
    const forced = await start({ editor: { chat_file: true } }, rich);
    expect(titles(await codeActions(forced.chatUri, 0))).toContain("Send to agent");
  });
});
