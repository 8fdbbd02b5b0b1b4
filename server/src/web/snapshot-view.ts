/**
 * Views of a snapshot: a page of numbered lines, or the lines matching a pattern with context.
 */
import { guardedTester } from "../util/bounded-regex.js";
import type { Snapshot } from "./snapshots.js";

/**
 * Lines `start`..`start+count-1` (1-based) as they are (code blocks stay copyable), under a line
 * saying which lines they are when that is not the whole page, and a note on how to read on.
 */
export function pageLines(snapshot: Snapshot, start: number, count: number): string {
  const total = snapshot.lines.length;
  if (total === 0) return "(empty)";
  if (start > total) return `start_line ${start} is past the end (${total} lines).`;
  const end = Math.min(total, start + count - 1);
  const out = snapshot.lines.slice(start - 1, end);
  if (start > 1 || end < total) out.unshift(`[Lines ${start}-${end} of ${total}]`);
  if (end < total) out.push(`[Read on with start_line=${end + 1} (no refetch).]`);
  return out.join("\n");
}

/** How a search of a snapshot went. */
export interface PatternResult {
  text: string;
  matches: number;
}

/**
 * Lines matching `pattern` (a regular expression, Unicode and case-insensitive; a pattern that is
 * not a valid expression is searched for as plain text), each with `context` lines around it,
 * overlapping groups merged, at most `maxMatches` shown.
 */
export function searchLines(snapshot: Snapshot, pattern: string, context = 2, maxMatches = 100): PatternResult {
  const test = guardedTester(compile(pattern));
  const hits: number[] = [];
  let matches = 0;
  for (let i = 0; i < snapshot.lines.length; i++) {
    if (!test(snapshot.lines[i]!)) continue;
    matches++;
    if (hits.length < maxMatches) hits.push(i);
  }
  if (!matches) return { text: `No line matches ${JSON.stringify(pattern)} (${snapshot.lines.length} lines searched).`, matches };
  const out: string[] = [];
  let shownTo = -1;
  for (const hit of hits) {
    const from = Math.max(0, hit - context, shownTo + 1);
    if (out.length && from > shownTo + 1) out.push("--");
    for (let i = from; i <= Math.min(snapshot.lines.length - 1, hit + context); i++) {
      out.push(`${String(i + 1).padStart(5)}${i === hit || hits.includes(i) ? ":" : "-"} ${snapshot.lines[i]}`);
      shownTo = i;
    }
  }
  const more = matches > hits.length ? `\n[${matches - hits.length} more matching lines not shown; narrow the pattern or page with start_line.]` : "";
  return { text: `${matches} matching line${matches === 1 ? "" : "s"}:\n${out.join("\n")}${more}`, matches };
}

function compile(pattern: string): RegExp {
  try {
    return new RegExp(pattern, "iu");
  } catch {
    return new RegExp(pattern.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "iu");
  }
}
