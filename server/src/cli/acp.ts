/**
 * `agent-lsp --acp`: the Agent Client Protocol on this process's stdin and stdout
 * (newline-delimited JSON-RPC). Nothing of the LSP front end is loaded in this mode, and the
 * ACP SDK only in this mode. The client going away (stdin closing) cancels every turn, keeps the
 * history and ends the processes the agent started.
 */
import { Readable, Writable } from "node:stream";
import { ndJsonStream } from "@agentclientprotocol/sdk";
import { startAcpServer } from "../acp/server.js";
import { processManagerFrom } from "../exec/processes.js";
import { installShutdownHooks } from "../exec/shutdown.js";
import { FileLogger } from "../util/log.js";

/** Serves ACP until the client closes the connection; then exits. */
export async function runAcpServer(): Promise<void> {
  const logger = new FileLogger();
  const stream = ndJsonStream(Writable.toWeb(process.stdout) as WritableStream<Uint8Array>, Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>);
  const server = startAcpServer({ stream, logger });
  // No orphans: whatever ends the server (a signal, the client dying) ends the agent's processes.
  let hooked = false;
  const hook = setInterval(() => {
    const processes = server.client.built() && processManagerFrom(server.client.built()!.services);
    if (!processes || hooked) return;
    hooked = true;
    clearInterval(hook);
    installShutdownHooks(processes);
  }, 200);
  hook.unref();
  await server.connection.closed;
  clearInterval(hook);
  await server.dispose().catch((err: Error) => logger.error(`shutting down: ${err.message}`));
  process.exit(0);
}
