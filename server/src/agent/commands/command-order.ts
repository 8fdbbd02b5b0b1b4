/**
 * The order slash commands are listed in: `localeCompare`'s. The first `localeCompare` of a
 * process loads ICU's collation data (3 MB of memory, and as long as building a session's
 * runtime) right after a session's answer, where its command list is sent. Names of lowercase
 * letters, digits and hyphens, as every built-in command's is, sort by their code points in
 * the same order (a hyphen before digits before letters, in both), so only other names need it.
 */
const PLAIN = /^[a-z0-9-]*$/;

/** Compares two command names as `a.localeCompare(b)` does. */
export function byCommandName(a: string, b: string): number {
  if (PLAIN.test(a) && PLAIN.test(b)) return a < b ? -1 : a > b ? 1 : 0;
  return a.localeCompare(b);
}
