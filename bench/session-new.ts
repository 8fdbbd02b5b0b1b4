/**
 * A new session, as a user's first prompt waits for it: `session/new` (ACP) and `agent/newSession`
 * (LSP) sent the moment initialize is answered, as clients do (so it also waits for what the
 * server still loads after initialize), beside `node -e 0` spawned in the same run (target:
 * ≤ 60 ms), and the resident memory of the server's whole process tree right after it (target:
 * ≤ 40 MB) and once it has settled (the server may go on loading the agent after answering),
 * beside bare Node's idle RSS.
 *
 * The first turn then shows what a user who types at once waits in total: initialize, at its
 * answer the new session, at that answer a prompt the fake model answers with a short text (no
 * tool call), timed from the initialize answer to the prompt's answer (the turn's end on both
 * front ends), beside `node -e 0`. A turn that fails or does not end within 30 s throws.
 *
 * Medians of 5, each on a fresh server and project.
 */
import { spawnSync } from "node:child_process";
import { spawnAcp, userConfigHome } from "../test/helpers/acp-client.js";
import { fakeProviderOptions, tempProject } from "../test/helpers/agent-setup.js";
import { startFakeProvider, type FakeProvider, type FakeTurn } from "../test/helpers/fake-provider/index.js";
import { initialize, spawnServer, type SpawnedServer } from "../test/helpers/spawn-server.js";
import { nodeIdleRssMb, settledRssMb, treeRssMb, type SettledRss } from "./rss.js";
import { median } from "./stats.js";

const RUNS = 5;
/** How long the new session and its first turn may take before the bench gives up. */
const TURN_TIMEOUT_MS = 30_000;
/** The fake model's answer to the first prompt: a short text, no tool call. */
const SHORT_ANSWER: FakeTurn = { text: "Hello! What shall we work on?" };

type FrontEnd = "acp" | "lsp";

/** `node -e 0`, spawned and waited for: the floor of any Node program. */
function bareNode(): number {
  const t0 = performance.now();
  spawnSync(process.execPath, ["-e", "0"]);
  return performance.now() - t0;
}

interface NewSessionRun {
  ms: number;
  /** The tree's RSS right after the answer. */
  rss: number;
  settled: SettledRss;
}

async function acpOnce(fake: FakeProvider): Promise<NewSessionRun> {
  const root = tempProject("agent-lsp-bench-new-");
  const h = spawnAcp(root, userConfigHome(fakeProviderOptions(fake)));
  try {
    await h.initialize({ fs: { readTextFile: true, writeTextFile: true } });
    const t0 = performance.now();
    await h.agent.request("session/new", { cwd: root, mcpServers: [] });
    const ms = performance.now() - t0;
    return { ms, rss: treeRssMb(h.child.pid!), settled: await settledRssMb(h.child.pid!) };
  } finally {
    await h.close();
  }
}

async function lspOnce(fake: FakeProvider): Promise<NewSessionRun> {
  const root = tempProject("agent-lsp-bench-new-");
  const server = spawnServer(root);
  try {
    await initialize(server, root, fakeProviderOptions(fake));
    const t0 = performance.now();
    await server.request("agent/newSession", {});
    const ms = performance.now() - t0;
    return { ms, rss: treeRssMb(server.child.pid!), settled: await settledRssMb(server.child.pid!) };
  } finally {
    server.child.kill("SIGKILL");
  }
}

/** The last lines the server wrote to stderr, for an error message. */
function stderrTail(stderr: string): string {
  const tail = stderr.trim().slice(-2000);
  return tail ? `\nthe server's stderr ends:\n${tail}` : "\n(the server wrote nothing to stderr)";
}

function describe(err: unknown): string {
  if (err instanceof Error) return err.message;
  return typeof err === "object" ? JSON.stringify(err) : String(err);
}

/** The rejection of {@link before}: its message already ends with the server's stderr. */
class TooLate extends Error {}

/** `work`, or a rejection naming `what` and the stderr tail once `deadline` (performance.now()) passes. */
async function before<T>(deadline: number, work: Promise<T>, what: string, stderr: () => string): Promise<T> {
  work.catch(() => {}); // a failure after the deadline is not an unhandled rejection
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TooLate(`${what} did not end within ${TURN_TIMEOUT_MS / 1000} s${stderrTail(stderr())}`)), Math.max(0, deadline - performance.now()));
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** ACP: initialize, then session/new and session/prompt each at the previous answer. */
async function acpFirstTurn(fake: FakeProvider, root: string): Promise<number> {
  const h = spawnAcp(root, userConfigHome(fakeProviderOptions(fake)));
  // The raw connection: each answer as it arrives, not after the client's update handlers ran.
  const agent = h.connection.agent;
  try {
    const deadline = performance.now() + TURN_TIMEOUT_MS;
    await before(deadline, h.initialize({ fs: { readTextFile: true, writeTextFile: true } }), "first turn (acp): initialize", h.stderr);
    const t0 = performance.now();
    const turn = (async () => {
      const { sessionId } = await agent.request("session/new", { cwd: root, mcpServers: [] });
      return agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "Hi" }] });
    })();
    const answer = await before(t0 + TURN_TIMEOUT_MS, turn, "session/new and its first session/prompt", h.stderr).catch((err: unknown) => {
      throw new Error(`first turn (acp): ${describe(err)}${err instanceof TooLate ? "" : stderrTail(h.stderr())}`);
    });
    const ms = performance.now() - t0;
    if (answer.stopReason !== "end_turn") throw new Error(`first turn (acp) ended ${answer.stopReason}, not end_turn${stderrTail(h.stderr())}`);
    return ms;
  } finally {
    await h.close();
  }
}

/** One LSP request with a deadline; a JSON-RPC error throws. */
async function lspAsk(server: SpawnedServer, deadline: number, id: string, method: string, params: unknown): Promise<any> {
  server.send({ jsonrpc: "2.0", id, method, params });
  let answer: any;
  try {
    answer = await server.waitFor((m) => m.id === id && m.method === undefined, Math.max(0, deadline - performance.now()));
  } catch {
    throw new Error(`first turn (lsp): ${method} did not end within ${TURN_TIMEOUT_MS / 1000} s${stderrTail(server.stderr())}`);
  }
  if (answer.error) throw new Error(`first turn (lsp): ${method} failed: ${JSON.stringify(answer.error)}${stderrTail(server.stderr())}`);
  return answer.result;
}

/** LSP: initialize, then agent/newSession and agent/prompt each at the previous answer. */
async function lspFirstTurn(fake: FakeProvider, root: string): Promise<number> {
  const server = spawnServer(root);
  try {
    const deadline = performance.now() + TURN_TIMEOUT_MS;
    await before(deadline, initialize(server, root, fakeProviderOptions(fake)), "first turn (lsp): initialize", server.stderr);
    const t0 = performance.now();
    const { sessionId } = await lspAsk(server, t0 + TURN_TIMEOUT_MS, "bench-new", "agent/newSession", {});
    // agent/prompt is answered when the turn ends (docs/protocol.md).
    const result = await lspAsk(server, t0 + TURN_TIMEOUT_MS, "bench-turn", "agent/prompt", { sessionId, prompt: "Hi" });
    const ms = performance.now() - t0;
    if (result?.stopReason !== "end_turn") throw new Error(`first turn (lsp) ended ${JSON.stringify(result)}, not end_turn${stderrTail(server.stderr())}`);
    return ms;
  } finally {
    server.child.kill("SIGKILL");
  }
}

/**
 * Milliseconds from the initialize answer to the end of the first turn, on a fresh server and
 * project, the fake model answering `reply`. Throws if the turn fails, ends otherwise than
 * end_turn, takes longer than 30 s, or the fake saw a request it had no answer for.
 */
export async function firstTurnMs(fe: FrontEnd, fake: FakeProvider, reply: FakeTurn = SHORT_ANSWER): Promise<number> {
  const violations = fake.violations.length;
  fake.enqueue(reply);
  const root = tempProject("agent-lsp-bench-turn-");
  const ms = await (fe === "acp" ? acpFirstTurn(fake, root) : lspFirstTurn(fake, root));
  const extra = fake.violations.slice(violations);
  if (extra.length || fake.pendingTurns) throw new Error(`first turn (${fe}): the fake model was not called once as scripted (${fake.pendingTurns} reply left; ${extra.join("; ") || "no violations"})`);
  return ms;
}

export async function benchSessionNew(): Promise<string[]> {
  const fake = await startFakeProvider();
  try {
    const base = median(Array.from({ length: RUNS }, bareNode));
    const out = [`session_new_baseline ${base.toFixed(1)} ms (node -e 0, spawned and waited for)`];
    const idle: number[] = [];
    for (let i = 0; i < RUNS; i++) idle.push(await nodeIdleRssMb());
    out.push(`session_new_node_idle_rss ${median(idle).toFixed(1)} MB (bare node reading stdin, settled, for comparison)`);
    for (const [name, once] of [["acp", acpOnce], ["lsp", lspOnce]] as const) {
      const runs = [];
      for (let i = 0; i < RUNS; i++) runs.push(await once(fake));
      const ms = median(runs.map((r) => r.ms));
      const capped = runs.filter((r) => r.settled.capped).length;
      out.push(`session_new_${name} ${ms.toFixed(1)} ms (${(ms / base).toFixed(2)}x node -e 0; target <= 60 ms)`);
      out.push(`session_new_${name}_rss ${median(runs.map((r) => r.rss)).toFixed(1)} MB (the server's process tree right after it; target <= 40 MB)`);
      out.push(
        `session_new_${name}_rss_settled ${median(runs.map((r) => r.settled.mb)).toFixed(1)} MB (the tree once within 0.5 MB for 1 s, polled every 50 ms from the answer${capped ? `; ${capped} of ${RUNS} still moving at the 5 s cap` : ""})`,
      );
    }
    for (const fe of ["acp", "lsp"] as const) {
      const runs: number[] = [];
      for (let i = 0; i < RUNS; i++) runs.push(await firstTurnMs(fe, fake));
      const ms = median(runs);
      out.push(`session_first_turn_${fe} ${ms.toFixed(1)} ms (${(ms / base).toFixed(2)}x node -e 0; from the initialize answer through the new session to the end of a short first turn)`);
    }
    return out;
  } finally {
    await fake.close();
  }
}
