/**
 * Unified diffs of change sets, for permission prompts, tool results and the editor's
 * tool_call_update. The `diff` package does the line diff; around it, the common head and tail of
 * the two texts are cut off first so a one-line change to a 10 MB file diffs only the lines near
 * the change instead of tokenising the whole file twice.
 */
import { structuredPatch, type StructuredPatchHunk } from "diff";

/** The diff of one file and its size in lines. */
export interface FileDiff {
  text: string;
  additions: number;
  deletions: number;
}

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
function countNewlines(text: string, end: number): number {
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

/**
 * The part of both texts that differs, widened to whole lines plus `context` lines each side,
 * and the number of lines before it.
 */
function changedWindow(a: string, b: string, context: number) {
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

/** Formats one hunk the way `diff -u` does (a zero-length side starts one line earlier). */
function formatHunk(h: StructuredPatchHunk, offset: number): string {
  const oldStart = h.oldLines === 0 ? h.oldStart - 1 : h.oldStart;
  const newStart = h.newLines === 0 ? h.newStart - 1 : h.newStart;
  const head = `@@ -${oldStart + offset},${h.oldLines} +${newStart + offset},${h.newLines} @@`;
  return [head, ...h.lines].join("\n");
}

/**
 * Unified diff of one file. `oldName`/`newName` are root-relative paths, or null for a file that
 * did not exist before (or does not after).
 */
export function unifiedDiff(
  oldName: string | null,
  newName: string | null,
  oldText: string,
  newText: string,
  context = 3,
): FileDiff {
  const header = `--- ${oldName === null ? "/dev/null" : `a/${oldName}`}\n+++ ${newName === null ? "/dev/null" : `b/${newName}`}`;
  if (oldText === newText) return { text: oldName === newName ? "" : `${header}\n`, additions: 0, deletions: 0 };
  const w = changedWindow(oldText, newText, context);
  const patch = structuredPatch("a", "b", oldText.slice(w.start, w.endA), newText.slice(w.start, w.endB), "", "", {
    context,
  });
  let additions = 0;
  let deletions = 0;
  for (const h of patch.hunks) {
    for (const line of h.lines) {
      if (line.startsWith("+")) additions++;
      else if (line.startsWith("-")) deletions++;
    }
  }
  const hunks = patch.hunks.map((h) => formatHunk(h, w.skippedLines)).join("\n");
  return { text: `${header}\n${hunks}\n`, additions, deletions };
}
