/**
 * `agent-lsp --acp`: the Agent Client Protocol on stdin and stdout (newline-delimited JSON-RPC).
 *
 * The client waits for the answer to initialize before anything else, and that answer is a fixed
 * table (acp/initialize.ts). So the first line is read and answered here, before the ACP SDK and
 * the agent have loaded; nothing of the LSP front end is ever loaded in this mode. The client
 * going away (stdin closing) cancels every turn, keeps the history and ends the agent's processes.
 */
import { initializeResult, readInitialize } from "../acp/initialize.js";

/** Serves ACP until the client closes the connection; then exits. */
export async function runAcpServer(): Promise<void> {
  const read = await firstLine(process.stdin);
  const newline = read.indexOf(0x0a);
  const init = newline < 0 ? undefined : readInitialize(read.subarray(0, newline).toString("utf8"));
  if (init) process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", id: init.id, result: initializeResult(init.protocolVersion) })}\n`);
  const { serveAcpOnStdio } = await import("../acp/stdio.js");
  await serveAcpOnStdio(init ? { read, answeredId: init.id } : { read });
  process.exit(0);
}

/** Reads stdin until its first newline (or its end); returns every byte read, stdin paused. */
function firstLine(stdin: NodeJS.ReadStream): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const finish = () => {
      stdin.off("data", onData);
      stdin.off("end", finish);
      stdin.pause();
      resolve(Buffer.concat(chunks));
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      if (chunk.includes(0x0a)) finish();
    };
    stdin.on("data", onData);
    stdin.on("end", finish);
  });
}
