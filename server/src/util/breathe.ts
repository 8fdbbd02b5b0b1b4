/**
 * Giving the event loop a turn in the middle of long work, so requests (cancel, text sync, other
 * sessions) are answered while a large change set is diffed or a large tree is walked.
 */

/** Yields to the event loop once (after pending I/O callbacks have run). */
export function breathe(): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(resolve));
}

/**
 * A yield that only happens when `everyMs` have passed since the last one: cheap enough to call
 * between every two small steps of a loop.
 */
export function breather(everyMs: number): () => Promise<void> {
  let last = performance.now();
  return async () => {
    if (performance.now() - last < everyMs) return;
    await breathe();
    last = performance.now();
  };
}
