/**
 * A 2 MB full rewrite (every line changed) through write_file on the built binary, with the fake
 * provider: how long the tool call takes, and the slowest answer the server gave meanwhile to a
 * cheap request sent every 5 ms (the longest any request waited behind the diff; target < 100 ms).
 * The slowest answer of the whole turn is printed too: it also covers the model streaming 2 MB of
 * tool input, which is not the diff's doing.
 * Beside it, the diff alone in this process: unifiedDiff and the text edits for an open buffer.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { computeTextEdits } from "../server/src/lsp/text-edits.js";
import { unifiedDiff } from "../server/src/workspace/diff.js";
import { fakeProviderOptions, tempProject } from "../test/helpers/agent-setup.js";
import { startFakeProvider } from "../test/helpers/fake-provider/index.js";
import { answerTimes, rewriteVersions, scriptRewrite, slowest } from "../test/helpers/large-rewrite.js";
import { agentLoaded, initialize, spawnServer } from "../test/helpers/spawn-server.js";
import { median } from "./stats.js";

const SIZE = 2_000_000;

/** One rewrite on a fresh server, in ms. */
interface Run {
  /** The write_file call, from the update that starts it to the one that ends it. */
  call: number;
  /** The slowest answer to a ping sent during the call (the diff, the write, the checkpoint). */
  slowestInCall: number;
  /** The slowest answer during the whole turn (also the model streaming 2 MB of tool input). */
  slowestInTurn: number;
}

async function rewriteOnce(): Promise<Run> {
  const fake = await startFakeProvider();
  const root = tempProject("agent-lsp-bench-diff-");
  const server = spawnServer(root);
  try {
    const { before, after } = rewriteVersions(SIZE);
    writeFileSync(path.join(root, "big.txt"), before);
    await initialize(server, root, fakeProviderOptions(fake, { tools: { provider_native: false } }));
    const { result } = await server.request("agent/newSession", {});
    await agentLoaded(server);
    scriptRewrite(fake, "big.txt", after);
    const prompt = server.request("agent/prompt", { sessionId: result.sessionId, prompt: "rewrite" });
    const update = (pred: (u: any) => boolean) => server.waitFor((m) => m.method === "agent/update" && pred(m.params.update), 120_000);
    // The write_file call: from the update that starts it to the one that ends it.
    const callWindow = (async () => {
      const call = (await update((u) => u.kind === "tool_call" && u.name === "write_file")).params.update;
      const start = performance.now();
      const end = (await update((u) => u.kind === "tool_call_update" && u.id === call.id && /completed|failed/.test(u.status))).params.update;
      if (end.status !== "completed") throw new Error(`write_file failed: ${JSON.stringify(end)}`);
      return { start, end: performance.now() };
    })();
    const times = await answerTimes(() => server.request("agent/listSessions", {}), prompt);
    const answer = await prompt;
    if (answer.result?.stopReason !== "end_turn") throw new Error(`rewrite turn ended ${JSON.stringify(answer)}`);
    const { start, end } = await callWindow;
    // Pings sent while the call ran (after its first update reached us): one in flight before
    // that may have waited for the model's 2 MB of tool input instead, which the turn figure shows.
    const inCall = times.filter((t) => t.at >= start && t.at <= end);
    return { call: end - start, slowestInCall: slowest(inCall), slowestInTurn: slowest(times) };
  } finally {
    server.child.kill("SIGKILL");
    await fake.close();
  }
}

/**
 * The diff alone, in this process: median of 5 each, wall and CPU time (on a loaded machine the
 * CPU time is what the diff itself costs; the wall time adds waiting for a core).
 */
function diffAlone(): string[] {
  const { before, after } = rewriteVersions(SIZE);
  const time = (name: string, f: () => void) => {
    const wall: number[] = [];
    const cpu: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      f();
      const c = process.cpuUsage(c0);
      wall.push(performance.now() - t0);
      cpu.push((c.user + c.system) / 1000);
    }
    return [`large_diff.${name} ${median(wall).toFixed(1)} ms`, `large_diff.${name}_cpu ${median(cpu).toFixed(1)} ms`];
  };
  return [...time("unified_diff_2mb", () => unifiedDiff("big.txt", "big.txt", before, after)), ...time("text_edits_2mb", () => computeTextEdits(before, after))];
}

/** Lines `name value unit`. */
export async function benchLargeDiff(): Promise<string[]> {
  const runs: Run[] = [];
  for (let i = 0; i < 3; i++) runs.push(await rewriteOnce());
  const med = (f: (r: Run) => number) => median(runs.map(f)).toFixed(0);
  return [
    `large_diff.write_file_2mb_rewrite ${med((r) => r.call)} ms`,
    `large_diff.slowest_answer_during_write_file_2mb ${med((r) => r.slowestInCall)} ms`,
    `large_diff.slowest_answer_during_write_file_worst_of_3 ${Math.max(...runs.map((r) => r.slowestInCall)).toFixed(0)} ms`,
    `large_diff.slowest_answer_during_whole_turn ${med((r) => r.slowestInTurn)} ms`,
    ...diffAlone(),
  ];
}

// Run directly: `npx tsx bench/large-diff.ts`.
if (import.meta.url === `file://${process.argv[1]}`) {
  for (const line of await benchLargeDiff()) console.log(line);
}
