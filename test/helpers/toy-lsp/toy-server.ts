/**
 * The toy language server (server.mjs) started as a real process, with the editor's side of it:
 * documents synced to it, its published diagnostics kept, and `serve` answering an
 * `agent/languageService` request the way an editor plugin does (LSP methods passed on, the
 * diagnostics request answered from what the server published). Tests and the bench use it as
 * "the editor's other language server" without an editor.
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createProtocolConnection, StreamMessageReader, StreamMessageWriter, type Diagnostic, type ProtocolConnection } from "vscode-languageserver/node.js";

/** Where the server's script is (Neovim tests start it themselves). */
export const TOY_SERVER_SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), "server.mjs");

/** A running toy server. */
export interface ToyServer {
  connection: ProtocolConnection;
  /** What the server last published, by URI. */
  diagnostics: Map<string, Diagnostic[]>;
  /** Tells the server a document opened or changed (text), or closed (undefined). */
  sync(uri: string, text: string | undefined): void;
  /** Answers one `agent/languageService` request as an editor plugin would. */
  serve(method: string, params: any): Promise<unknown>;
  close(): Promise<void>;
}

/** Starts the server on `root`. `env` reaches it (TOY_LSP_DELAY_MS). */
export async function startToyServer(root: string, env: Record<string, string> = {}): Promise<ToyServer> {
  const child: ChildProcess = spawn(process.execPath, [TOY_SERVER_SCRIPT, "--stdio"], { env: { ...process.env, ...env }, stdio: ["pipe", "pipe", "inherit"] });
  const connection = createProtocolConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  const diagnostics = new Map<string, Diagnostic[]>();
  connection.onNotification("textDocument/publishDiagnostics", (p: { uri: string; diagnostics: Diagnostic[] }) => diagnostics.set(p.uri, p.diagnostics));
  connection.listen();
  await connection.sendRequest("initialize", { processId: process.pid, rootUri: pathToFileURL(root).href, workspaceFolders: [{ uri: pathToFileURL(root).href, name: "toy" }], capabilities: {} });
  await connection.sendNotification("initialized", {});
  const versions = new Map<string, number>();
  return {
    connection,
    diagnostics,
    sync(uri, text) {
      const version = versions.get(uri);
      if (text === undefined) {
        versions.delete(uri);
        diagnostics.delete(uri);
        void connection.sendNotification("textDocument/didClose", { textDocument: { uri } });
      } else if (version === undefined) {
        versions.set(uri, 1);
        void connection.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId: "toy", version: 1, text } });
      } else {
        versions.set(uri, version + 1);
        void connection.sendNotification("textDocument/didChange", { textDocument: { uri, version: version + 1 }, contentChanges: [{ text }] });
      }
    },
    async serve(method, params) {
      if (method !== "textDocument/diagnostics") return connection.sendRequest(method, params);
      const uris: string[] = params?.uri ? [params.uri] : [...diagnostics.keys()];
      const list = uris.flatMap((uri) => (diagnostics.get(uri) ?? []).map((d) => ({ ...d, uri })));
      // The server is on every .toy file it has open.
      const servers = params?.uri ? (versions.has(params.uri) ? 1 : 0) : undefined;
      return { diagnostics: list, ...(servers === undefined ? {} : { servers }) };
    },
    async close() {
      await connection.sendRequest("shutdown").catch(() => undefined);
      connection.dispose();
      child.kill();
    },
  };
}
