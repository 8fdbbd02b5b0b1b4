/**
 * The edit_file engine: replace a target with a replacement at one location (or every location
 * with `allowMultiple`), or insert after a line.
 *
 * Fitting a replacement to the file, which a caller should know about:
 * - Line endings: the replacement's `\n` / `\r\n` are rewritten to the terminator of the line
 *   where the match starts (for a file without any terminator, the replacement is kept as given),
 *   so a CRLF file never gets bare `\n` lines and a mixed file keeps each region's style.
 * - Indentation: when a forgiving step matched whole lines whose indentation differs from the
 *   target's, the replacement is re-based into the file's frame by rebase-indent.ts (the routine
 *   every edit tool shares); when no re-basing is safe the edit is refused with the reason, never
 *   written with a broken structure. An indentation-sensitive file (Python) whose indentation
 *   structure was sound is also refused when the edit would leave it unsound.
 * - A leading BOM is never part of a match and is kept.
 */
import { numberList } from "./number-list.js";
import { findMatches, splitTarget, type ClosestRegion, type Match, type MatchStep } from "./matcher.js";
import { STEP_DESCRIPTIONS } from "./normalize.js";
import { indentNote, rebaseIndent } from "./rebase-indent.js";
import { EDIT_FILE_TERMS, type EditTerms } from "./edit-terms.js";
import {
  convertEol,
  detectEol,
  dominantEol,
  numberLines,
  restoreBom,
  splitBodies,
  splitLines,
  stripBom,
  type Eol,
} from "./text.js";

/** What to change. */
export interface EditRequest {
  /** The text to find (edit_file's `target_content`). Ignored when `insertLine` is set. */
  target: string;
  /** What to put in its place, or the text to insert. */
  replacement: string;
  /** Replace every match instead of refusing when there are several. */
  allowMultiple?: boolean;
  /** Insert `replacement` after this 1-based line instead (0 inserts at the top). */
  insertLine?: number;
  /** The calling tool's names for these fields, used in every message (edit_file's by default). */
  terms?: EditTerms;
}

/** The outcome of {@link editText}: the new text, or an error a model can act on. */
export type EditResult =
  | {
      ok: true;
      text: string;
      /** The match step that found the target, or `insert` for `insertLine`. */
      step: MatchStep | "insert";
      /** 1-based line, in the original text, where each replaced match (or the insert) starts. */
      replacedAt: number[];
      count: number;
      /** How the replacement's indentation was fitted to the file, in words, when it was. */
      indentNote?: string;
    }
  | { ok: false; error: string };

/** Lines of the closest region shown in a not-found error; more would flood the model. */
const MAX_SHOWN_LINES = 40;

/** Applies one edit_file request to a text. Pure: the text in, the new text (or an error) out. */
export function editText(text: string, request: EditRequest): EditResult {
  const { text: body, bom } = stripBom(text);
  const result =
    request.insertLine !== undefined ? insertAfter(body, request.insertLine, request.replacement, request.terms) : replace(body, request);
  return result.ok ? { ...result, text: restoreBom(result.text, bom) } : result;
}

function replace(body: string, request: EditRequest): EditResult {
  const terms = request.terms ?? EDIT_FILE_TERMS;
  if (request.target.length === 0) {
    return { ok: false, error: `${terms.target} is empty. Give the exact text to replace${terms.insertLine ? `, or use ${terms.insertLine} to insert text` : ""}.` };
  }
  const found = findMatches(body, request.target);
  if (!found.found) return { ok: false, error: notFoundMessage(found.closest, terms) };
  const { step, matches } = found;
  if (matches.length > 1 && !(request.allowMultiple && terms.multiple)) {
    const lines = numberList(matches.map((m) => m.startLine));
    const how = step === "exact" ? "" : ` (matched ${STEP_DESCRIPTIONS[step]})`;
    const remedy = terms.multiple
      ? `Include more surrounding lines so it matches exactly one, or set ${terms.multiple} to change all of them.`
      : `Add more surrounding lines to ${terms.target} so it matches exactly one place; to change several places, make one call for each.`;
    return { ok: false, error: `${terms.target} matches ${matches.length} locations${how}, starting at lines ${lines}. ${remedy}` };
  }
  // Plain `+` lets V8 build a rope instead of copying a large file for every edit; it is
  // flattened once, when the caller encodes it.
  let text = "";
  let done = 0;
  let indentNote: string | undefined;
  for (const m of matches) {
    const fitted = fitReplacement(body, m, step, request);
    if (!fitted.ok) return { ok: false, error: refusedMessage(fitted.reason, m, body, terms) };
    indentNote ??= fitted.note;
    text += body.slice(done, m.start) + fitted.text;
    done = m.end;
  }
  text += body.slice(done);
  return { ok: true, text, step, replacedAt: matches.map((m) => m.startLine), count: matches.length, ...(indentNote ? { indentNote } : {}) };
}

function notFoundMessage(closest: ClosestRegion | undefined, terms: EditTerms): string {
  const head =
    `${terms.target} was not found in the file (tried exact, ignoring trailing whitespace, ` +
    "ignoring leading and trailing whitespace, Unicode normalisation, and runs of spaces inside lines).";
  if (!closest) return `${head} Read the file again and copy the text exactly.`;
  const pct = Math.floor(closest.similarity * 100);
  return (
    `${head} The closest region is lines ${closest.startLine}-${closest.endLine} (${pct}% similar):\n` +
    `${shownRegion(closest.text.split("\n"), closest.startLine)}\n` +
    `Copy ${terms.target} from the file as it is (without the line numbers) and try again.`
  );
}

/** Why a match could not be written, with the matched region so the model can copy it. */
function refusedMessage(reason: string, m: Match, body: string, terms: EditTerms): string {
  const region = body.slice(m.start, m.end).split(/\r?\n/);
  if (region.at(-1) === "") region.pop();
  return (
    `Not changed: ${terms.target} matched lines ${m.startLine}-${m.endLine}, but ${reason.replace("the text to find", terms.target)}\n` +
    `The matched lines:\n${shownRegion(region, m.startLine)}`
  );
}

function shownRegion(lines: readonly string[], firstLine: number): string {
  const shown = lines.slice(0, MAX_SHOWN_LINES);
  const more = lines.length > shown.length ? `\n... (${lines.length - shown.length} more lines)` : "";
  return `${numberLines(shown, firstLine)}${more}`;
}

/** The terminator of the line holding `offset`, or undefined when the text has none at all. */
function eolAt(body: string, offset: number): Eol | undefined {
  const nl = body.indexOf("\n", offset);
  if (nl !== -1) return nl > 0 && body.charCodeAt(nl - 1) === 13 ? "\r\n" : "\n";
  return detectEol(body) === "none" ? undefined : dominantEol(body);
}

/** Shapes the replacement for one match: line endings, indentation, final line break. */
function fitReplacement(body: string, m: Match, step: MatchStep, request: EditRequest): { ok: true; text: string; note?: string } | { ok: false; reason: string } {
  let replacement = request.replacement;
  let note: string | undefined;
  if (step !== "exact") {
    const target = splitTarget(request.target);
    const region = body.slice(m.start, m.end);
    // The target ended with a line break but matched the file's last line, which has none:
    // keep the file without a final newline rather than add one the model did not mean to.
    if (target.endsWithNewline && !region.endsWith("\n") && /\r?\n$/.test(replacement)) {
      replacement = replacement.replace(/\r?\n$/, "");
    }
    if (m.wholeLines) {
      const fileLines = splitBodies(region);
      const rebased = rebaseIndent(target.lines.map((t, i) => [t, fileLines[i] ?? ""] as const), splitBodies(replacement));
      if (rebased.kind === "refused") return { ok: false, reason: rebased.reason };
      replacement = joinBodies(replacement, rebased.lines);
      note = indentNote(rebased);
    }
  }
  const eol = eolAt(body, m.start);
  return { ok: true, text: eol ? convertEol(replacement, eol) : replacement, ...(note ? { note } : {}) };
}

/** `bodies` joined with the terminators `original` had between its lines. */
function joinBodies(original: string, bodies: readonly string[]): string {
  const parts = original.split(/(\r?\n)/);
  return parts.map((p, i) => (i % 2 === 0 ? bodies[i / 2]! : p)).join("");
}

/** insert_line: puts `text` after 1-based line `after` (0 = top), as whole lines. */
function insertAfter(body: string, after: number, text: string, terms?: EditTerms): EditResult {
  const lines = splitLines(body);
  const count = lines.length;
  if (!Number.isInteger(after) || after < 0 || after > count) {
    return {
      ok: false,
      error: `${(terms ?? EDIT_FILE_TERMS).insertLine ?? "insert_line"} ${after} is out of range: the file has ${count} lines (use 0 to insert at the top, ${count} to append at the end).`,
    };
  }
  if (text.length === 0) return { ok: false, error: `${(terms ?? EDIT_FILE_TERMS).inserted} is empty: there is nothing to insert.` };
  const done: EditResult = { ok: true, text: "", step: "insert", replacedAt: [after + 1], count: 1 };
  if (count === 0) return { ...done, text };
  const eol = lines[after - 1]?.eol || lines[after]?.eol || dominantEol(body);
  const insert = convertEol(text, eol);
  const last = lines[count - 1]!;
  if (after === count && last.eol === "") {
    // Appending to a file without a final newline: break the last line, and keep the file
    // without a final newline afterwards.
    return { ...done, text: body + eol + insert.replace(/\r?\n$/, "") };
  }
  let offset = 0;
  for (let i = 0; i < after; i++) offset += lines[i]!.body.length + lines[i]!.eol.length;
  const block = insert.endsWith("\n") ? insert : insert + eol;
  return { ...done, text: body.slice(0, offset) + block + body.slice(offset) };
}
