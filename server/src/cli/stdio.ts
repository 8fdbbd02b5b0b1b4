/** `agent-lsp --stdio`: the language server on this process's stdin and stdout. */
import { startServer } from "../lsp/server.js";

/** Starts the server; the process lives until the client sends exit or stdin closes. */
export function runStdioServer(): void {
  const server = startServer({ input: process.stdin, output: process.stdout });
  // stdin closing means the editor is gone: shut down as if it had said shutdown + exit.
  process.stdin.on("end", () => {
    void Promise.resolve(server.runtime()?.dispose()).finally(() => process.exit(0));
  });
}
