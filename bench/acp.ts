/**
 * The ACP front end: time to the `initialize` answer of `agent-lsp --acp` against bare node,
 * beside the LSP mode's in the same run (target: the ACP ratio at most the LSP one), and the cost
 * of mapping one streamed chunk onto a `session/update` (target: under 0.05 ms per update over
 * 1,000 chunks), with the whole trip through the SDK to an in-process client for scale.
 */
import * as acp from "@agentclientprotocol/sdk";
import { toAcpUpdate } from "../server/src/acp/updates.js";
import type { SessionEvent } from "../server/src/editor/session-events.js";
import { tempProject } from "../test/helpers/agent-setup.js";
import { timeBareNode, timeInitialize } from "./core.js";
import { median } from "./stats.js";

const ACP_INIT = `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 1, clientCapabilities: {} } })}\n`;
const CHUNKS = 1_000;

/** Start-up of both modes and bare node, interleaved: median of 7 after one warm-up round. */
export async function benchAcpStart(): Promise<string[]> {
  const cwd = tempProject("agent-lsp-bench-");
  const runs = { acp: [] as number[], lsp: [] as number[], node: [] as number[] };
  for (let i = 0; i < 8; i++) {
    const a = await timeInitialize(cwd, ["--acp"], ACP_INIT);
    a.kill();
    const l = await timeInitialize(cwd);
    l.kill();
    const n = timeBareNode();
    if (i === 0) continue;
    runs.acp.push(a.ms);
    runs.lsp.push(l.ms);
    runs.node.push(n);
  }
  const [a, l, n] = [median(runs.acp), median(runs.lsp), median(runs.node)];
  return [
    `acp_initialize ${a.toFixed(1)} ms`,
    `acp_initialize_ratio ${(a / n).toFixed(2)} x (lsp ${(l / n).toFixed(2)} x; target: acp <= lsp)`,
  ];
}

/** The mapping alone, best of 7 rounds of 1,000 chunks, and the SDK round trip for scale. */
async function benchAcpUpdates(): Promise<string[]> {
  const event: SessionEvent = { kind: "text", text: "the next piece of the answer " };
  const ctx = { cwd: "/project", textsOf: () => undefined };
  let sink = 0;
  let best = Infinity;
  for (let round = 0; round < 8; round++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < CHUNKS; i++) sink += toAcpUpdate(event, ctx) ? 1 : 0;
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (round > 0) best = Math.min(best, ms);
  }
  if (sink < 0) console.log(sink);
  const wire = await timeThroughSdk(event, ctx);
  return [
    `acp_update_mapping ${((best / CHUNKS) * 1000).toFixed(3)} µs per update (target < 50 µs)`,
    `acp_update_through_sdk ${((wire / CHUNKS) * 1000).toFixed(1)} µs per update (map, validate, serialize, deliver to an in-process client)`,
  ];
}

/** Milliseconds until an in-process client has received 1,000 mapped chunks sent by the agent side. */
async function timeThroughSdk(event: SessionEvent, ctx: Parameters<typeof toAcpUpdate>[1]): Promise<number> {
  let received = 0;
  let done!: () => void;
  const all = new Promise<void>((resolve) => (done = resolve));
  const client = acp.client({ name: "bench" }).onNotification("session/update", () => {
    if (++received === CHUNKS) done();
  });
  const agent = acp.agent({ name: "bench" }).onRequest("initialize", () => ({ protocolVersion: 1 }));
  const connection = agent.connect(client);
  const start = process.hrtime.bigint();
  for (let i = 0; i < CHUNKS; i++) void connection.client.notify("session/update", { sessionId: "s-1", update: toAcpUpdate(event, ctx)! });
  await all;
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  connection.close();
  return ms;
}

/** Both ACP benchmarks. */
export async function benchAcp(): Promise<string[]> {
  return [...(await benchAcpStart()), ...(await benchAcpUpdates())];
}
