/**
 * Unified diff hunks from a line edit script, grouped and numbered exactly as the `diff`
 * package's structuredPatch groups them (same context, same merging of nearby changes, the same
 * `\ No newline at end of file` marks), so replacing its diff with ours changed no diff text.
 */
import type { LineOp } from "./line-ops.js";

/** One hunk: 1-based starts as structuredPatch reports them, and its lines with their ` `/`-`/`+`. */
export interface UnifiedHunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: string[];
}

const NO_NEWLINE = "\\ No newline at end of file";

/**
 * Characters the changed lines of a script take (their text and their `-`/`+`): a lower bound of
 * the diff's length, known before any hunk is built.
 */
export function changedChars(ops: readonly LineOp[], a: readonly string[], b: readonly string[]): number {
  let chars = 0;
  let ai = 0;
  let bi = 0;
  for (const op of ops) {
    const from = op.kind === "added" ? b : a;
    const at = op.kind === "added" ? bi : ai;
    if (op.kind !== "equal") for (let k = 0; k < op.count; k++) chars += from[at + k]!.length + 1;
    if (op.kind !== "added") ai += op.count;
    if (op.kind !== "removed") bi += op.count;
  }
  return chars;
}

/** The hunks of `ops` (which turns lines `a` into lines `b`) with `context` lines around changes. */
export function buildHunks(ops: readonly LineOp[], a: readonly string[], b: readonly string[], context: number): UnifiedHunk[] {
  const list = [...ops, { kind: "equal", count: 0 } as const];
  const hunks: UnifiedHunk[] = [];
  let oldRangeStart = 0;
  let newRangeStart = 0;
  let current: string[] = [];
  let ai = 0;
  let bi = 0;
  for (let i = 0; i < list.length; i++) {
    const op = list[i]!;
    if (op.kind !== "equal") {
      if (!oldRangeStart) {
        // A hunk opens with the last `context` lines of the unchanged run before it.
        const lead = i > 0 && context > 0 ? Math.min(context, list[i - 1]!.count) : 0;
        current = [];
        for (let k = bi - lead; k < bi; k++) pushLine(current, " ", b[k]!);
        oldRangeStart = ai + 1 - lead;
        newRangeStart = bi + 1 - lead;
      }
      const [from, at, sign] = op.kind === "removed" ? [a, ai, "-"] : [b, bi, "+"];
      for (let k = 0; k < op.count; k++) pushLine(current, sign, from[at + k]!);
      if (op.kind === "removed") ai += op.count;
      else bi += op.count;
      continue;
    }
    if (oldRangeStart) {
      // Changes closer than twice the context share a hunk; the last run always closes one.
      const joins = op.count <= context * 2 && i < list.length - 2;
      const shown = joins ? op.count : Math.min(op.count, context);
      for (let k = 0; k < shown; k++) pushLine(current, " ", b[bi + k]!);
      if (!joins) {
        hunks.push({ oldStart: oldRangeStart, oldLines: ai + shown - oldRangeStart + 1, newStart: newRangeStart, newLines: bi + shown - newRangeStart + 1, lines: current });
        oldRangeStart = 0;
        newRangeStart = 0;
      }
    }
    ai += op.count;
    bi += op.count;
  }
  return hunks;
}

/** Adds a hunk line without its `\n`; a line that had none gets the `\ No newline` mark after it. */
function pushLine(out: string[], sign: string, line: string): void {
  if (line.endsWith("\n")) out.push(sign + line.slice(0, -1));
  else out.push(sign + line, NO_NEWLINE);
}

/**
 * A hunk as `diff -u` prints it: a side with no lines starts one line earlier. `offset` moves it
 * down by lines that were cut off before the diffed part of the file.
 */
export function formatHunk(h: UnifiedHunk, offset: number): string {
  const oldStart = h.oldLines === 0 ? h.oldStart - 1 : h.oldStart;
  const newStart = h.newLines === 0 ? h.newStart - 1 : h.newStart;
  const head = `@@ -${oldStart + offset},${h.oldLines} +${newStart + offset},${h.newLines} @@`;
  return [head, ...h.lines].join("\n");
}
