/**
 * Edits addressed by LSP positions (0-based line, UTF-16 character: JavaScript string indices)
 * applied to a text: what a language server's rename answers with. Pure; the edits must not
 * overlap, as LSP requires, and a position past the end of its line or of the text is refused
 * rather than clamped (it means the server saw another version of the file).
 */

/** A 0-based position. */
export interface TextPosition {
  line: number;
  character: number;
}

/** One replacement. */
export interface PositionEdit {
  range: { start: TextPosition; end: TextPosition };
  newText: string;
}

/** The result: the new text, or why the edits do not fit the text. */
export type PositionEditResult = { ok: true; text: string } | { ok: false; error: string };

/** Offsets of each line's start; a line ends at its `\n` (a `\r` before it belongs to the line's end). */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  return starts;
}

/** The offset of `pos`, or undefined when the position is not in the text. */
export function offsetOf(text: string, starts: number[], pos: TextPosition): number | undefined {
  const start = starts[pos.line];
  if (start === undefined || pos.character < 0) return undefined;
  const next = starts[pos.line + 1];
  let end = next === undefined ? text.length : next - 1;
  if (end > start && text[end - 1] === "\r") end--;
  return start + pos.character <= end ? start + pos.character : undefined;
}

/** Applies `edits` to `text`, all or none. */
export function applyPositionEdits(text: string, edits: readonly PositionEdit[]): PositionEditResult {
  const starts = lineStarts(text);
  const spans: { from: number; to: number; text: string }[] = [];
  for (const e of edits) {
    const from = offsetOf(text, starts, e.range.start);
    const to = offsetOf(text, starts, e.range.end);
    if (from === undefined || to === undefined || to < from) {
      return { ok: false, error: `the edit at line ${e.range.start.line + 1}, character ${e.range.start.character + 1} does not fit the file` };
    }
    spans.push({ from, to, text: e.newText });
  }
  // Stable sort: inserts at one offset keep the server's order.
  spans.sort((a, b) => a.from - b.from || a.to - b.to);
  for (let i = 1; i < spans.length; i++) {
    if (spans[i]!.from < spans[i - 1]!.to) return { ok: false, error: "the server's edits overlap" };
  }
  let out = "";
  let at = 0;
  for (const s of spans) {
    out += text.slice(at, s.from) + s.text;
    at = s.to;
  }
  return { ok: true, text: out + text.slice(at) };
}
