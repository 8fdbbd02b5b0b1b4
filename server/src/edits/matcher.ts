/**
 * The degrading matcher behind edit_file (and, line-wise, apply_patch's context matching).
 *
 * Steps, strictest first: `exact` is a plain substring search over the whole text, so it is as fast
 * as `indexOf` and finds targets that start or end mid-line. The fuzzy steps compare line by line
 * (the target's lines against runs of file lines after normalising both), because whitespace and
 * punctuation drift is a per-line thing; a one-line target may still match inside a line. The file
 * is only split and normalised for a step once every stricter step has failed, and then only once
 * per step.
 */
import { findClosestRegion, type ClosestRegion } from "./closest.js";
import {
  FUZZY_STEPS,
  UNIQUE_ONLY_STEPS,
  foldWithOffsets,
  leadingTrimmed,
  normalizeLine,
  normalizeLines,
  type MatchStep,
} from "./normalize.js";
import { splitBodies, splitLines } from "./text.js";

export type { MatchStep } from "./normalize.js";
export type { ClosestRegion } from "./closest.js";

/** One place where the target matched, in terms of the ORIGINAL text. */
export interface Match {
  /** Offset of the first matched character. */
  start: number;
  /** Offset just past the last matched character. */
  end: number;
  /** 1-based line of `start`. */
  startLine: number;
  /** 1-based line holding the last matched character (a matched final `\n` belongs to its line). */
  endLine: number;
  /**
   * True when a fuzzy step matched whole lines: the range starts at column 0 (indentation
   * included) even if the target's indentation differed, which is what lets edit.ts re-indent.
   */
  wholeLines: boolean;
}

/** What {@link findMatches} found. */
export type MatchResult =
  | { found: true; step: MatchStep; matches: Match[] }
  | { found: false; closest?: ClosestRegion };

/** A target split into line bodies, remembering whether it ended with a line break. */
export interface TargetLines {
  lines: string[];
  endsWithNewline: boolean;
}

/** Splits a target into lines; a final line break ends the last line rather than adding one. */
export function splitTarget(target: string): TargetLines {
  const lines = splitBodies(target);
  const endsWithNewline = lines.length > 1 && lines[lines.length - 1] === "";
  if (endsWithNewline) lines.pop();
  return { lines, endsWithNewline };
}

/**
 * Finds every non-overlapping occurrence of `target` in `text`, trying the steps in order; the
 * first step with any match wins and is reported. When no step matches, returns the region of the
 * file most similar to the target instead.
 */
export function findMatches(text: string, target: string): MatchResult {
  if (target.length === 0) return { found: false };
  const exact = exactMatches(text, target);
  if (exact.length > 0) return { found: true, step: "exact", matches: exact };
  const file = new FileLines(text);
  const t = splitTarget(target);
  for (const step of FUZZY_STEPS) {
    const matches = fuzzyMatches(file, t, step);
    if (matches.length > 1 && UNIQUE_ONLY_STEPS.has(step)) break;
    if (matches.length > 0) return { found: true, step, matches };
  }
  return { found: false, closest: findClosestRegion(file.bodies, t.lines) };
}

/** Plain substring search; line numbers are counted incrementally so the text is scanned once. */
function exactMatches(text: string, target: string): Match[] {
  const matches: Match[] = [];
  const targetBreaks = countNewlines(target, 0, target.endsWith("\n") ? target.length - 1 : target.length);
  let line = 1;
  let counted = 0;
  for (let at = text.indexOf(target); at !== -1; at = text.indexOf(target, at + target.length)) {
    line += countNewlines(text, counted, at);
    counted = at;
    matches.push({
      start: at,
      end: at + target.length,
      startLine: line,
      endLine: line + targetBreaks,
      wholeLines: false,
    });
  }
  return matches;
}

/** Number of `\n` in `text[from, to)`. */
function countNewlines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf("\n", from); i !== -1 && i < to; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

/** A text split into lines once, with their offsets and a per-step cache of normalised lines. */
class FileLines {
  readonly bodies: string[];
  readonly starts: number[];
  private readonly cache = new Map<MatchStep, string[]>();

  constructor(readonly text: string) {
    const lines = splitLines(text);
    this.bodies = lines.map((l) => l.body);
    this.starts = new Array<number>(lines.length);
    let offset = 0;
    for (let i = 0; i < lines.length; i++) {
      this.starts[i] = offset;
      offset += lines[i]!.body.length + lines[i]!.eol.length;
    }
  }

  normalized(step: MatchStep): string[] {
    let lines = this.cache.get(step);
    if (!lines) {
      lines = normalizeLines(this.bodies, step);
      this.cache.set(step, lines);
    }
    return lines;
  }

  /** Offset where line `i` (0-based) starts, or the text's end past the last line. */
  lineStart(i: number): number {
    return i < this.starts.length ? this.starts[i]! : this.text.length;
  }
}

/** One fuzzy step: a run of whole lines, or (single-line targets) a piece of one line. */
function fuzzyMatches(file: FileLines, target: TargetLines, step: MatchStep): Match[] {
  const wanted = target.lines.map((l) => normalizeLine(l, step));
  // A target that normalises to nothing would match every blank line: not a useful edit.
  if (wanted.every((l) => l === "")) return [];
  const lines = file.normalized(step);
  const runs = findLineRuns(lines, wanted);
  const matches = runs.map((i) => wholeLineMatch(file, i, wanted.length, target.endsWithNewline));
  // Inside a line, collapsed runs cannot be mapped back to offsets: that step matches whole lines only.
  if (wanted.length > 1 || target.endsWithNewline || step === "inner_whitespace") return matches;
  // One-line targets may also match inside a line; whole-line matches were found above.
  const whole = new Set(runs);
  const needle = wanted[0]!;
  for (let i = 0; i < lines.length; i++) {
    if (whole.has(i)) continue;
    const hay = lines[i]!;
    for (let at = hay.indexOf(needle); at !== -1; at = hay.indexOf(needle, at + needle.length)) {
      matches.push(substringMatch(file, i, at, needle.length, step));
    }
  }
  return matches.sort((a, b) => a.start - b.start);
}

/**
 * Start indexes of the non-overlapping runs of `lines` equal to `wanted` (both already
 * normalised), searching `lines[from, to)` and stopping after `max` runs.
 */
export function findLineRuns(
  lines: readonly string[],
  wanted: readonly string[],
  from = 0,
  to = lines.length,
  max = Infinity,
): number[] {
  const runs: number[] = [];
  const k = wanted.length;
  if (k === 0) return runs;
  const first = wanted[0]!;
  for (let i = from; i + k <= to; i++) {
    if (lines[i] !== first) continue;
    let j = 1;
    while (j < k && lines[i + j] === wanted[j]) j++;
    if (j === k) {
      if (runs.push(i) >= max) break;
      i += k - 1;
    }
  }
  return runs;
}

function wholeLineMatch(file: FileLines, i: number, k: number, withEol: boolean): Match {
  const last = i + k - 1;
  const end = withEol ? file.lineStart(last + 1) : file.starts[last]! + file.bodies[last]!.length;
  return { start: file.starts[i]!, end, startLine: i + 1, endLine: last + 1, wholeLines: true };
}

/** Maps a hit at `at` in normalised line `i` back to offsets of the original line. */
function substringMatch(file: FileLines, i: number, at: number, length: number, step: MatchStep): Match {
  const base = file.starts[i]!;
  const body = file.bodies[i]!;
  let start: number;
  let end: number;
  if (step === "unicode") {
    const { folded, starts, ends } = foldWithOffsets(body);
    const lead = folded.length - folded.trimStart().length;
    start = base + starts[lead + at]!;
    end = base + ends[lead + at + length - 1]!;
  } else {
    start = base + leadingTrimmed(body, step) + at;
    end = start + length;
  }
  return { start, end, startLine: i + 1, endLine: i + 1, wholeLines: false };
}
