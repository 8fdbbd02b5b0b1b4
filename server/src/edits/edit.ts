/**
 * The edit_file engine: replace a target with a replacement at one location (or every location
 * with `allowMultiple`), or insert after a line.
 *
 * Fitting a replacement to the file, which a caller should know about:
 * - Line endings: the replacement's `\n` / `\r\n` are rewritten to the terminator of the line
 *   where the match starts (for a file without any terminator, the replacement is kept as given),
 *   so a CRLF file never gets bare `\n` lines and a mixed file keeps each region's style.
 * - Indentation: when the `trim` or `unicode` step matched whole lines and the target's lines were
 *   indented consistently less (or more) than the file's, the same indentation difference is
 *   applied to the replacement's non-blank lines. A model that wrote the target without the
 *   enclosing indentation nearly always wrote the replacement the same way, and pasting it at
 *   column 0 would break Python or YAML. When the difference is not one consistent prefix, the
 *   replacement is written exactly as given.
 * - A leading BOM is never part of a match and is kept.
 */
import { findMatches, splitTarget, type Match, type MatchStep } from "./matcher.js";
import { STEP_DESCRIPTIONS } from "./normalize.js";
import {
  convertEol,
  detectEol,
  dominantEol,
  indentOf,
  isBlank,
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
    }
  | { ok: false; error: string };

/** Lines of the closest region shown in a not-found error; more would flood the model. */
const MAX_SHOWN_LINES = 40;

/** Applies one edit_file request to a text. Pure: the text in, the new text (or an error) out. */
export function editText(text: string, request: EditRequest): EditResult {
  const { text: body, bom } = stripBom(text);
  const result =
    request.insertLine !== undefined ? insertAfter(body, request.insertLine, request.replacement) : replace(body, request);
  return result.ok ? { ...result, text: restoreBom(result.text, bom) } : result;
}

function replace(body: string, request: EditRequest): EditResult {
  if (request.target.length === 0) {
    return { ok: false, error: "target_content is empty. Give the exact text to replace, or use insert_line to insert text." };
  }
  const found = findMatches(body, request.target);
  if (!found.found) return { ok: false, error: notFoundMessage(found.closest) };
  const { step, matches } = found;
  if (matches.length > 1 && !request.allowMultiple) {
    const lines = matches.map((m) => m.startLine).join(", ");
    const how = step === "exact" ? "" : ` (matched ${STEP_DESCRIPTIONS[step]})`;
    return {
      ok: false,
      error:
        `target_content matches ${matches.length} locations${how}, starting at lines ${lines}. ` +
        "Include more surrounding lines so it matches exactly one, or set allow_multiple to change all of them.",
    };
  }
  // Plain `+` lets V8 build a rope instead of copying a large file for every edit; it is
  // flattened once, when the caller encodes it.
  let text = "";
  let done = 0;
  for (const m of matches) {
    text += body.slice(done, m.start) + fitReplacement(body, m, step, request);
    done = m.end;
  }
  text += body.slice(done);
  return { ok: true, text, step, replacedAt: matches.map((m) => m.startLine), count: matches.length };
}

function notFoundMessage(closest: { startLine: number; endLine: number; text: string; similarity: number } | undefined): string {
  const head =
    "target_content was not found in the file (tried exact, ignoring trailing whitespace, " +
    "ignoring leading and trailing whitespace, and Unicode normalisation).";
  if (!closest) return `${head} Read the file again and copy the text exactly.`;
  const lines = closest.text.split("\n");
  const shown = lines.slice(0, MAX_SHOWN_LINES);
  const more = lines.length > shown.length ? `\n... (${lines.length - shown.length} more lines)` : "";
  const pct = Math.round(closest.similarity * 100);
  return (
    `${head} The closest region is lines ${closest.startLine}-${closest.endLine} (${pct}% similar):\n` +
    `${numberLines(shown, closest.startLine)}${more}\n` +
    "Copy target_content from the file as it is (without the line numbers) and try again."
  );
}

/** The terminator of the line holding `offset`, or undefined when the text has none at all. */
function eolAt(body: string, offset: number): Eol | undefined {
  const nl = body.indexOf("\n", offset);
  if (nl !== -1) return nl > 0 && body.charCodeAt(nl - 1) === 13 ? "\r\n" : "\n";
  return detectEol(body) === "none" ? undefined : dominantEol(body);
}

/** Shapes the replacement for one match: line endings, indentation, final line break. */
function fitReplacement(body: string, m: Match, step: MatchStep, request: EditRequest): string {
  let replacement = request.replacement;
  if (step !== "exact") {
    const target = splitTarget(request.target);
    const region = body.slice(m.start, m.end);
    // The target ended with a line break but matched the file's last line, which has none:
    // keep the file without a final newline rather than add one the model did not mean to.
    if (target.endsWithNewline && !region.endsWith("\n") && /\r?\n$/.test(replacement)) {
      replacement = replacement.replace(/\r?\n$/, "");
    }
    if (m.wholeLines && (step === "trim" || step === "unicode")) {
      replacement = reindent(replacement, splitBodies(region), target.lines);
    }
  }
  const eol = eolAt(body, m.start);
  return eol ? convertEol(replacement, eol) : replacement;
}

/**
 * Applies the indentation difference between the matched file lines and the target's lines to
 * the replacement, when that difference is one consistent prefix (see the module comment).
 */
function reindent(replacement: string, fileLines: readonly string[], targetLines: readonly string[]): string {
  let added: string | undefined;
  let removed: string | undefined;
  let consistentAdd = true;
  let consistentRemove = true;
  for (let j = 0; j < Math.min(fileLines.length, targetLines.length); j++) {
    if (isBlank(fileLines[j]!) || isBlank(targetLines[j]!)) continue;
    const f = indentOf(fileLines[j]!);
    const t = indentOf(targetLines[j]!);
    const add = f.endsWith(t) ? f.slice(0, f.length - t.length) : undefined;
    const rem = t.endsWith(f) ? t.slice(0, t.length - f.length) : undefined;
    if (add === undefined || (added !== undefined && add !== added)) consistentAdd = false;
    if (rem === undefined || (removed !== undefined && rem !== removed)) consistentRemove = false;
    added ??= add;
    removed ??= rem;
  }
  const lines = replacement.split(/(\r?\n)/);
  // Odd indexes are the captured terminators; only bodies are touched.
  if (consistentAdd && added) {
    return lines.map((l, i) => (i % 2 === 0 && !isBlank(l) ? added + l : l)).join("");
  }
  if (consistentRemove && removed) {
    return lines.map((l, i) => (i % 2 === 0 && l.startsWith(removed) ? l.slice(removed.length) : l)).join("");
  }
  return replacement;
}

/** insert_line: puts `text` after 1-based line `after` (0 = top), as whole lines. */
function insertAfter(body: string, after: number, text: string): EditResult {
  const lines = splitLines(body);
  const count = lines.length;
  if (!Number.isInteger(after) || after < 0 || after > count) {
    return {
      ok: false,
      error: `insert_line ${after} is out of range: the file has ${count} lines (use 0 to insert at the top, ${count} to append at the end).`,
    };
  }
  if (text.length === 0) return { ok: false, error: "replacement_content is empty: there is nothing to insert." };
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
