/**
 * A large full rewrite through write_file, and the slowest answer to other requests meanwhile:
 * shared by the large-diff tests and `npm run bench`.
 */
import type { FakeProvider } from "./fake-provider/index.js";

/** About `bytes` of text in 40-character lines, no line of which is in the other version. */
export function rewriteVersions(bytes: number): { before: string; after: string; lines: number } {
  const n = Math.round(bytes / 40);
  const lines = (f: (i: number) => string) => Array.from({ length: n }, (_, i) => `${f(i)}\n`).join("");
  return { before: lines((i) => `old line ${i} with some padding text..`), after: lines((i) => `NEW ${i * 7} line and different text...`), lines: n };
}

/** Scripts the model to read `rel` (write_file wants that first), then write all of it anew. */
export function scriptRewrite(fake: FakeProvider, rel: string, text: string): void {
  fake.enqueue(
    { toolCalls: [{ name: "read_file", input: { path: rel } }] },
    // Counted as a real model could write it: by default the fake counts a 2 MB call as 500,000
    // output tokens, past the model's context window, and the next call would compact first.
    { toolCalls: [{ name: "write_file", input: { path: rel, content: text } }], chunkSize: 1 << 16, usage: { input: 2000, output: 4000 } },
    { text: "done" },
  );
}

/** One answer to a ping: when it was sent (performance.now()) and how long it took, in ms. */
export interface PingTime {
  at: number;
  ms: number;
}

/**
 * Sends `ping` again and again until `done` settles; resolves with how long each answer took.
 * The slowest is the longest the server kept a request waiting.
 */
export async function answerTimes(ping: () => Promise<unknown>, done: Promise<unknown>): Promise<PingTime[]> {
  let finished = false;
  // The caller awaits `done` itself and sees its error; here it only ends the loop.
  void done.finally(() => (finished = true)).catch(() => undefined);
  const times: PingTime[] = [];
  while (!finished) {
    const at = performance.now();
    await ping();
    times.push({ at, ms: performance.now() - at });
    await new Promise((r) => setTimeout(r, 5));
  }
  return times;
}

/** The slowest of some answers, in ms (0 when there were none). */
export function slowest(times: PingTime[]): number {
  return times.reduce((max, t) => Math.max(max, t.ms), 0);
}

/** Runs `body` with a 10 ms timer; resolves with the longest it fired late (the loop was held). */
export async function maxStall<T>(body: () => Promise<T>): Promise<{ value: T; stallMs: number }> {
  let stallMs = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - last - 10);
    last = now;
  }, 10);
  try {
    return { value: await body(), stallMs };
  } finally {
    clearInterval(timer);
  }
}
