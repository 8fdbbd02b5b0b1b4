/**
 * Fair scheduling under a flood: 10,000 prompts written in one burst to a session that is running
 * a turn (each refused), with a cheap request written right behind them: listing the sessions,
 * changing another session's mode, and cancelling the busy session's turn. How long each cheap
 * one waits for its answer (target < 100 ms), beside the same request on the idle server, the time
 * the server's pipe takes to take the burst (nothing behind it can be read sooner) and the time
 * the server takes to answer the whole burst, for both front ends, through a client that parses
 * in linear time (test/helpers/wire-client.ts).
 */
import { ACP_FRONT, answered, LSP_FRONT, startFlooded, type FloodFront } from "../test/helpers/flood.js";
import { startWorkerFake, type WorkerFake } from "./fake-worker.js";
import { median, time } from "./stats.js";

const FLOOD = Number(process.env.FLOOD_PROMPTS ?? 10_000);

/** One flood on a fresh server: each cheap request's wait, at rest and behind the burst. */
async function floodOnce(front: FloodFront, fake: WorkerFake): Promise<Record<string, number>> {
  const f = await startFlooded(front, fake);
  try {
    const list = front.list(f.root);
    const rest = median(await Promise.all([0, 1, 2, 3, 4].map(() => time(() => answered(f.c.request(...list))))));
    // A smaller burst first: what is timed is the scheduling, not the server compiling its code.
    await f.burst(FLOOD / 10);
    const taken: number[] = [];
    const behind = async (send: () => Promise<unknown>) => {
      // From the burst's write: building its 10,000 frames is the client's work, not the server's.
      const all = f.burst(FLOOD, (ms) => taken.push(ms));
      const t0 = performance.now();
      await send();
      const ms = performance.now() - t0;
      const answers = await all;
      // Behind a cancel that overtook them, prompts may start a turn (which ends or is cancelled by
      // the cancel's second run after them); anything else must have been refused.
      const ran = answers.filter((a) => !a.error);
      if (ran.some((a) => a.result?.stopReason !== "cancelled" && a.result?.stopReason !== "error")) throw new Error(`a flooded prompt ran to its end: ${JSON.stringify(ran[0])}`);
      return { ms, drained: performance.now() - t0, ran: ran.length };
    };
    const listed = await behind(() => answered(f.c.request(...list)));
    const mode = await behind(() => answered(f.c.request(...front.setMode(f.other, "ask"))));
    // Cancel: the notification behind the burst; the busy turn's answer says it was cancelled.
    const cancel = await behind(async () => {
      f.c.notify(...front.cancel(f.busy));
      const ended = await f.turn;
      if (ended.result?.stopReason !== "cancelled") throw new Error(`the busy turn ended ${JSON.stringify(ended).slice(0, 200)}`);
    });
    return { rest, list: listed.ms, setMode: mode.ms, cancel: cancel.ms, drain: median([listed.drained, mode.drained, cancel.drained]), taken: median(taken), ran: cancel.ran };
  } finally {
    f.dispose();
  }
}

/** The flood figures of one front end: medians of `runs` fresh servers. */
export async function floodFigures(front: "lsp" | "acp", runs = 3): Promise<Record<string, number>> {
  const fake = await startWorkerFake();
  try {
    const all: Record<string, number>[] = [];
    for (let i = 0; i < runs; i++) all.push(await floodOnce(front === "lsp" ? LSP_FRONT : ACP_FRONT, fake));
    return Object.fromEntries(Object.keys(all[0]!).map((k) => [k, median(all.map((r) => r[k]!))]));
  } finally {
    await fake.close();
  }
}

/** Both front ends' flood figures. */
export async function benchFlood(): Promise<string[]> {
  const out: string[] = [];
  for (const front of ["lsp", "acp"] as const) {
    const f = await floodFigures(front);
    const worst = Math.max(f.list!, f.setMode!, f.cancel!);
    out.push(`flood_${front}_drain ${f.drain!.toFixed(0)} ms (${FLOOD} refused prompts answered, one burst)`);
    out.push(`flood_${front}_read ${f.taken!.toFixed(0)} ms (until the server's pipe had taken the whole burst: nothing behind it is read sooner)`);
    out.push(`flood_${front}_list ${f.list!.toFixed(1)} ms (listing sessions behind the burst; ${f.rest!.toFixed(1)} ms at rest; target < 100 ms)`);
    out.push(`flood_${front}_other_session ${f.setMode!.toFixed(1)} ms (another session's setMode behind the burst; target < 100 ms)`);
    out.push(`flood_${front}_cancel ${f.cancel!.toFixed(1)} ms (cancel behind the burst until the busy turn answers; ${f.ran} overtaken prompt(s) then started a turn, cancelled or failed at once; target < 100 ms)`);
    out.push(`flood_${front}_worst_vs_drain ${(worst / f.drain!).toFixed(2)} x (the slowest cheap answer against the whole burst's; 1 = it waited for all of it)`);
  }
  return out;
}
