/**
 * The replace_in_file engine: applies SEARCH/REPLACE blocks, in order, to the evolving text.
 *
 * Matching rules (line-based, never a substring from the middle of a line):
 * - A SEARCH line matches a file line when it is the whole line or its beginning. Its leading
 *   indentation may be omitted; when it is given, it must be the file line's. (Only when no
 *   location matches that way is indentation ignored altogether, so a block written with the wrong
 *   indentation still finds its one location instead of failing.) A SEARCH line that differs from
 *   a whole file line only by trailing whitespace matches it too.
 * - A blank SEARCH line matches only a blank file line (otherwise "" would be the beginning of
 *   every line).
 * - A block must match exactly one location; several are refused with their line numbers.
 * - `....... SKIP` splits SEARCH into a head and a tail: the block covers the head, everything
 *   after it up to the nearest match of the tail, and the tail.
 * - A SEARCH that matches nowhere is tried again without the blank lines at its start and end; as
 *   many blank lines as were dropped there are then dropped from the same end of REPLACE too,
 *   where REPLACE has them (they mirror SEARCH's), so no blank line is added that the file lacked.
 * - Every covered line is replaced in full by the REPLACE lines, written verbatim but with the
 *   file's line ending (that of the first replaced line), and the file keeps its trailing newline
 *   or its absence. The one exception is indentation that SEARCH and REPLACE both left out
 *   (search-replace-indent.ts).
 * - An empty SEARCH is only accepted for an empty file, where REPLACE becomes the content.
 */
import { findClosestRegion } from "./closest.js";
import { parseSearchReplace, type SearchReplaceBlock } from "./search-replace-parse.js";
import { fitReplaceIndent, type MatchedPair } from "./search-replace-indent.js";
import { countWhile, locateBlock, splitSegments, type Candidate, type Located } from "./search-replace-match.js";
import {
  dominantEol,
  hasFinalNewline,
  isBlank,
  joinLines,
  numberLines,
  restoreBom,
  settleLineEnds,
  splitLines,
  stripBom,
  type Eol,
  type TextLine,
} from "./text.js";

export { parseSearchReplace, type SearchReplaceBlock } from "./search-replace-parse.js";
export { describeIndent } from "./search-replace-indent.js";

/** What one block did, in line numbers of the ORIGINAL text (unless said otherwise). */
export interface BlockReport {
  /** 1-based block number. */
  block: number;
  /** First original line the block replaced (for an empty file: 1, with endLine 0). */
  startLine: number;
  /** Last original line it replaced (inclusive). */
  endLine: number;
  /** Lines a SKIP range covered (between head and tail) and so removed; 0 without SKIP. */
  skipped: number;
  /** Number of lines written in their place. */
  replacementLines: number;
  /** Blank lines SEARCH only matched without (and how many of REPLACE's went with them). */
  droppedBlank?: { leading: number; trailing: number; replaceLeading: number; replaceTrailing: number };
  /** Whitespace put in front of every non-blank REPLACE line, as SEARCH and REPLACE both left it out. */
  reindented?: string;
  /**
   * REPLACE lines written less indented than the lines they replaced, where no safe re-indent
   * existed: their line in the NEW text (absent when a later block replaced them) and text.
   */
  underIndented?: { line?: number; text: string }[];
  /** With `underIndented`: the indentation of the shallowest line SEARCH matched. */
  matchedIndent?: string;
}

/** The outcome of {@link applySearchReplace}. */
export type SearchReplaceResult =
  | { ok: true; text: string; blocks: BlockReport[] }
  | { ok: false; error: string };

/**
 * Where a line of the evolving text came from: its original line, or the range a block replaced
 * (`written` then says which REPLACE line it is, to find it in the final text).
 */
interface Origin {
  from: number;
  to: number;
  written?: { block: number; line: number };
}

/** A REPLACE line (0-based in its block) written less indented than the lines it replaced. */
interface UnderIndented {
  index: number;
  text: string;
}

/** Parses `diff` and applies its blocks to `text`. All blocks apply or none. */
export function applySearchReplace(text: string, diff: string): SearchReplaceResult {
  const parsed = parseSearchReplace(diff);
  if (!parsed.ok) return parsed;
  return applySearchReplaceBlocks(text, parsed.blocks);
}

/** Applies already parsed blocks to `text`, in order, each to the result of the ones before. */
function applySearchReplaceBlocks(text: string, blocks: readonly SearchReplaceBlock[]): SearchReplaceResult {
  const { text: body, bom } = stripBom(text);
  const lines = splitLines(body);
  const origins: Origin[] = lines.map((_, i) => ({ from: i + 1, to: i + 1 }));
  const finalNewline = body === "" || hasFinalNewline(body);
  const defaultEol = dominantEol(body);
  const reports: BlockReport[] = [];
  const pending = new Map<number, UnderIndented[]>();
  for (const block of blocks) {
    const outcome = applyBlock(lines, origins, block, defaultEol, reports.length > 0);
    if (typeof outcome === "string") return { ok: false, error: outcome };
    reports.push(outcome.report);
    if (outcome.underIndented.length > 0) pending.set(block.index, outcome.underIndented);
  }
  settleLineEnds(lines, finalNewline, defaultEol);
  for (const report of reports) locateUnderIndented(report, pending.get(report.block), origins, lines);
  return { ok: true, text: restoreBom(joinLines(lines), bom), blocks: reports };
}

/** Fills `report.underIndented` with where those REPLACE lines ended up in the final text. */
function locateUnderIndented(
  report: BlockReport,
  replaceLines: readonly UnderIndented[] | undefined,
  origins: readonly Origin[],
  lines: readonly TextLine[],
): void {
  if (!replaceLines) return;
  const finalIndex = new Map<number, number>();
  origins.forEach((o, i) => {
    if (o.written?.block === report.block) finalIndex.set(o.written.line, i);
  });
  report.underIndented = replaceLines.map(({ index, text }) => {
    const i = finalIndex.get(index);
    return i === undefined ? { text } : { line: i + 1, text: lines[i]!.body };
  });
}

/** Applies one block in place; returns its report (and under-indented REPLACE lines) or an error message. */
function applyBlock(
  lines: TextLine[],
  origins: Origin[],
  block: SearchReplaceBlock,
  defaultEol: Eol,
  evolved: boolean,
): { report: BlockReport; underIndented: UnderIndented[] } | string {
  const name = `Block ${block.index}`;
  if (block.search.length === 0) {
    if (lines.length > 0) {
      return `${name}: SEARCH is empty. It must contain the file lines to replace (an empty SEARCH is only accepted for an empty file).`;
    }
    lines.push(...block.replace.map((b): TextLine => ({ body: b, eol: defaultEol })));
    const report = { block: block.index, startLine: 1, endLine: 0, skipped: 0, replacementLines: block.replace.length };
    return { report, underIndented: [] };
  }
  const segments = splitSegments(block.search);
  if (segments.some((s) => s.length === 0)) {
    return `${name}: a "....... SKIP" line needs SEARCH lines both before and after it (the head and the tail of the range).`;
  }
  const bodies = lines.map((l) => l.body);
  const located = locateBlock(bodies, segments);
  const { candidates } = located;
  if (candidates.length === 0) return notFound(name, bodies, segments[0]!, evolved);
  if (candidates.length > 1) {
    const at = candidates.map((c) => origins[c.start]!.from).join(", ");
    return (
      `${name}: SEARCH matches ${candidates.length} locations (starting at lines ${at}); it must match exactly one. ` +
      "Add lines before or after to make it unique."
    );
  }
  const candidate = candidates[0]!;
  const { start, end, skipped } = candidate;
  const { replace, droppedBlank } = mirrorDroppedBlanks(block.replace, located);
  const { lines: replacement, fit } = fitReplaceIndent(matchedPairs(bodies, located.segments, candidate), replace);
  const report: BlockReport = {
    block: block.index,
    startLine: origins[start]!.from,
    endLine: origins[end]!.to,
    skipped,
    replacementLines: replacement.length,
  };
  if (droppedBlank) report.droppedBlank = droppedBlank;
  if (fit.kind === "reindented") report.reindented = fit.added;
  if (fit.kind === "under-indented") report.matchedIndent = fit.matchedIndent;
  const eol = lines[start]!.eol || lines[end]!.eol || defaultEol;
  const written = replacement.map((b): TextLine => ({ body: b, eol }));
  // The last covered line keeps its own terminator (none, at the end of a file without one).
  if (written.length > 0) written[written.length - 1] = { body: written[written.length - 1]!.body, eol: lines[end]!.eol };
  lines.splice(start, end - start + 1, ...written);
  const from = report.startLine;
  const to = report.endLine;
  origins.splice(start, end - start + 1, ...written.map((_, line) => ({ from, to, written: { block: block.index, line } })));
  const underIndented = fit.kind === "under-indented" ? fit.lines.map((index) => ({ index, text: replacement[index]! })) : [];
  return { report, underIndented };
}

/** Each non-skipped SEARCH line beside the file line it matched. */
function matchedPairs(bodies: readonly string[], segments: readonly string[][], candidate: Candidate): MatchedPair[] {
  return segments.flatMap((segment, k) => segment.map((s, j): MatchedPair => [s, bodies[candidate.segmentStarts[k]! + j]!]));
}

/**
 * REPLACE without the blank lines that mirror the ones SEARCH matched without: at each end, as
 * many as SEARCH dropped there, or as many as REPLACE has there if fewer.
 */
function mirrorDroppedBlanks(replace: readonly string[], located: Located): { replace: string[]; droppedBlank?: BlockReport["droppedBlank"] } {
  const { leading, trailing } = located.droppedBlank;
  if (leading + trailing === 0) return { replace: [...replace] };
  const replaceLeading = Math.min(leading, countWhile(replace, isBlank));
  const rest = replace.slice(replaceLeading);
  const replaceTrailing = Math.min(trailing, countWhile([...rest].reverse(), isBlank));
  return {
    replace: rest.slice(0, rest.length - replaceTrailing),
    droppedBlank: { leading, trailing, replaceLeading, replaceTrailing },
  };
}

function notFound(name: string, bodies: readonly string[], head: readonly string[], evolved: boolean): string {
  const first = head.find((l) => !isBlank(l)) ?? head[0]!;
  let msg =
    `${name}: SEARCH was not found. Each SEARCH line must be a whole file line or the beginning of one ` +
    `(indentation may be omitted), consecutive and in order. First SEARCH line: "${first.trim()}".`;
  const closest = findClosestRegion(bodies, head);
  if (closest) {
    const numbering = evolved ? " (numbered after the earlier blocks were applied)" : "";
    msg += `\nClosest region, lines ${closest.startLine}-${closest.endLine}${numbering}:\n`;
    msg += numberLines(closest.text.split("\n").slice(0, 40), closest.startLine);
  }
  return msg;
}
