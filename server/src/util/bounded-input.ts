/**
 * A tool call's input as an editor is shown it. A model can stream megabytes into one argument
 * (a 50 MB `write_file`); sending that to the editor in every update of the call would freeze a
 * chat that only shows a line of it, and the change itself reaches the editor as an edit or a
 * diff anyway. So a string past the limit keeps its first and last part around a note of what
 * was left out; everything else (and the input the tool runs with) is unchanged.
 */

/** The longest string shown whole: 16 KiB. */
export const SHOWN_STRING_LIMIT = 16_384;

/** `input` with every string longer than `limit` cut to its first and last part; the same object when none is. */
export function boundedInput(input: unknown, limit = SHOWN_STRING_LIMIT): unknown {
  return hasLongString(input, limit) ? bounded(input, limit) : input;
}

function hasLongString(value: unknown, limit: number): boolean {
  if (typeof value === "string") return value.length > limit;
  if (Array.isArray(value)) return value.some((v) => hasLongString(v, limit));
  if (value && typeof value === "object") return Object.values(value).some((v) => hasLongString(v, limit));
  return false;
}

function bounded(value: unknown, limit: number): unknown {
  if (typeof value === "string") return value.length > limit ? cut(value, limit) : value;
  if (Array.isArray(value)) return value.map((v) => bounded(v, limit));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, bounded(v, limit)]));
  return value;
}

/** The first three quarters of the limit and the last quarter, with the count of what is between. */
function cut(text: string, limit: number): string {
  const head = Math.floor((limit * 3) / 4);
  const tail = limit - head;
  const left = text.length - head - tail;
  return `${text.slice(0, head)}\n[… ${withCommas(left)} characters not shown …]\n${text.slice(text.length - tail)}`;
}

/**
 * 12345678 as "12,345,678", as toLocaleString("en-US") writes it, without its first call's
 * tens of milliseconds loading the locale data in the middle of a large tool call.
 */
function withCommas(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+$)/g, ",");
}
