/**
 * A 100 MB JSON-RPC message (a didOpen of a huge file, as an editor sends it in 64 KB writes):
 * the server's resident memory idle, at its peak, 3 s after the message (the document still
 * open), and 3 s after its didClose (target: back near idle; it once stayed at 521 MB for good).
 * Peaks are sampled every 50 ms from /proc.
 */
import { initialize, spawnServer } from "../test/helpers/spawn-server.js";
import { fakeProviderOptions, tempProject } from "../test/helpers/agent-setup.js";
import { startFakeProvider } from "../test/helpers/fake-provider/index.js";
import { treeRssMb } from "./rss.js";

const MB = 1024 * 1024;

/** Samples the tree's RSS every 50 ms for `ms`; the highest seen and the last. */
async function watchRss(pid: number, ms: number): Promise<{ peak: number; last: number }> {
  let peak = 0;
  let last = 0;
  for (const end = Date.now() + ms; Date.now() < end; ) {
    await new Promise((r) => setTimeout(r, 50));
    last = treeRssMb(pid);
    peak = Math.max(peak, last);
  }
  return { peak, last };
}

export async function benchLargeMessage(size = 100): Promise<string[]> {
  const fake = await startFakeProvider();
  const root = tempProject("agent-lsp-bench-large-message-");
  const server = spawnServer(root);
  try {
    await initialize(server, root, fakeProviderOptions(fake));
    const pid = server.child.pid!;
    await watchRss(pid, 1000);
    const idle = treeRssMb(pid);
    const uri = `file://${root}/huge.txt`;
    const body = JSON.stringify({ jsonrpc: "2.0", method: "textDocument/didOpen", params: { textDocument: { uri, languageId: "plaintext", version: 1, text: "x".repeat(size * MB) } } });
    const bytes = Buffer.from(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    for (let i = 0; i < bytes.length; i += 64 * 1024) server.writeRaw(bytes.subarray(i, i + 64 * 1024));
    const open = await watchRss(pid, 3000);
    server.send({ jsonrpc: "2.0", method: "textDocument/didClose", params: { textDocument: { uri } } });
    const closed = await watchRss(pid, 3000);
    const peak = Math.max(open.peak, closed.peak);
    return [
      `large_message_rss_idle ${idle.toFixed(1)} MB (before a ${size} MB didOpen)`,
      `large_message_rss_peak ${peak.toFixed(1)} MB`,
      `large_message_rss_open ${open.last.toFixed(1)} MB (3 s after it; the document, ${size} MB, still open)`,
      `large_message_rss_closed ${closed.last.toFixed(1)} MB (3 s after its didClose; target: near idle)`,
    ];
  } finally {
    server.child.kill("SIGKILL");
    await fake.close();
  }
}
