/**
 * The part of two texts that differs, cut at line starts. Everything a line diff of a change set
 * does is linear in this window instead of the whole file, so a one-line change to a 10 MB file
 * splits and compares only the lines around it.
 */

/** Characters compared at once: large, so a 10 MB prefix takes a few hundred comparisons. */
const CHUNK = 65536;

/** Length of the common prefix of two strings. */
function commonPrefix(a: string, b: string): number {
  const max = Math.min(a.length, b.length);
  let i = 0;
  // Whole chunks while they are equal, then halve the chunk to close in on the difference.
  for (let size = CHUNK; size >= 64; size >>= 1) {
    while (i + size <= max && a.slice(i, i + size) === b.slice(i, i + size)) i += size;
  }
  while (i < max && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** Length of the common suffix of two strings, never reaching into the first `floor` chars. */
function commonSuffix(a: string, b: string, floor: number): number {
  const max = Math.min(a.length, b.length) - floor;
  const tailA = (n: number, size: number) => a.slice(a.length - n - size, a.length - n);
  const tailB = (n: number, size: number) => b.slice(b.length - n - size, b.length - n);
  let n = 0;
  for (let size = CHUNK; size >= 64; size >>= 1) {
    while (n + size <= max && tailA(n, size) === tailB(n, size)) n += size;
  }
  while (n < max && a.charCodeAt(a.length - n - 1) === b.charCodeAt(b.length - n - 1)) n++;
  return n;
}

/** Number of `\n` in `text` before `end`. */
export function countNewlines(text: string, end = text.length): number {
  let n = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < end; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

/** Start of the line `lines` lines before the line starting at `pos`. */
function backLines(text: string, pos: number, lines: number): number {
  let p = pos;
  for (let k = 0; k < lines && p > 0; k++) p = p <= 1 ? 0 : text.lastIndexOf("\n", p - 2) + 1;
  return p;
}

/** End (after the newline) of the line `lines` lines after `pos`, a line start. */
function forwardLines(text: string, pos: number, lines: number): number {
  let p = pos;
  for (let k = 0; k < lines && p < text.length; k++) {
    const nl = text.indexOf("\n", p);
    p = nl === -1 ? text.length : nl + 1;
  }
  return p;
}

/** Where two texts differ: `a.slice(start, endA)` became `b.slice(start, endB)`. */
export interface TextWindow {
  start: number;
  endA: number;
  endB: number;
  /** Lines before `start` (the same in both texts). */
  skippedLines: number;
}

/**
 * The part of both texts that differs, widened to whole lines plus `context` unchanged lines
 * each side (the lines a unified diff shows around a change).
 */
export function changedWindow(a: string, b: string, context: number): TextWindow {
  const prefix = commonPrefix(a, b);
  const lineStart = prefix === 0 ? 0 : a.lastIndexOf("\n", prefix - 1) + 1;
  const start = backLines(a, lineStart, context);
  const suffix = commonSuffix(a, b, lineStart);
  // Cut after a newline that lies inside the common tail, so both texts cut at a line start.
  const nl = suffix === 0 ? -1 : a.indexOf("\n", a.length - suffix);
  const tailLen = nl === -1 ? 0 : a.length - (nl + 1);
  const endA = forwardLines(a, a.length - tailLen, context);
  const endB = b.length - (a.length - endA);
  return { start, endA, endB, skippedLines: countNewlines(a, start) };
}
