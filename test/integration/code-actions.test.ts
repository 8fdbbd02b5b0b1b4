/**
 * Code actions end to end on the in-process server: what the menu offers, and running each
 * command through workspace/executeCommand: the prompt's editor context, the edit arriving as
 * workspace/applyEdit, $/progress, the showMessage summary for clients without a chat UI,
 * session reuse per document, the refactor question, cancellation and bad arguments.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { CancellationTokenSource, type ClientCapabilities } from "vscode-languageserver/node.js";
import { startAgentHarness, type AgentHarness } from "../helpers/agent-setup.js";
import { defaultCapabilities } from "../helpers/lsp-client.js";
import { waitFor } from "../helpers/wait.js";

let h: AgentHarness;
afterEach(async () => {
  await h?.dispose();
});

const SOURCE = "function add(a, b) {\n  return a - b;\n}\n";
const range = { start: { line: 1, character: 2 }, end: { line: 1, character: 15 } };
const diagnostic = { range, message: "add() subtracts: expected a + b\nsecond line", severity: 1, source: "lint" };
const RICH = { ...defaultCapabilities(), experimental: { agent: { requestPermission: true, askUser: true } } } as ClientCapabilities;
const LITERALS = { textDocument: { codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ["quickfix", "refactor", "source"] } } } } };

/** Starts a harness with `math.js` on disk and open in the client. */
async function start(capabilities: ClientCapabilities = { ...defaultCapabilities(), ...LITERALS }): Promise<string> {
  h = await startAgentHarness({ capabilities });
  writeFileSync(path.join(h.root, "math.js"), SOURCE);
  const uri = pathToFileURL(path.join(h.root, "math.js")).href;
  h.client.open(uri, SOURCE, "javascript");
  return uri;
}

const codeActions = (uri: string, r = range, diagnostics: unknown[] = [], only?: string[]) =>
  h.client.connection.sendRequest("textDocument/codeAction", { textDocument: { uri }, range: r, context: { diagnostics, ...(only ? { only } : {}) } }) as Promise<any[]>;
const execute = (command: string, args: unknown[], token?: CancellationTokenSource["token"]) =>
  // No token argument at all unless given: a trailing undefined would turn params positional.
  (token
    ? h.client.connection.sendRequest("workspace/executeCommand", { command, arguments: args }, token)
    : h.client.connection.sendRequest("workspace/executeCommand", { command, arguments: args })) as Promise<any>;
const userText = (i: number) => JSON.stringify(h.fake.requests[i]!.body.messages.at(-1).content);
/** Runs a command and answers when its turn ends (`wait`), as the Neovim plugin does. */
const executeToEnd = (command: string, args: Record<string, unknown>) => execute(command, [{ ...args, wait: true }]);

describe("code actions", () => {
  it("advertises the kinds and the commands: all of them to a client with the agent protocol, to others those a palette can run", async () => {
    await start({ ...defaultCapabilities(), ...LITERALS, experimental: { agent: {} } } as ClientCapabilities);
    expect(h.init.capabilities.codeActionProvider).toMatchObject({ codeActionKinds: expect.arrayContaining(["quickfix", "refactor.rewrite"]) });
    expect(h.init.capabilities.executeCommandProvider?.commands).toEqual(expect.arrayContaining(["agent.fix", "agent.explain", "agent.refactor", "agent.tests"]));
    await h.dispose();
    await start();
    expect(h.init.capabilities.executeCommandProvider?.commands).toEqual(["agent.send", "agent.openChat", "agent.newSession", "agent.cancel"]);
    // Not listed, still served from the code action that carries the arguments; from a palette, a sentence.
    await expect(execute("agent.fix", [])).rejects.toMatchObject({ code: -32602, message: 'agent.fix works on a line or a selection of a file: pick "Ask agent to fix" from the code-action menu there.' });
  });

  it("offers fix for a diagnostic and explain/refactor/tests for a selection, honouring only", async () => {
    // A client with its own agent UI; plain clients get the chat-file list (chat-file.test.ts).
    const uri = await start({ ...defaultCapabilities(), ...LITERALS, experimental: { agent: {} } });
    const all = await codeActions(uri, range, [diagnostic]);
    expect(all.map((a) => a.title)).toEqual([
      "Ask agent to fix: add() subtracts: expected a + b",
      "Ask agent: explain",
      "Ask agent: refactor...",
      "Ask agent: write tests",
    ]);
    expect(all[0]).toMatchObject({ kind: "quickfix", diagnostics: [diagnostic], command: { command: "agent.fix", arguments: [{ uri, range, diagnostics: [diagnostic] }] } });
    expect(all.map((a) => a.command.command)).toEqual(["agent.fix", "agent.explain", "agent.refactor", "agent.tests"]);
    const cursor = { start: range.start, end: range.start };
    // A bare cursor with no diagnostic: the line itself is offered.
    const bare = await codeActions(uri, cursor);
    expect(bare.map((a) => a.title)).toEqual(["Ask agent about this line"]);
    expect(bare[0]!.command).toMatchObject({
      command: "agent.explain",
      arguments: [{ uri, range: { start: { line: cursor.start.line, character: 0 }, end: { line: cursor.start.line + 1, character: 0 } } }],
    });
    expect((await codeActions(uri, cursor, [diagnostic])).map((a) => a.command.command)).toEqual(["agent.fix"]);
    expect((await codeActions(uri, range, [diagnostic], ["quickfix"])).map((a) => a.kind)).toEqual(["quickfix"]);
    expect((await codeActions(uri, range, [diagnostic], ["refactor"])).map((a) => a.command.command)).toEqual(["agent.explain", "agent.refactor"]);
  });

  it("answers bare Commands to a client without code-action literals", async () => {
    const uri = await start(defaultCapabilities());
    const res = await codeActions(uri, range, [diagnostic]);
    expect(res[0]).toMatchObject({ command: "agent.fix", title: expect.stringContaining("Ask agent to fix") });
    expect(res[0].kind).toBeUndefined();
  });

  it("agent.fix sends the editor context, lands the edit through applyEdit, reports progress and a summary", async () => {
    const uri = await start();
    h.fake.enqueue({ toolCalls: [{ name: "edit_file", input: { path: "math.js", target_content: "a - b", replacement_content: "a + b" } }] }, { text: "Changed the minus to a plus." });
    const [fix] = await codeActions(uri, range, [diagnostic]);
    const res = await execute(fix.command.command, fix.command.arguments);
    // Answered when the turn started; its end comes as $/progress end and window/showMessage.
    expect(res).toEqual({ status: "started", sessionId: expect.stringMatching(/^s-/) });
    await waitFor(() => h.client.messages.length > 0);
    // The prompt names the file and carries the range, the selected text and the diagnostic.
    const sent = userText(0);
    expect(sent).toContain("math.js:2");
    expect(sent).toContain("Selected text:");
    expect(sent).toContain("return a - b");
    expect(sent).toContain("lint: add() subtracts");
    // The edit went to the editor's buffer, not around it.
    expect(h.client.requests.some((r) => r.method === "workspace/applyEdit")).toBe(true);
    expect(h.client.text(uri)).toBe(SOURCE.replace("a - b", "a + b"));
    // $/progress: begin with the task, a report for the tool call, end with the outcome.
    const progress = h.client.requests.filter((r) => r.method === "$/progress").map((r) => r.params.value);
    expect(progress[0]).toMatchObject({ kind: "begin", title: "Agent: fix math.js:2" });
    expect(progress.some((v) => v.kind === "report" && v.message === "Edit math.js")).toBe(true);
    expect(progress.at(-1)).toMatchObject({ kind: "end", message: "done (changed math.js)" });
    // No chat UI declared: the answer is summarised as window/showMessage.
    expect(h.client.messages.at(-1)).toMatchObject({ type: 3 });
    expect(h.client.messages.at(-1)!.message).toContain("Changed the minus to a plus.");
    expect(h.client.messages.at(-1)!.message).toContain("Agent: fix math.js:2: done (changed math.js)");
    expect(h.fake.violations).toEqual([]);
  });

  it("a chat client gets the stream as agent/update and no summary; the document's session is reused", async () => {
    const uri = await start({ ...RICH, ...LITERALS });
    h.fake.enqueue({ text: "It returns the difference." }, { text: "Tests written." });
    const res = await executeToEnd("agent.explain", { uri, range });
    expect(res).toMatchObject({ status: "ended", stopReason: "end_turn", answer: "It returns the difference." });
    expect(h.client.answerText()).toBe("It returns the difference.");
    expect(h.client.updates.every((u) => u.sessionId === res.sessionId)).toBe(true);
    const res2 = await executeToEnd("agent.tests", { uri, range });
    expect(res2.sessionId).toBe(res.sessionId);
    expect(h.fake.requests[1]!.body.messages).toHaveLength(3); // the explain turn is in the history
    expect(userText(0)).toContain("Do not change any files");
    expect(userText(1)).toContain("Write tests for the selected code in math.js");
    await new Promise((r) => setTimeout(r, 20));
    expect(h.client.messages).toEqual([]);
  });

  it("runs in the caller's session when it names one, and another document gets its own", async () => {
    const uri = await start();
    const chat = await h.newSession();
    h.fake.enqueue({ text: "a" }, { text: "b" });
    expect((await executeToEnd("agent.explain", { uri, range, sessionId: chat })).sessionId).toBe(chat);
    const other = pathToFileURL(path.join(h.root, "other.js")).href;
    h.client.open(other, "x\ny\n");
    const res = await executeToEnd("agent.explain", { uri: other, range: { start: { line: 0, character: 0 }, end: { line: 1, character: 1 } } });
    expect(res.sessionId).not.toBe(chat);
    expect(h.fake.requests[1]!.body.messages).toHaveLength(1);
  });

  it("agent.refactor asks how (agent/askUser) and uses the answer; a dismissed question sends nothing", async () => {
    const uri = await start({ ...RICH, ...LITERALS });
    h.client.script.askUser = (p) => {
      expect(p.choices).toContain("Improve the names");
      return { answer: "rename a and b to left and right" };
    };
    h.fake.enqueue({ text: "Renamed." });
    expect((await executeToEnd("agent.refactor", { uri, range })).stopReason).toBe("end_turn");
    expect(userText(0)).toContain("Refactor the selected code in math.js: rename a and b to left and right.");
    h.client.script.askUser = () => null;
    expect((await executeToEnd("agent.refactor", { uri, range })).stopReason).toBe("cancelled");
    expect(h.fake.requests).toHaveLength(1);
  });

  it("a plain client picks the refactor goal from showMessageRequest buttons", async () => {
    const uri = await start();
    h.client.script.showMessageRequest = (p) => p.actions![1]!.title;
    h.fake.enqueue({ text: "ok" });
    await executeToEnd("agent.refactor", { uri, range });
    expect(userText(0)).toContain("in math.js: Improve the names.");
  });

  it("withdrawing the executeCommand request cancels the turn", async () => {
    const uri = await start({ ...RICH, ...LITERALS });
    h.fake.enqueue({ text: "partial", hang: true });
    const source = new CancellationTokenSource();
    const running = execute("agent.explain", [{ uri, range, wait: true }], source.token).catch((e) => e);
    await waitFor(() => h.client.updatesOf("text").length > 0);
    source.cancel();
    await running;
    const sessionId = h.client.updates[0]!.sessionId;
    // The session is free again: a cancelled turn no longer holds it.
    h.fake.enqueue({ text: "next" });
    await waitFor(() => h.server.runtime()!.agent.get(sessionId).turn === undefined);
    await expect(h.prompt(sessionId, "again")).resolves.toMatchObject({ stopReason: "end_turn" });
  });

  it("rejects bad arguments with InvalidParams", async () => {
    // Without diagnostics agent.fix quotes the line instead, for plain clients only (chat-file.test.ts).
    const uri = await start({ ...defaultCapabilities(), experimental: { agent: {} } });
    await expect(execute("agent.fix", [{ uri, range }])).rejects.toMatchObject({ code: -32602, message: expect.stringContaining("diagnostics") });
    await expect(execute("agent.explain", [{ uri }])).rejects.toMatchObject({ code: -32602, message: expect.stringContaining("range") });
    await expect(execute("agent.explain", [{ uri, range, sessionId: "s-nope" }])).rejects.toMatchObject({ code: -32602 });
  });
});
