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
 * - Every covered line is replaced in full by the REPLACE lines, written verbatim but with the
 *   file's line ending (that of the first replaced line), and the file keeps its trailing newline
 *   or its absence.
 * - An empty SEARCH is only accepted for an empty file, where REPLACE becomes the content.
 */
import { findClosestRegion } from "./closest.js";
import { isSkipMarker, parseSearchReplace, type SearchReplaceBlock } from "./search-replace-parse.js";
import {
  dominantEol,
  hasFinalNewline,
  indentOf,
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

/** What one block did, in line numbers of the ORIGINAL text. */
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

/** One location a block matched, in indexes of the evolving text. */
interface Candidate {
  start: number;
  /** Inclusive. */
  end: number;
  skipped: number;
}

/** Parses `diff` and applies its blocks to `text`. All blocks apply or none. */
export function applySearchReplace(text: string, diff: string): SearchReplaceResult {
  const parsed = parseSearchReplace(diff);
  if (!parsed.ok) return parsed;
  return applySearchReplaceBlocks(text, parsed.blocks);
}

/** Applies already parsed blocks to `text`, in order, each to the result of the ones before. */
export function applySearchReplaceBlocks(text: string, blocks: readonly SearchReplaceBlock[]): SearchReplaceResult {
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

/** Applies one block in place; returns its report or an error message. */
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
    return { block: block.index, startLine: 1, endLine: 0, skipped: 0, replacementLines: block.replace.length };
  }
  const segments = splitSegments(block.search);
  if (segments.some((s) => s.length === 0)) {
    return `${name}: a "....... SKIP" line needs SEARCH lines both before and after it (the head and the tail of the range).`;
  }
  const bodies = lines.map((l) => l.body);
  let candidates = findCandidates(bodies, segments, false);
  if (candidates.length === 0) candidates = findCandidates(bodies, segments, true);
  if (candidates.length === 0) return notFound(name, bodies, segments[0]!, evolved);
  if (candidates.length > 1) {
    const at = candidates.map((c) => origins[c.start]!.from).join(", ");
    return (
      `${name}: SEARCH matches ${candidates.length} locations (starting at lines ${at}); it must match exactly one. ` +
      "Add lines before or after to make it unique."
    );
  }
  const { start, end, skipped } = candidates[0]!;
  const report: BlockReport = {
    block: block.index,
    startLine: origins[start]!.from,
    endLine: origins[end]!.to,
    skipped,
    replacementLines: block.replace.length,
  };
  const eol = lines[start]!.eol || lines[end]!.eol || defaultEol;
  const written = block.replace.map((b): TextLine => ({ body: b, eol }));
  // The last covered line keeps its own terminator (none, at the end of a file without one).
  if (written.length > 0) written[written.length - 1] = { body: written[written.length - 1]!.body, eol: lines[end]!.eol };
  lines.splice(start, end - start + 1, ...written);
  origins.splice(start, end - start + 1, ...written.map(() => ({ from: report.startLine, to: report.endLine })));
  return report;
}

/** Splits SEARCH lines at `....... SKIP` markers into head, (middle parts,) tail. */
function splitSegments(search: readonly string[]): string[][] {
  const segments: string[][] = [[]];
  for (const line of search) {
    if (isSkipMarker(line)) segments.push([]);
    else segments[segments.length - 1]!.push(line);
  }
  return segments;
}

/** Whether SEARCH line `s` matches file line `f` under the rules in the module comment. */
function lineMatches(s: string, f: string, ignoreIndent: boolean): boolean {
  if (isBlank(s)) return isBlank(f);
  const omitted = ignoreIndent || indentOf(s) === "";
  const want = omitted ? s.trimStart() : s;
  const have = omitted ? f.trimStart() : f;
  return have.startsWith(want) || have.trimEnd() === want.trimEnd();
}

/** True when `segment` matches the file lines starting at index `at`. */
function matchesAt(bodies: readonly string[], segment: readonly string[], at: number, ignoreIndent: boolean): boolean {
  if (at + segment.length > bodies.length) return false;
  for (let j = 0; j < segment.length; j++) {
    if (!lineMatches(segment[j]!, bodies[at + j]!, ignoreIndent)) return false;
  }
  return true;
}

/**
 * Every location the block matches: each head position whose later segments are each found
 * (nearest first) after the previous one.
 */
function findCandidates(bodies: readonly string[], segments: readonly string[][], ignoreIndent: boolean): Candidate[] {
  const candidates: Candidate[] = [];
  const [head, ...rest] = segments;
  for (let h = 0; h + head!.length <= bodies.length; h++) {
    if (!matchesAt(bodies, head!, h, ignoreIndent)) continue;
    let next = h + head!.length;
    let skipped = 0;
    let complete = true;
    for (const segment of rest) {
      let at = next;
      while (at + segment.length <= bodies.length && !matchesAt(bodies, segment, at, ignoreIndent)) at++;
      if (at + segment.length > bodies.length) {
        complete = false;
        break;
      }
      skipped += at - next;
      next = at + segment.length;
    }
    if (complete) candidates.push({ start: h, end: next - 1, skipped });
  }
  return candidates;
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
