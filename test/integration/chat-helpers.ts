/**
 * The chat file tests' client: the in-process server with a client that declares no agent
 * protocol (the chat file is on), code-action literals, and helpers to open the chat file, type
 * in it and read its blocks.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { expect } from "vitest";
import type { ClientCapabilities } from "vscode-languageserver/node.js";
import { startAgentHarness, type AgentHarness } from "../helpers/agent-setup.js";
import { defaultCapabilities } from "../helpers/lsp-client.js";
import { waitFor } from "../helpers/wait.js";

const LITERALS = { textDocument: { codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ["quickfix", "refactor", "source"] } } } } };
/** A client without the agent protocol that shows code actions as literals (Helix, eglot). */
export const PLAIN = { ...defaultCapabilities(), ...LITERALS } as ClientCapabilities;
export const CHAT = ".agent-lsp/chat.md";

/** A chat-file test's server and client. */
export interface ChatHarness {
  h: AgentHarness;
  chatUri: string;
  /** The chat file in the client's buffer. */
  text(): string;
  /** The chat file on disk. */
  disk(): string;
  execute(command: string, args?: unknown[]): Promise<any>;
  codeActions(uri: string, line: number): Promise<any[]>;
  /** Opens the chat file (agent.openChat, then didOpen with the text on disk) and writes `draft` under its last `## You`. */
  openWith(draft: string): Promise<void>;
  /** Adds `text` at the very end of the buffer, as typing at the end does. */
  typeAtEnd(text: string): void;
  /** Waits for `pattern` in the buffer; a timeout shows the buffer. */
  waitText(pattern: RegExp | string, timeoutMs?: number): Promise<string>;
}

/** Starts the server (approvals in the chat file unless `options` says) and its client (named `clientInfo`, else unnamed). */
export async function startChat(options: Record<string, unknown> = {}, capabilities: ClientCapabilities = PLAIN, root?: string, clientInfo?: { name: string; version?: string }): Promise<ChatHarness> {
  const editor = { approvals: "auto", ...(options.editor as object | undefined) };
  const h = await startAgentHarness({ capabilities, options: { tools: { provider_native: false }, ...options, editor }, ...(root ? { root } : {}), ...(clientInfo ? { clientInfo } : {}) });
  const chatUri = pathToFileURL(path.join(h.root, CHAT)).href;
  const execute = (command: string, args: unknown[] = []) => h.client.connection.sendRequest("workspace/executeCommand", { command, arguments: args }) as Promise<any>;
  const text = () => h.client.text(chatUri) ?? "";
  return {
    h,
    chatUri,
    text,
    disk: () => readFileSync(path.join(h.root, CHAT), "utf8"),
    execute,
    codeActions: (uri, line) =>
      h.client.connection.sendRequest("textDocument/codeAction", {
        textDocument: { uri },
        range: { start: { line, character: 0 }, end: { line, character: 1 } },
        context: { diagnostics: [] },
      }) as Promise<any[]>,
    async openWith(draft) {
      await execute("agent.openChat");
      const onDisk = readFileSync(path.join(h.root, CHAT), "utf8");
      h.client.open(chatUri, `${onDisk}${draft ? `${draft}\n` : ""}`, "markdown");
    },
    typeAtEnd(more) {
      h.client.change(chatUri, `${text()}${more}`);
    },
    async waitText(pattern, timeoutMs = 20_000) {
      const matches = () => (typeof pattern === "string" ? text().includes(pattern) : pattern.test(text()));
      await waitFor(matches, timeoutMs).catch((err: Error) => {
        throw new Error(`${err.message}: waiting for ${String(pattern)} in the chat buffer:\n${text()}\n--- server log (tail) ---\n${h.logs.slice(-15).join("\n")}`);
      });
      return text();
    },
  };
}

/** The ids of the approval and question blocks in `text`, in order. */
export function blockIds(text: string): string[] {
  return [...text.matchAll(/^### (?:Approval needed|Question) \(#([0-9a-f]{8})\)/gm)].map((m) => m[1]!);
}

/** The 0-based line of `text` that starts with `prefix`. */
export function lineOf(text: string, prefix: string): number {
  return text.split("\n").findIndex((l) => l.startsWith(prefix));
}

/** The titles of code actions. */
export function titles(actions: any[]): string[] {
  return actions.map((a) => a.title as string);
}

/** The text of the last user message the model was sent. */
export function lastUserText(h: AgentHarness, request = -1): string {
  return JSON.stringify(h.fake.requests.at(request)!.body.messages.at(-1).content);
}

/**
 * Every edit the client applied stays inside the document as Vim counts it: no position on the
 * empty "line" after a final line break; and each edit is of whole lines, or just before that
 * final line break.
 */
export function expectLineSafeEdits(h: AgentHarness, uri: string): void {
  const edits = h.client.appliedEdits.filter((e) => e.uri === uri);
  expect(edits.length).toBeGreaterThan(0);
  for (const { before, edits: list } of edits) {
    const lines = before.split("\n");
    const vimLines = before.endsWith("\n") ? lines.length - 1 : lines.length;
    for (const e of list) {
      for (const p of [e.range.start, e.range.end]) {
        expect(p.line < vimLines || (vimLines === 0 && p.line === 0), `${JSON.stringify(e)} in ${JSON.stringify(before)}`).toBe(true);
        const wholeLine = p.character === 0 || p.character === lines[p.line]!.length;
        expect(wholeLine, `${JSON.stringify(e)} in ${JSON.stringify(before)}`).toBe(true);
      }
    }
  }
}
