/**
 * Unified diffs of change sets, for permission prompts, tool results and the editor's
 * tool_call_update. Bounded in time and in size, whatever the files:
 *
 * - only the window where the texts differ is split into lines (edits/text-window.ts);
 * - the line diff has a work budget (edits/line-diff.ts): exact hunks, the same as the `diff`
 *   package's for ordinary edits, coarser ("these lines became those") where a rewrite would make
 *   a minimal diff cost seconds;
 * - a diff longer than the caller allows is not shown: a one-line note stands in its place, before
 *   the file's `---`/`+++` header, where diff readers skip text (so the whole stays a valid
 *   unified diff, just without that file's hunks).
 */
import { diffTexts } from "../edits/line-diff.js";
import type { LineOp } from "../edits/line-ops.js";
import { buildHunks, changedChars, formatHunk, type UnifiedHunk } from "../edits/unified-hunks.js";

/** The diff of one file and its size in lines. */
export interface FileDiff {
  text: string;
  additions: number;
  deletions: number;
  /** True when the hunks were too long to show and a note stands in their place. */
  omitted?: boolean;
}

/** Options of {@link unifiedDiff}. */
export interface DiffOptions {
  /** Unchanged lines shown around each change (3, as `diff -u`). */
  context?: number;
  /** Longest hunk text shown; a longer diff is replaced by a note. */
  maxChars?: number;
  /**
   * The limit the note names: the whole change's, when `maxChars` is only what the files before
   * this one left of it. Default: `maxChars`.
   */
  limit?: number;
}

/**
 * Most characters of diff shown for one change set (all its files together): about 20,000 lines,
 * more than anyone reads in a prompt, and small enough to send and render at once.
 */
export const MAX_DIFF_CHARS = 1_000_000;

/** A size for people: `1200 characters`, `740 KB`, `4.2 MB`. */
function formatSize(chars: number): string {
  if (chars < 10_000) return `${chars} characters`;
  return chars < 999_500 ? `${Math.round(chars / 1000)} KB` : `${(chars / 1e6).toFixed(1)} MB`;
}

/** Lines each side gained and lost. */
function countLines(ops: readonly LineOp[]): { additions: number; deletions: number } {
  let additions = 0;
  let deletions = 0;
  for (const op of ops) {
    if (op.kind === "added") additions += op.count;
    else if (op.kind === "removed") deletions += op.count;
  }
  return { additions, deletions };
}

/**
 * First and last line of the old text that a script touches (1-based, within the diffed part);
 * lines added without removing any touch the line before which they go.
 */
function changedSpan(ops: readonly LineOp[]): { first: number; last: number } {
  let line = 1;
  let first = 0;
  let last = 0;
  for (const op of ops) {
    if (op.kind === "removed") last = line + op.count - 1;
    if (op.kind === "added") last = Math.max(last, line - 1);
    if (op.kind !== "equal") first ||= line;
    if (op.kind !== "added") line += op.count;
  }
  return { first, last: Math.max(first, last) };
}

/** The note that stands in for hunks too long to show. */
function omittedNote(name: string, chars: number, limit: number, ops: readonly LineOp[], offset: number): string {
  const { additions, deletions } = countLines(ops);
  const span = changedSpan(ops);
  const where = span.first === span.last ? `at line ${span.first + offset}` : `between lines ${span.first + offset} and ${span.last + offset}`;
  return `diff of ${name} not shown: its ${formatSize(chars)} would go past the ${formatSize(limit)} of diff shown per change (+${additions} -${deletions} lines ${where})`;
}

/** Lines of `text`, the last one counted even without its newline. */
function lineCount(text: string): number {
  let lines = 0;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) lines++;
  return text.endsWith("\n") || text === "" ? lines : lines + 1;
}

/**
 * The note for a new (or empty) file too long to show, without splitting it into lines: its diff
 * is all of it added, so the note is known from its length and line count (the same note the
 * line diff would give, at a fraction of the time and none of the memory for a 50 MB create).
 */
function tooLongCreate(name: string, header: string, newText: string, limit: number): FileDiff {
  const lines = lineCount(newText);
  const ops: LineOp[] = [{ kind: "added", count: lines }];
  // As changedChars counts: every line with one more character for its +.
  const note = omittedNote(name, newText.length + lines, limit, ops, 0);
  return { text: `${note}\n${header}\n`, additions: lines, deletions: 0, omitted: true };
}

/**
 * Unified diff of one file. `oldName`/`newName` are root-relative paths, or null for a file that
 * did not exist before (or does not after).
 */
export function unifiedDiff(oldName: string | null, newName: string | null, oldText: string, newText: string, options: DiffOptions = {}): FileDiff {
  const context = options.context ?? 3;
  const maxChars = options.maxChars ?? MAX_DIFF_CHARS;
  const header = `--- ${oldName === null ? "/dev/null" : `a/${oldName}`}\n+++ ${newName === null ? "/dev/null" : `b/${newName}`}`;
  if (oldText === newText) return { text: oldName === newName ? "" : `${header}\n`, additions: 0, deletions: 0 };
  if (oldText === "" && newText.length > maxChars) return tooLongCreate((newName ?? oldName)!, header, newText, options.limit ?? maxChars);
  const { window: w, a, b, ops } = diffTexts(oldText, newText, context);
  const counts = countLines(ops);
  const omitted = (chars: number): FileDiff => {
    const note = omittedNote((newName ?? oldName)!, chars, options.limit ?? maxChars, ops, w.skippedLines);
    return { text: `${note}\n${header}\n`, ...counts, omitted: true };
  };
  // Known too long from the changed lines alone: no hunk is built (a 50 MB rewrite would be 100 MB).
  const lower = changedChars(ops, a, b);
  if (lower > maxChars) return omitted(lower);
  const body = buildHunks(ops, a, b, context)
    .map((h) => formatHunk(h, w.skippedLines))
    .join("\n");
  return body.length > maxChars ? omitted(body.length) : { text: `${header}\n${body}\n`, ...counts };
}

/**
 * The hunks that turn `oldText` into `newText`, numbered in the whole file, in the shape the
 * `diff` package's applyPatch takes: the same bounded diff as {@link unifiedDiff}, for re-applying
 * a change onto a text that moved on since.
 */
export function hunksOf(oldText: string, newText: string, context = 3): UnifiedHunk[] {
  if (oldText === newText) return [];
  const { window: w, a, b, ops } = diffTexts(oldText, newText, context);
  return buildHunks(ops, a, b, context).map((h) => ({ ...h, oldStart: h.oldStart + w.skippedLines, newStart: h.newStart + w.skippedLines }));
}
