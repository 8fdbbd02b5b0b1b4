/**
 * Automatic code-action requests (`triggerKind: 2`), as Helix 25.07's code-action hint gutter
 * sends them on every cursor move: agent-lsp answers only with what fits the position (a
 * diagnostic under the cursor, a real selection, the waiting block under the cursor in the chat
 * file), so the hint stays off on ordinary and blank lines. A request the user made (space a,
 * `triggerKind: 1` or none) still gets the full menu.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import type { ClientCapabilities, Range } from "vscode-languageserver/node.js";
import { startAgentHarness, type AgentHarness } from "../helpers/agent-setup.js";
import { defaultCapabilities } from "../helpers/lsp-client.js";
import { waitFor } from "../helpers/wait.js";

let h: AgentHarness;
afterEach(async () => {
  await h?.dispose();
});

const SOURCE = "function add(a, b) {\n  return a - b;\n}\n\n";
const LITERALS = { textDocument: { codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ["quickfix", "refactor", "source"] } } } } };
/** A client without the agent protocol (Helix): the chat file is on. */
const PLAIN = { ...defaultCapabilities(), ...LITERALS } as ClientCapabilities;
const RICH = { ...PLAIN, experimental: { agent: {} } } as ClientCapabilities;
const lint = { range: { start: { line: 1, character: 9 }, end: { line: 1, character: 14 } }, message: "add() subtracts", severity: 2, source: "lint" };

const at = (line: number, from: number, toLine: number, to: number): Range => ({ start: { line, character: from }, end: { line: toLine, character: to } });
/** Helix's one-cell cursor on a character of a line. */
const cursor = (line: number, character: number) => at(line, character, line, character + 1);

async function start(capabilities: ClientCapabilities, options: Record<string, unknown> = {}): Promise<string> {
  h = await startAgentHarness({ capabilities, options });
  writeFileSync(path.join(h.root, "math.js"), SOURCE);
  const uri = pathToFileURL(path.join(h.root, "math.js")).href;
  h.client.open(uri, SOURCE, "javascript");
  return uri;
}

async function titles(uri: string, range: Range, diagnostics: unknown[] = [], triggerKind?: number): Promise<string[]> {
  const context = { diagnostics, ...(triggerKind ? { triggerKind } : {}) };
  const actions = (await h.client.connection.sendRequest("textDocument/codeAction", { textDocument: { uri }, range, context })) as { title: string }[];
  return actions.map((a) => a.title);
}

describe("automatic code-action requests (triggerKind 2)", () => {
  it("a plain client: nothing on an ordinary or blank line, fix over a diagnostic, the selection's actions over a selection", async () => {
    const uri = await start(PLAIN);
    expect(await titles(uri, cursor(0, 3), [], 2)).toEqual([]);
    // On a blank line Helix's cursor is the line break.
    expect(await titles(uri, at(3, 0, 4, 0), [], 2)).toEqual([]);
    expect(await titles(uri, at(3, 0, 3, 0), [], 2)).toEqual([]);
    expect(await titles(uri, cursor(1, 10), [lint], 2)).toEqual(["Ask agent to fix: add() subtracts"]);
    const selected = await titles(uri, at(1, 0, 2, 0), [lint], 2);
    expect(selected[0]).toBe("Ask agent to fix: add() subtracts");
    expect(selected).toEqual(expect.arrayContaining(["Ask agent: explain", "Ask agent: write tests", "Add selection to agent chat"]));
    expect(selected.filter((t) => /fix line|about this line|Open agent chat/.test(t))).toEqual([]);
    // The user's own request (space a) still gets every action.
    const manual = await titles(uri, cursor(0, 3), [], 1);
    expect(manual).toEqual(expect.arrayContaining(["Ask agent to fix line 1", "Ask agent: explain", "Open agent chat"]));
    expect(await titles(uri, cursor(0, 3))).toEqual(manual);
  });

  it("a client with the agent protocol: no \"about this line\" for an automatic request", async () => {
    const uri = await start(RICH);
    expect(await titles(uri, at(1, 4, 1, 4), [], 2)).toEqual([]);
    expect(await titles(uri, at(1, 4, 1, 4), [], 1)).toEqual(["Ask agent about this line"]);
    expect(await titles(uri, at(1, 2, 1, 15), [], 2)).toEqual(["Ask agent: explain", "Ask agent: refactor...", "Ask agent: write tests"]);
  });

  it("in the chat file: only the answers of the waiting block under the cursor", async () => {
    const uri = await start(PLAIN, { safety: "ask", tools: { provider_native: false } });
    h.client.script.showMessageRequest = () => "method-not-found";
    h.fake.enqueue({ toolCalls: [{ name: "write_file", input: { path: "a.txt", content: "one\n" } }] }, { text: "Done." });
    const chatUri = pathToFileURL(path.join(h.root, ".agent-lsp/chat.md")).href;
    void h.client.connection.sendRequest("workspace/executeCommand", { command: "agent.prompt", arguments: ["Write a.txt"] });
    await waitFor(() => h.client.messages.some((m) => /approval needed/.test(m.message)), 10_000);
    // The file is not open in the client: its block reaches the disk on the chat file's next write.
    const onDisk = () => readFileSync(path.join(h.root, ".agent-lsp/chat.md"), "utf8");
    await waitFor(() => /^### Approval needed/m.test(onDisk()), 10_000);
    const text = onDisk();
    h.client.open(chatUri, text, "markdown");
    const lines = text.split("\n");
    const block = lines.findIndex((l) => /^### Approval needed/.test(l));
    expect(await titles(chatUri, cursor(block, 0), [], 2)).toEqual(expect.arrayContaining(["Approve", "Reject"]));
    expect(await titles(chatUri, cursor(block, 0), [], 2)).not.toContain("Send to agent");
    expect(await titles(chatUri, cursor(0, 0), [], 2)).toEqual([]);
    expect(await titles(chatUri, cursor(0, 0), [], 1)).toContain("Send to agent");
  });
});
