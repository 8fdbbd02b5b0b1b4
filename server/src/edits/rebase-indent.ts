/**
 * One re-basing of indentation for every edit tool (edit_file, replace_in_file, the text
 * editor's str_replace, apply_patch's fuzzy steps): when the text a model gave to find matched
 * file lines only after its indentation was forgiven, the replacement was almost always written in
 * the same frame as that text, so it must be moved into the file's frame before it is written.
 *
 * - Same indentation: the replacement is written as given.
 * - One consistent offset (every given line lacks, or has in excess, the same leading whitespace):
 *   the replacement is shifted by that offset, its relative indentation kept. A replacement that is
 *   already at the file's depth (no shallower than the matched lines, when the given text was
 *   shallower) is left as written.
 * - The given text lost its relative indentation (the file's lines are at 0, 4 and 8; the given
 *   ones all at 0): when the replacement has the given text's shape (same number of lines, each as
 *   indented as its given line), each line takes its file line's indentation; when every
 *   indentation the replacement uses maps to exactly one file indentation, it is mapped. Anything
 *   else has no safe answer, and the edit is refused with a sentence saying why: writing it would
 *   change the block's structure in a way the input did not ask for.
 *
 * Pure: lines in (bodies, without terminators), lines or a refusal out.
 */
import { indentOf, isBlank } from "./text.js";

/** A given line and the file line it matched. */
export type IndentPair = readonly [given: string, file: string];

/** What {@link rebaseIndent} did. */
export type IndentRebase =
  | { kind: "verbatim"; lines: string[] }
  /** Every non-blank line got `added` in front, or lost `removed` from its front. */
  | { kind: "shifted"; lines: string[]; added?: string; removed?: string }
  /** Each line took the indentation of the file line it stands for. */
  | { kind: "mapped"; lines: string[] }
  | { kind: "refused"; reason: string };

/** The replacement `lines` moved into the frame of the file lines `pairs` matched. */
export function rebaseIndent(pairs: readonly IndentPair[], lines: readonly string[]): IndentRebase {
  const verbatim: IndentRebase = { kind: "verbatim", lines: [...lines] };
  const matched = pairs.filter(([g, f]) => !isBlank(g) && !isBlank(f));
  if (!matched.some(([g, f]) => indentOf(g) !== indentOf(f))) return verbatim;
  const written = lines.filter((l) => !isBlank(l));
  if (written.length === 0) return verbatim;
  const offset = uniformOffset(matched);
  if (offset) return shiftBy(offset, matched, lines);
  return mapByShape(pairs, lines) ?? mapByLevels(matched, lines) ?? { kind: "refused", reason: structureReason(matched) };
}

/** The one prefix every given line lacks (`add`) or has in excess (`remove`), if there is one. */
function uniformOffset(matched: readonly IndentPair[]): { add: string } | { remove: string } | undefined {
  let add: string | undefined;
  let remove: string | undefined;
  let canAdd = true;
  let canRemove = true;
  for (const [g, f] of matched) {
    const gi = indentOf(g);
    const fi = indentOf(f);
    const a = fi.endsWith(gi) ? fi.slice(0, fi.length - gi.length) : undefined;
    const r = gi.endsWith(fi) ? gi.slice(0, gi.length - fi.length) : undefined;
    if (a === undefined || (add !== undefined && a !== add)) canAdd = false;
    if (r === undefined || (remove !== undefined && r !== remove)) canRemove = false;
    add ??= a;
    remove ??= r;
  }
  if (canAdd && add) return { add };
  if (canRemove && remove) return { remove };
  return undefined;
}

function shiftBy(offset: { add: string } | { remove: string }, matched: readonly IndentPair[], lines: readonly string[]): IndentRebase {
  const replaceMin = minIndent(lines.filter((l) => !isBlank(l)));
  if ("add" in offset) {
    // Already at the file's depth: the model wrote the replacement in the file's frame.
    if (replaceMin >= minIndent(matched.map(([, f]) => f))) return { kind: "verbatim", lines: [...lines] };
    return { kind: "shifted", lines: lines.map((l) => (isBlank(l) ? l : offset.add + l)), added: offset.add };
  }
  // Shallower than the given text: written in the file's frame (or deliberately out of it).
  if (replaceMin < minIndent(matched.map(([g]) => g))) return { kind: "verbatim", lines: [...lines] };
  const cut = offset.remove;
  return { kind: "shifted", lines: lines.map((l) => (l.startsWith(cut) ? l.slice(cut.length) : l)), removed: cut };
}

/**
 * Same shape as the given text (as many lines, each as indented as its given line): each line
 * takes its file line's indentation plus whatever it has beyond the given line's.
 */
function mapByShape(pairs: readonly IndentPair[], lines: readonly string[]): IndentRebase | undefined {
  if (pairs.length !== lines.length) return undefined;
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const [g, f] = pairs[i]!;
    if (isBlank(line)) {
      out.push(line);
      continue;
    }
    if (isBlank(g) || indentOf(line) !== indentOf(g)) return undefined;
    out.push(indentOf(f) + line.slice(indentOf(g).length));
  }
  return { kind: "mapped", lines: out };
}

/**
 * Every indentation the given text uses stands for exactly one file indentation (and different
 * ones for different ones): the replacement's lines are mapped through that table, provided each
 * of them uses an indentation in it.
 */
function mapByLevels(matched: readonly IndentPair[], lines: readonly string[]): IndentRebase | undefined {
  const table = new Map<string, string>();
  const used = new Set<string>();
  for (const [g, f] of matched) {
    const gi = indentOf(g);
    const fi = indentOf(f);
    const known = table.get(gi);
    if (known !== undefined && known !== fi) return undefined;
    if (known === undefined && used.has(fi)) return undefined;
    table.set(gi, fi);
    used.add(fi);
  }
  const out: string[] = [];
  for (const line of lines) {
    if (isBlank(line)) {
      out.push(line);
      continue;
    }
    const to = table.get(indentOf(line));
    if (to === undefined) return undefined;
    out.push(to + line.slice(indentOf(line).length));
  }
  return { kind: "mapped", lines: out };
}

/** Why no re-basing is safe, with both indentations side by side. */
function structureReason(matched: readonly IndentPair[]): string {
  const shown = matched.slice(0, 6);
  const widths = (k: 0 | 1) => shown.map((p) => describeWidth(indentOf(p[k]))).join(", ");
  const more = matched.length > shown.length ? ", ..." : "";
  return (
    "the text to find matched only after its indentation was ignored, and its lines' indentation does not relate to the " +
    `file's by one offset (file: ${widths(1)}${more}; given: ${widths(0)}${more}), so the replacement's indentation cannot be ` +
    "fitted safely and writing it would change the block's structure. Copy the lines with the file's indentation, " +
    "and write the replacement with the indentation it should have in the file."
  );
}

function describeWidth(indent: string): string {
  if (indent === "") return "0";
  if (/^ +$/.test(indent)) return String(indent.length);
  if (/^\t+$/.test(indent)) return `${indent.length} tab${indent.length === 1 ? "" : "s"}`;
  return JSON.stringify(indent);
}

function minIndent(lines: readonly string[]): number {
  return lines.reduce((min, l) => Math.min(min, indentOf(l).length), Infinity);
}

/** Indentation in words for messages: "4 spaces", "1 tab", or the characters quoted when mixed. */
export function describeIndent(indent: string): string {
  if (/^ +$/.test(indent)) return indent.length === 1 ? "1 space" : `${indent.length} spaces`;
  if (/^\t+$/.test(indent)) return indent.length === 1 ? "1 tab" : `${indent.length} tabs`;
  return JSON.stringify(indent);
}

/** The result's words for a re-basing, or undefined when the replacement was written as given. */
export function indentNote(rebased: IndentRebase): string | undefined {
  if (rebased.kind === "shifted") {
    return rebased.added ? `re-indented by ${describeIndent(rebased.added)} to fit the file` : `outdented by ${describeIndent(rebased.removed!)} to fit the file`;
  }
  if (rebased.kind === "mapped") return "each line given the indentation of the file line it stands for";
  return undefined;
}
