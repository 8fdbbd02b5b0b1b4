/** `agent-lsp --stdio`: the language server on this process's stdin and stdout. */
import { processManagerFrom } from "../exec/processes.js";
import { installShutdownHooks } from "../exec/shutdown.js";
import { startServer } from "../lsp/server.js";

/** Starts the server; the process lives until the client sends exit or stdin closes. */
export function runStdioServer(): void {
  const server = startServer({ input: process.stdin, output: process.stdout });
  // No orphans: the processes the agent starts stop with the server, however it ends (exit,
  // a signal, or the editor dying: its pid from initialize is watched).
  void server.ready().then((runtime) => {
    const processes = processManagerFrom(runtime.services);
    if (processes) installShutdownHooks(processes, { parentPid: server.clientProcessId() });
  });
  // stdin closing means the editor is gone: shut down as if it had said shutdown + exit.
  process.stdin.on("end", () => {
    void Promise.resolve(server.runtime()?.dispose()).finally(() => process.exit(0));
  });
}
