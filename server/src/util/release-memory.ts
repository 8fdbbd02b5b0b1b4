/**
 * Giving memory back after a large message. A 50 MB `create` leaves a few hundred megabytes of
 * garbage (the stream's chunks, the encoded request, the file's and the log's buffers, mostly
 * outside the JS heap), and an idle server allocates nothing that would make V8 collect it: left
 * alone, it stays resident for 15 s or more. After work that grew the process that much, one full
 * collection a moment later, once the event loop is quiet, hands it back.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** Growth (in bytes of resident memory) past which a collection is worth its pause. */
export const LARGE_GROWTH = 64 * 1024 * 1024;

/** How long after the large work the collection runs (later work pushes it back). */
const DELAY_MS = 500;

let collect: (() => void) | null | undefined;
let timer: NodeJS.Timeout | undefined;

/** V8's collector, exposed for this context once (null where the flag cannot be set). */
function collector(): (() => void) | null {
  if (collect !== undefined) return collect;
  try {
    setFlagsFromString("--expose-gc");
    collect = runInNewContext("gc") as () => void;
    setFlagsFromString("--no-expose-gc");
  } catch {
    collect = null;
  }
  return collect;
}

/** Runs a full garbage collection now, if this runtime allows one; true when it ran. */
export function collectGarbage(): boolean {
  const gc = collector();
  if (!gc) return false;
  gc();
  // The first pass frees the garbage; the second gives back the pages it left empty.
  gc();
  return true;
}

/**
 * Schedules one full collection shortly, when resident memory grew by more than
 * {@link LARGE_GROWTH} since `rssBefore` (process.memoryUsage.rss() taken before the work).
 * Never keeps the process alive; calls close together collect once.
 */
export function releaseAfterLargeWork(rssBefore: number): void {
  if (process.memoryUsage.rss() - rssBefore <= LARGE_GROWTH) return;
  collectSoon();
}

/**
 * Schedules one full collection shortly, whatever the growth: for when something large was just
 * let go (a closed 100 MB document). Never keeps the process alive; calls close together collect once.
 */
export function collectSoon(): void {
  clearTimeout(timer);
  timer = setTimeout(collectGarbage, DELAY_MS);
  timer.unref();
}
