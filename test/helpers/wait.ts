/** Polling for test conditions that arrive asynchronously (notifications, files, processes). */

/** Resolves once `cond` holds; rejects after `timeoutMs` (default 5 s). */
export async function waitFor(cond: () => boolean, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 5));
  }
}
