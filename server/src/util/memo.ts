/** Memoizing an async factory (SDK imports, API clients) without caching its failures. */

/**
 * Returns a function that runs `create` once and hands every caller the same promise. A rejected
 * attempt is forgotten, so a failed import or client build (a missing package fixed later, a
 * transient error) is tried again on the next call instead of failing every later call.
 */
export function memoizeAsync<T>(create: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => {
    pending ??= create().catch((error: unknown) => {
      pending = undefined;
      throw error;
    });
    return pending;
  };
}
