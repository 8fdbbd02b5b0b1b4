/** Polling for test conditions that arrive asynchronously (notifications, files, processes). */

/** Resolves once `cond` holds; rejects after `timeoutMs` (default 5 s). */
export async function waitFor(cond: () => boolean, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 5));
  }
}

/**
 * The bound for "it ended promptly" where the alternative is a wait of 30 s or more (a hung
 * stream, `sleep 100`, a 60 s timeout): far enough below that to tell the two apart, far enough
 * above a quick answer that a loaded 2-core CI machine does not fail it. How fast it really is
 * belongs in bench/, not in a test.
 */
export const PROMPTLY_MS = 10_000;
