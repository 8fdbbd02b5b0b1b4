/**
 * Where a replace_in_file block's SEARCH lines are in the file (the line rules are in
 * search-replace.ts's module comment).
 *
 * Passes, each tried only when the ones before found nothing: SEARCH as written (indentation, when
 * given, must be the file line's); ignoring indentation altogether; and then both again with the
 * blank lines at the start and the end of SEARCH dropped, because models often leave a stray empty
 * line after the SEARCH marker or before the divider that the file does not have there.
 */
import { isSkipMarker } from "./search-replace-parse.js";
import { indentOf, isBlank } from "./text.js";

/** One location a block matched, in indexes of the evolving text. */
export interface Candidate {
  start: number;
  /** Inclusive. */
  end: number;
  /** Lines a SKIP range covered between the segments. */
  skipped: number;
  /** Index of the first file line each segment matched, in segment order. */
  segmentStarts: number[];
}

/** What {@link locateBlock} found, and with which SEARCH lines. */
export interface Located {
  /** Every location (more than one means the block is ambiguous; none means not found). */
  candidates: Candidate[];
  /** The SEARCH segments that matched (head, middle parts, tail), SKIP markers removed. */
  segments: string[][];
  /** Blank lines dropped from the start and the end of SEARCH to find it (0 when as written). */
  droppedBlank: { leading: number; trailing: number };
}

/** Splits SEARCH lines at `....... SKIP` markers into head, (middle parts,) tail. */
export function splitSegments(search: readonly string[]): string[][] {
  const segments: string[][] = [[]];
  for (const line of search) {
    if (isSkipMarker(line)) segments.push([]);
    else segments[segments.length - 1]!.push(line);
  }
  return segments;
}

/**
 * Finds the block's SEARCH (already split into non-empty segments) in `bodies`, trying the passes
 * in the module comment in order.
 */
export function locateBlock(bodies: readonly string[], segments: readonly string[][]): Located {
  const none = { leading: 0, trailing: 0 };
  const asWritten = findInBothPasses(bodies, segments);
  if (asWritten.length > 0) return { candidates: asWritten, segments: segments.map((s) => [...s]), droppedBlank: none };
  const trimmed = dropBlankEdges(segments);
  if (!trimmed) return { candidates: [], segments: segments.map((s) => [...s]), droppedBlank: none };
  return { candidates: findInBothPasses(bodies, trimmed.segments), segments: trimmed.segments, droppedBlank: trimmed.dropped };
}

/** Candidates with indentation taken into account, else ignoring it. */
function findInBothPasses(bodies: readonly string[], segments: readonly string[][]): Candidate[] {
  const strict = findCandidates(bodies, segments, false);
  return strict.length > 0 ? strict : findCandidates(bodies, segments, true);
}

/**
 * The segments without the blank lines that start the head and end the tail, or undefined when
 * there are none to drop or dropping them would leave the head or the tail empty.
 */
function dropBlankEdges(segments: readonly string[][]): { segments: string[][]; dropped: { leading: number; trailing: number } } | undefined {
  const out = segments.map((s) => [...s]);
  const head = out[0]!;
  const leading = countWhile(head, isBlank);
  head.splice(0, leading);
  const tail = out[out.length - 1]!;
  const trailing = countWhile([...tail].reverse(), isBlank);
  tail.splice(tail.length - trailing, trailing);
  if (leading + trailing === 0 || head.length === 0 || tail.length === 0) return undefined;
  return { segments: out, dropped: { leading, trailing } };
}

/** How many items at the start of `items` satisfy `test`. */
export function countWhile<T>(items: readonly T[], test: (item: T) => boolean): number {
  let n = 0;
  while (n < items.length && test(items[n]!)) n++;
  return n;
}

/** Whether SEARCH line `s` matches file line `f` under the rules in search-replace.ts. */
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
    const segmentStarts = [h];
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
      segmentStarts.push(at);
      skipped += at - next;
      next = at + segment.length;
    }
    if (complete) candidates.push({ start: h, end: next - 1, skipped, segmentStarts });
  }
  return candidates;
}
