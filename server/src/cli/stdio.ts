/**
 * `agent-lsp --stdio`: the language server on this process's stdin and stdout.
 *
 * The editor waits for the answer to initialize before it does anything else, and that answer
 * is a fixed table (capabilities.ts). So the first message is read and answered here, before the
 * LSP library has loaded; the library then gets every message in order (initialize included, its
 * second answer dropped) and the agent loads after it.
 */
import type { FramingError } from "../lsp/framing.js";
import { serverCapabilities, type ClientFacts } from "../lsp/capabilities.js";
import { MessageSource } from "../lsp/message-source.js";
import { VERSION } from "../version.js";

/** Starts the server; the process lives until the client sends exit or stdin closes. */
export async function runStdioServer(): Promise<void> {
  const writeEarly = (message: object) => {
    const body = JSON.stringify(message);
    process.stdout.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  };
  // Until the server takes over the handler: a bad request is answered, a bad notification logged.
  const source = new MessageSource(process.stdin, (e: FramingError) => {
    if (e.notification) process.stderr.write(`agent-lsp: protocol error: ${e.message}\n`);
    else writeEarly({ jsonrpc: "2.0", id: e.id, error: { code: e.code, message: e.message } });
  });
  const first = (await source.first()) as { id?: number | string; method?: string; params?: ClientFacts } | undefined;
  const answered = first?.method === "initialize" && first.id !== undefined ? first.id : undefined;
  if (answered !== undefined) {
    const capabilities = serverCapabilities(first?.params ?? {});
    writeEarly({ jsonrpc: "2.0", id: answered, result: { capabilities, serverInfo: { name: "agent-lsp", version: VERSION } } });
  }
  const [{ startServer }, { installShutdownHooks }] = await Promise.all([import("../lsp/server.js"), import("../exec/shutdown.js")]);
  const server = startServer({ input: source, output: process.stdout, answeredInitializeId: answered });
  // No orphans: the processes the agent starts (commands, MCP servers) stop with the server,
  // however it ends (exit, a signal, or the editor dying: its pid from initialize is watched).
  server.whenLoaded((runtime) => {
    installShutdownHooks({ stopAll: () => runtime.stopAllSync() }, { parentPid: server.clientProcessId() });
  });
  // stdin closing means the editor is gone: shut down as if it had said shutdown + exit.
  process.stdin.on("end", () => {
    void Promise.resolve(server.runtime()?.dispose()).finally(() => process.exit(0));
  });
}
