/**
 * Line-ending and BOM helpers shared by every text engine in edits/.
 *
 * The engines work on lines: a line is its body plus its own terminator, so a file with mixed
 * endings comes back out byte for byte except where it was edited. Only `\n` and `\r\n` end a line;
 * a lone `\r` is ordinary text (classic Mac files are rare enough that treating `\r` as a line break
 * would do more harm, splitting lines of files that merely contain a stray carriage return).
 */

/** The UTF-8 byte order mark as it appears in a decoded JS string. */
export const BOM = "\uFEFF";

/** A line terminator: `\n`, `\r\n`, or none (the last line of a file without a final newline). */
export type Eol = "\n" | "\r\n";

/** The line-ending style of a whole text. `none` means the text has no line terminator at all. */
export type EolStyle = "lf" | "crlf" | "mixed" | "none";

/** One line of a text: its body (without terminator) and the terminator it had. */
export interface TextLine {
  body: string;
  eol: Eol | "";
}

/** True when the text starts with a byte order mark. */
export function hasBom(text: string): boolean {
  return text.charCodeAt(0) === 0xfeff;
}

/**
 * Removes a leading BOM so the engines never match, replace or delete it by accident (a fuzzy
 * whole-line match of line 1 would otherwise swallow it). Pair with {@link restoreBom}.
 */
export function stripBom(text: string): { text: string; bom: boolean } {
  return hasBom(text) ? { text: text.slice(1), bom: true } : { text, bom: false };
}

/** Puts a BOM back in front of `text` when the original had one (and `text` does not already). */
export function restoreBom(text: string, bom: boolean): string {
  return bom && !hasBom(text) ? BOM + text : text;
}

/** Counts `\n` and `\r\n` terminators in one pass. */
function countTerminators(text: string): { lf: number; crlf: number } {
  let lf = 0;
  let crlf = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) {
    if (i > 0 && text.charCodeAt(i - 1) === 13) crlf++;
    else lf++;
  }
  return { lf, crlf };
}

/** The line-ending style of a text: all `\n`, all `\r\n`, both, or no terminator at all. */
export function detectEol(text: string): EolStyle {
  const { lf, crlf } = countTerminators(text);
  if (lf === 0 && crlf === 0) return "none";
  if (crlf === 0) return "lf";
  if (lf === 0) return "crlf";
  return "mixed";
}

/**
 * True when the text has line terminators and every one is `\r\n`: the same as
 * `detectEol(text) === "crlf"`, but it stops at the first bare `\n`, so an LF file (the usual
 * case) is decided on its first line instead of a pass over the whole file.
 */
export function isAllCrlf(text: string): boolean {
  let seen = false;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) {
    if (i === 0 || text.charCodeAt(i - 1) !== 13) return false;
    seen = true;
  }
  return seen;
}

/**
 * The terminator new lines should get in this text: the more frequent one, `\n` on a tie or when
 * the text has none (the conventional choice for a new or one-line file).
 */
export function dominantEol(text: string): Eol {
  const { lf, crlf } = countTerminators(text);
  return crlf > lf ? "\r\n" : "\n";
}

/** The terminator at the end of one line string (`"a\r\n"` gives `\r\n`, `"a"` gives `""`). */
export function lineEol(line: string): Eol | "" {
  if (line.endsWith("\r\n")) return "\r\n";
  if (line.endsWith("\n")) return "\n";
  return "";
}

/**
 * Splits a text into lines, each keeping its own terminator. A text ending in a terminator has no
 * empty last line (`"a\n"` is one line), and the empty text has no lines at all, so the number of
 * lines matches what an editor shows as numbered lines.
 */
export function splitLines(text: string): TextLine[] {
  const lines: TextLine[] = [];
  let start = 0;
  while (start < text.length) {
    const nl = text.indexOf("\n", start);
    if (nl === -1) {
      lines.push({ body: text.slice(start), eol: "" });
      break;
    }
    const cr = nl > start && text.charCodeAt(nl - 1) === 13;
    lines.push({ body: text.slice(start, cr ? nl - 1 : nl), eol: cr ? "\r\n" : "\n" });
    start = nl + 1;
  }
  return lines;
}

/** Joins lines back into text; the inverse of {@link splitLines}. */
export function joinLines(lines: readonly TextLine[]): string {
  let out = "";
  for (const line of lines) out += line.body + line.eol;
  return out;
}

/**
 * Splits text that came from a model (a replacement, a SEARCH block, a patch) into line bodies.
 * Unlike {@link splitLines} the terminators are dropped: the engines give such lines the file's
 * own line ending, so a CRLF file never gets bare `\n` lines from a replacement.
 */
export function splitBodies(text: string): string[] {
  return text.split(/\r?\n/);
}

/** Rewrites every `\n` / `\r\n` in `text` to `eol`. */
export function convertEol(text: string, eol: Eol): string {
  return text.replace(/\r?\n/g, eol);
}

/** True when the text ends with a line terminator. */
export function hasFinalNewline(text: string): boolean {
  return text.endsWith("\n");
}

/** Number of lines as an editor numbers them: `""` has 0, `"a"` and `"a\n"` have 1. */
export function countLines(text: string): number {
  if (text.length === 0) return 0;
  let n = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
  return hasFinalNewline(text) ? n : n + 1;
}

/**
 * Restores the invariants of a line array after lines were spliced in or out: every line but the
 * last has a terminator (new ones get `defaultEol`), and the last has one exactly when
 * `finalNewline` says so. This is how the engines keep a file's trailing newline (or its absence)
 * no matter which lines were edited.
 */
export function settleLineEnds(lines: TextLine[], finalNewline: boolean, defaultEol: Eol): void {
  const last = lines.length - 1;
  for (let i = 0; i < last; i++) {
    if (lines[i]!.eol === "") lines[i] = { body: lines[i]!.body, eol: defaultEol };
  }
  if (last < 0) return;
  const tail = lines[last]!;
  if (!finalNewline && tail.eol !== "") lines[last] = { body: tail.body, eol: "" };
  if (finalNewline && tail.eol === "") lines[last] = { body: tail.body, eol: defaultEol };
}

/** The leading whitespace of a line (its indentation). */
export function indentOf(line: string): string {
  const m = /^[ \t]*/.exec(line);
  return m ? m[0] : "";
}

/** True when the line is empty or whitespace only. */
export function isBlank(line: string): boolean {
  return line.trim().length === 0;
}

/** Formats lines with right-aligned 1-based numbers, as the tools show file excerpts. */
export function numberLines(bodies: readonly string[], firstLine: number): string {
  const width = String(firstLine + bodies.length - 1).length;
  return bodies.map((b, i) => `${String(firstLine + i).padStart(width)} | ${b}`).join("\n");
}
