/**
 * REPLACE's indentation when SEARCH left indentation out.
 *
 * REPLACE is written verbatim: that is the rule the model is told. But a model that omits the
 * indentation in SEARCH (allowed) nearly always omits it in REPLACE too, and writing that at
 * column 0 silently breaks Python or YAML. So, only when the match needed left-out indentation
 * and REPLACE is less indented than the matched lines:
 * - every matched SEARCH line lacks the same leading whitespace, and REPLACE's shallowest line is
 *   as indented as SEARCH's: REPLACE was written in SEARCH's frame, so that whitespace is added
 *   to each of its non-blank lines (what Aider does for uniformly missing indentation);
 * - otherwise (SEARCH lines lack different amounts, or REPLACE sits at some third level) there is
 *   no safe guess: REPLACE stays as given and the lines less indented than the matched ones are
 *   reported, so the model can check and fix them.
 */
import { indentOf, isBlank } from "./text.js";

/** How REPLACE's indentation was handled. */
export type IndentFit =
  | { kind: "verbatim" }
  /** `added` was put in front of every non-blank REPLACE line. */
  | { kind: "reindented"; added: string }
  /**
   * Written verbatim, but these REPLACE lines (0-based) are less indented than the shallowest
   * matched line, whose indentation is `matchedIndent`.
   */
  | { kind: "under-indented"; lines: number[]; matchedIndent: string };

/** A SEARCH line and the file line it matched. */
export type MatchedPair = readonly [search: string, file: string];

/**
 * The REPLACE lines to write for a block whose SEARCH lines matched `pairs`, and how their
 * indentation was handled (see the module comment).
 */
export function fitReplaceIndent(pairs: readonly MatchedPair[], replace: readonly string[]): { lines: string[]; fit: IndentFit } {
  const verbatim = { lines: [...replace], fit: { kind: "verbatim" } as const };
  const matched = pairs.filter(([s]) => !isBlank(s));
  if (!matched.some(([s, f]) => indentOf(s) !== indentOf(f))) return verbatim;
  const written = replace.flatMap((line, i) => (isBlank(line) ? [] : [i]));
  if (written.length === 0) return verbatim;
  const shallowestFile = shallowest(matched.map(([, f]) => indentOf(f)));
  const replaceMin = minLength(written.map((i) => indentOf(replace[i]!)));
  if (replaceMin >= shallowestFile.length) return verbatim;
  const omitted = uniformOmission(matched);
  const searchMin = minLength(matched.map(([s]) => indentOf(s)));
  if (omitted !== undefined && replaceMin === searchMin) {
    return { lines: replace.map((l) => (isBlank(l) ? l : omitted + l)), fit: { kind: "reindented", added: omitted } };
  }
  const lines = written.filter((i) => indentOf(replace[i]!).length < shallowestFile.length);
  return { lines: [...replace], fit: { kind: "under-indented", lines, matchedIndent: shallowestFile } };
}

/**
 * The leading whitespace every SEARCH line left out of its file line's indentation (the file
 * line's indentation is that plus the SEARCH line's own), or undefined when the lines left out
 * different amounts or nothing.
 */
function uniformOmission(matched: readonly MatchedPair[]): string | undefined {
  let omitted: string | undefined;
  for (const [s, f] of matched) {
    const si = indentOf(s);
    const fi = indentOf(f);
    if (!fi.endsWith(si)) return undefined;
    const o = fi.slice(0, fi.length - si.length);
    if (omitted !== undefined && o !== omitted) return undefined;
    omitted = o;
  }
  return omitted === "" ? undefined : omitted;
}

/** The shortest of some indentation strings (the first of equals). */
function shallowest(indents: readonly string[]): string {
  return indents.reduce((a, b) => (b.length < a.length ? b : a));
}

function minLength(indents: readonly string[]): number {
  return shallowest(indents).length;
}

/** Indentation in words for messages: "4 spaces", "1 tab", or the characters quoted when mixed. */
export function describeIndent(indent: string): string {
  if (/^ +$/.test(indent)) return indent.length === 1 ? "1 space" : `${indent.length} spaces`;
  if (/^\t+$/.test(indent)) return indent.length === 1 ? "1 tab" : `${indent.length} tabs`;
  return JSON.stringify(indent);
}
