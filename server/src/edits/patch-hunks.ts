/**
 * Applies the hunks of one Update to one text.
 *
 * Locating a hunk: its `@@` anchors are found first, in order, each after the previous (exact,
 * then the fuzzy steps, then as the beginning of a line), and the hunk's old lines (context and
 * removed lines) are then searched from the last anchor, or from the end of the previous hunk,
 * with the matcher's degrading steps. Among the matches of the first successful step, the one
 * nearest to the line a unified diff's header states wins (the stated line itself is tried
 * first); without a stated line, the first one. `*** End of File` hunks try the end of the file
 * first. Line numbers are never trusted blindly. A hunk of additions only goes after its last
 * anchor, or at its stated line, or else at the end of the file; an append at the end leaves the
 * search for the next hunk where it was, so it may come first in the patch.
 *
 * Writing a hunk: context lines keep the file's version (they may have matched fuzzily), removed
 * lines go, added lines are written as given with the line ending of the region they land in, and
 * the file keeps its trailing newline or its absence unless a `\ No newline at end of file`
 * marker says otherwise. Nothing is normalised in the output.
 */
import { findClosestRegion } from "./closest.js";
import { findLineRuns } from "./matcher.js";
import { foldUnicode, MATCH_STEPS, normalizeLine, normalizeLines, STEP_DESCRIPTIONS, UNIQUE_ONLY_STEPS, type MatchStep } from "./normalize.js";
import { indentNote, rebaseIndent } from "./rebase-indent.js";
import { oldLinesOf, type Hunk } from "./patch-types.js";
import {
  dominantEol,
  hasFinalNewline,
  joinLines,
  numberLines,
  restoreBom,
  settleLineEnds,
  splitLines,
  stripBom,
  type Eol,
  type TextLine,
} from "./text.js";

/** The outcome of {@link applyHunks}: the new text and notes on anything not matched exactly. */
export type HunksResult = { ok: true; text: string; notes: string[] } | { ok: false; error: string };

/** Lines of expected text or closest region shown in an error. */
const MAX_SHOWN_LINES = 40;

/** Where a hunk's old lines were found, and how loosely. */
interface Located {
  index: number;
  step: MatchStep;
}

/**
 * Applies `hunks`, in order, to `text`. `label` names the file in messages (its path).
 */
export function applyHunks(text: string, hunks: readonly Hunk[], label: string): HunksResult {
  const { text: body, bom } = stripBom(text);
  const lines = splitLines(body);
  let finalNewline = body === "" || hasFinalNewline(body);
  const defaultEol = dominantEol(body);
  const notes: string[] = [];
  let cursor = 0;
  let delta = 0;
  // Kept in step with `lines` rather than rebuilt per hunk: a big file may get many hunks.
  const bodies = lines.map((l) => l.body);
  for (const [h, hunk] of hunks.entries()) {
    const name = `${label}, hunk ${h + 1}`;
    let from = cursor;
    for (const anchor of hunk.anchors) {
      const found = findAnchor(bodies, anchor, from);
      if (!found) {
        const after = from > 0 ? ` after line ${from}` : "";
        return { ok: false, error: `${name}: the anchor line "@@ ${anchor}" was not found${after}.` };
      }
      // An anchor naming the start of its line ("@@ class Foo" for "class Foo(Base):") is the
      // normal case, not worth a note; only whitespace or Unicode differences are.
      if (found.step !== "exact" && found.step !== "prefix") {
        notes.push(`hunk ${h + 1}: anchor "${anchor}" matched ${STEP_DESCRIPTIONS[found.step]}`);
      }
      from = found.index + 1;
    }
    const oldLines = oldLinesOf(hunk);
    // A hunk's context may repeat its anchor line, so the context search may start on it.
    const searchFrom = hunk.anchors.length > 0 ? from - 1 : from;
    const expected = hunk.oldStart === undefined ? undefined : Math.max(0, hunk.oldStart - 1 + delta);
    let at: number;
    let locatedStep: MatchStep | undefined;
    // Additions with no context, no anchor and no stated line are appended at the end of the file
    // (as codex does); they say nothing about where later hunks are, so the cursor stays put.
    const appended = oldLines.length === 0 && hunk.anchors.length === 0 && expected === undefined;
    if (oldLines.length === 0) {
      at = insertionPoint(hunk, bodies.length, from, expected);
      if (appended && !hunk.endOfFile) notes.push(`hunk ${h + 1} has no context lines, so it was appended at the end of the file`);
    } else {
      const found = locate(bodies, oldLines, searchFrom, expected, hunk.endOfFile);
      if (!found) return { ok: false, error: notFoundMessage(name, bodies, oldLines, cursor, h > 0) };
      at = found.index;
      locatedStep = found.step;
      if (found.step !== "exact") notes.push(`hunk ${h + 1} matched ${STEP_DESCRIPTIONS[found.step]}`);
      if (expected !== undefined && at !== expected) {
        notes.push(`hunk ${h + 1} applied at line ${at + 1} (its header said line ${expected + 1})`);
      } else if (hunk.endOfFile && at + oldLines.length !== bodies.length) {
        notes.push(`hunk ${h + 1} is marked as the end of the file but matched at line ${at + 1}`);
      }
    }
    const step = oldLines.length === 0 ? "exact" : (locatedStep ?? "exact");
    const written = writeHunk(lines, hunk, at, defaultEol, step);
    if (typeof written === "string") return { ok: false, error: `${name}: not applied: its ${written}` };
    if (written.note) notes.push(`hunk ${h + 1}: added lines ${written.note}`);
    lines.splice(at, oldLines.length, ...written.lines);
    bodies.splice(at, oldLines.length, ...written.lines.map((l) => l.body));
    if (hunk.finalNewline !== undefined) finalNewline = hunk.finalNewline;
    if (appended) continue;
    cursor = at + written.lines.length;
    delta += written.lines.length - oldLines.length;
  }
  settleLineEnds(lines, finalNewline, defaultEol);
  return { ok: true, text: restoreBom(joinLines(lines), bom), notes };
}

/** Where a hunk with no old lines (only additions) goes. */
function insertionPoint(hunk: Hunk, n: number, from: number, expected: number | undefined): number {
  if (hunk.endOfFile) return n;
  if (expected !== undefined) return Math.min(Math.max(expected, from), n);
  // After its anchor; without one, such a hunk can only mean "append".
  return hunk.anchors.length > 0 ? from : n;
}

/**
 * The file lines a hunk's region becomes. An added line takes the terminator of the line just
 * before it in the hunk (the removed line it replaces, or the context line it follows), so each
 * part of a mixed-ending file keeps its own style.
 */
function writeHunk(lines: readonly TextLine[], hunk: Hunk, at: number, defaultEol: Eol, step: MatchStep): { lines: TextLine[]; note?: string } | string {
  const added = fitAddedLines(lines, hunk, at, step);
  if (typeof added === "string") return added;
  const fallback = lines[at]?.eol || lines[at - 1]?.eol || defaultEol;
  let eol: Eol | "" = fallback;
  const out: TextLine[] = [];
  let k = at;
  let a = 0;
  for (const line of hunk.lines) {
    if (line.op === "+") {
      out.push({ body: added.bodies[a++]!, eol: eol || fallback });
      continue;
    }
    const old = lines[k++]!;
    eol = old.eol;
    if (line.op === " ") out.push(old);
  }
  return { lines: out, ...(added.note ? { note: added.note } : {}) };
}

/**
 * The hunk's added lines, moved into the file's indentation frame when its old lines matched
 * only with their indentation forgiven (edits/rebase-indent.ts, as for every edit tool); the reason
 * as a string when that cannot be done safely.
 */
function fitAddedLines(lines: readonly TextLine[], hunk: Hunk, at: number, step: MatchStep): { bodies: string[]; note?: string } | string {
  const added = hunk.lines.filter((l) => l.op === "+").map((l) => l.text);
  if (step === "exact" || step === "trailing_whitespace" || added.length === 0) return { bodies: added };
  const pairs = hunk.lines.filter((l) => l.op !== "+").map((l, j) => [l.text, lines[at + j]?.body ?? ""] as const);
  const rebased = rebaseIndent(pairs, added);
  if (rebased.kind === "refused") return rebased.reason.replace("the text to find", "context and removed lines");
  const note = indentNote(rebased);
  return { bodies: rebased.lines, ...(note ? { note } : {}) };
}

/** True when `wanted` matches the file lines at `at` under `step`, normalising only those lines. */
function matchesAt(bodies: readonly string[], wanted: readonly string[], at: number, step: MatchStep): boolean {
  if (at < 0 || at + wanted.length > bodies.length) return false;
  for (let j = 0; j < wanted.length; j++) {
    if (normalizeLine(bodies[at + j]!, step) !== wanted[j]) return false;
  }
  return true;
}

/** Finds a hunk's old lines (see the module comment for the order of preference). */
function locate(
  bodies: readonly string[],
  oldLines: readonly string[],
  from: number,
  expected: number | undefined,
  endOfFile: boolean,
): Located | undefined {
  const allBlank = oldLines.every((l) => l.trim() === "");
  const steps = MATCH_STEPS.filter((s) => s === "exact" || !allBlank);
  const wanted = new Map(steps.map((s) => [s, oldLines.map((l) => normalizeLine(l, s))]));
  if (endOfFile) {
    const at = bodies.length - oldLines.length;
    for (const step of steps) if (at >= from && matchesAt(bodies, wanted.get(step)!, at, step)) return { index: at, step };
  }
  for (const step of steps) {
    const want = wanted.get(step)!;
    if (expected !== undefined && expected >= from && matchesAt(bodies, want, expected, step)) return { index: expected, step };
    const lines = step === "exact" ? bodies : normalizeLines(bodies, step);
    const unique = UNIQUE_ONLY_STEPS.has(step);
    const runs = findLineRuns(lines, want, from, lines.length, expected === undefined && !unique ? 1 : unique ? 2 : Infinity);
    if (runs.length === 0 || (unique && runs.length > 1)) continue;
    if (expected === undefined) return { index: runs[0]!, step };
    const nearest = runs.reduce((best, r) => (Math.abs(r - expected) < Math.abs(best - expected) ? r : best));
    return { index: nearest, step };
  }
  return undefined;
}

/** Finds an `@@` anchor line at or after `from`: as a whole line (strictest step first), else as a line's beginning. */
function findAnchor(bodies: readonly string[], anchor: string, from: number): { index: number; step: MatchStep | "prefix" } | undefined {
  for (const step of MATCH_STEPS) {
    const want = normalizeLine(anchor, step);
    if (want === "") continue;
    for (let i = from; i < bodies.length; i++) if (normalizeLine(bodies[i]!, step) === want) return { index: i, step };
  }
  const want = foldUnicode(anchor).trim();
  if (want === "") return undefined;
  for (let i = from; i < bodies.length; i++) {
    if (foldUnicode(bodies[i]!).trim().startsWith(want)) return { index: i, step: "prefix" };
  }
  return undefined;
}

function notFoundMessage(name: string, bodies: readonly string[], oldLines: readonly string[], from: number, evolved: boolean): string {
  const shown = oldLines.slice(0, MAX_SHOWN_LINES);
  const more = oldLines.length > shown.length ? `\n... (${oldLines.length - shown.length} more lines)` : "";
  const after = from > 0 ? ` after line ${from}` : "";
  let msg =
    `${name}: the expected lines (context and removed lines) were not found${after}, ` +
    `not even ignoring whitespace and Unicode look-alikes. Expected:\n${shown.join("\n")}${more}`;
  const closest = findClosestRegion(bodies, oldLines);
  if (closest) {
    const numbering = evolved ? ", numbered after the earlier hunks" : "";
    msg += `\nClosest region in the file (lines ${closest.startLine}-${closest.endLine}${numbering}):\n`;
    msg += numberLines(closest.text.split("\n").slice(0, MAX_SHOWN_LINES), closest.startLine);
  }
  return msg;
}
