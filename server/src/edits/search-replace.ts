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
 *   or its absence. The one exception is indentation: when SEARCH matched only with its
 *   indentation forgiven, REPLACE is re-based into the file's frame (rebase-indent.ts, shared by
 *   every edit tool), or the block is refused when no re-basing is safe.
 * - An empty SEARCH is only accepted for an empty file, where REPLACE becomes the content.
 */
import { numberList } from "./number-list.js";
import { findClosestRegion } from "./closest.js";
import { parseSearchReplace, type SearchReplaceBlock } from "./search-replace-parse.js";
import { describeIndent, rebaseIndent, type IndentPair } from "./rebase-indent.js";
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
export { describeIndent } from "./rebase-indent.js";

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
  /** Whitespace taken from the front of REPLACE's lines, as SEARCH and REPLACE both had it in excess. */
  outdented?: string;
  /** Each REPLACE line took the indentation of the file line it stands for (SEARCH lost its relative indentation). */
  mapped?: boolean;
}

/** The outcome of {@link applySearchReplace}. */
export type SearchReplaceResult =
  | { ok: true; text: string; blocks: BlockReport[] }
  | { ok: false; error: string };

/** Where a line of the evolving text came from: its original line, or the range a block replaced. */
interface Origin {
  from: number;
  to: number;
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
  for (const block of blocks) {
    const outcome = applyBlock(lines, origins, block, defaultEol, reports.length > 0);
    if (typeof outcome === "string") return { ok: false, error: outcome };
    reports.push(outcome);
  }
  settleLineEnds(lines, finalNewline, defaultEol);
  return { ok: true, text: restoreBom(joinLines(lines), bom), blocks: reports };
}

/** Applies one block in place; returns its report (and under-indented REPLACE lines) or an error message. */
function applyBlock(
  lines: TextLine[],
  origins: Origin[],
  block: SearchReplaceBlock,
  defaultEol: Eol,
  evolved: boolean,
): BlockReport | string {
  const name = `Block ${block.index}`;
  if (block.search.length === 0) {
    if (lines.length > 0) {
      return `${name}: SEARCH is empty. It must contain the file lines to replace (an empty SEARCH is only accepted for an empty file).`;
    }
    lines.push(...block.replace.map((b): TextLine => ({ body: b, eol: defaultEol })));
    const report = { block: block.index, startLine: 1, endLine: 0, skipped: 0, replacementLines: block.replace.length };
    return report;
  }
  const segments = splitSegments(block.search);
  if (segments.some((s) => s.length === 0)) {
    return `${name}: a "....... SKIP" line needs SEARCH lines both before and after it (the head and the tail of the range).`;
  }
  const bodies = lines.map((l) => l.body);
  const located = locateBlock(bodies, segments);
  const candidates = fromHint(located.candidates, block.startLine, origins);
  if (candidates.length === 0) return notFound(name, bodies, segments[0]!, evolved);
  if (candidates.length > 1) {
    const at = numberList(candidates.map((c) => origins[c.start]!.from));
    return (
      `${name}: SEARCH matches ${candidates.length} locations (starting at lines ${at}); it must match exactly one. ` +
      "Add lines before or after to make it unique."
    );
  }
  const candidate = candidates[0]!;
  const { start, end, skipped } = candidate;
  const { replace, droppedBlank } = mirrorDroppedBlanks(block.replace, located);
  const fit = rebaseIndent(matchedPairs(bodies, located.segments, candidate), replace);
  if (fit.kind === "refused") return refusedBlock(name, fit.reason, bodies, candidate, origins);
  const replacement = fit.lines;
  const report: BlockReport = {
    block: block.index,
    startLine: origins[start]!.from,
    endLine: origins[end]!.to,
    skipped,
    replacementLines: replacement.length,
  };
  if (droppedBlank) report.droppedBlank = droppedBlank;
  if (fit.kind === "shifted" && fit.added) report.reindented = fit.added;
  if (fit.kind === "shifted" && fit.removed) report.outdented = fit.removed;
  if (fit.kind === "mapped") report.mapped = true;
  const eol = lines[start]!.eol || lines[end]!.eol || defaultEol;
  const written = replacement.map((b): TextLine => ({ body: b, eol }));
  // The last covered line keeps its own terminator (none, at the end of a file without one).
  if (written.length > 0) written[written.length - 1] = { body: written[written.length - 1]!.body, eol: lines[end]!.eol };
  lines.splice(start, end - start + 1, ...written);
  const from = report.startLine;
  const to = report.endLine;
  origins.splice(start, end - start + 1, ...written.map(() => ({ from, to })));
  return report;
}

/** Each non-skipped SEARCH line beside the file line it matched. */
/**
 * With a `:start_line:` hint, the places at or after that line (of the original text) when that
 * leaves exactly one; otherwise every place, so an ambiguous block is still refused.
 */
function fromHint(candidates: Candidate[], startLine: number | undefined, origins: readonly Origin[]): Candidate[] {
  if (startLine === undefined || candidates.length < 2) return candidates;
  const after = candidates.filter((c) => origins[c.start]!.from >= startLine);
  return after.length === 1 ? after : candidates;
}

/** Why a block that matched is not written, with the lines it matched. */
function refusedBlock(name: string, reason: string, bodies: readonly string[], c: Candidate, origins: readonly Origin[]): string {
  const shown = bodies.slice(c.start, Math.min(c.end + 1, c.start + 40));
  return (
    `${name}: not applied: SEARCH matched lines ${origins[c.start]!.from}-${origins[c.end]!.to}, but ${reason.replace("the text to find", "SEARCH")}\n` +
    `The matched lines:\n${numberLines(shown, c.start + 1)}`
  );
}

function matchedPairs(bodies: readonly string[], segments: readonly string[][], candidate: Candidate): IndentPair[] {
  return segments.flatMap((segment, k) => segment.map((s, j): IndentPair => [s, bodies[candidate.segmentStarts[k]! + j]!]));
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
