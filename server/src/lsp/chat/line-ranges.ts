/**
 * The chat file's edits as LSP ranges every client takes. LSP counts the empty "line" after a
 * document's final line break as a line, Vim and its plugins do not: an edit that starts or ends
 * there (line N of an N-line buffer) is past the end for them (vim-lsp adds stray line breaks,
 * yegappan refuses it). So an edit reaching the end of a text that ends with a line break is
 * moved before that line break, which keeps the result the same. Pure.
 */
import type { RangeEdit } from "../../editor/document-host.js";
import type { OffsetEdit } from "./chat-layout.js";

/** The LSP form of offset edits of `text` (in document order), none past the last line. */
export function rangeEdits(text: string, edits: OffsetEdit[]): RangeEdit[] {
  const starts = lineStarts(text);
  const at = (offset: number) => {
    let line = 0;
    for (let lo = 0, hi = starts.length - 1; lo <= hi; ) {
      const mid = (lo + hi) >> 1;
      if (starts[mid]! <= offset) {
        line = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return { line, character: offset - starts[line]! };
  };
  return edits.map((edit) => {
    const e = beforeFinalBreak(text, edit);
    return { range: { start: at(e.start), end: at(e.end) }, newText: e.text };
  });
}

/**
 * The same replacement, not touching the position after the final line break: the final break
 * is left in place and the edit made just before it.
 */
function beforeFinalBreak(text: string, edit: OffsetEdit): OffsetEdit {
  const len = text.length;
  if (edit.end !== len || !text.endsWith("\n") || len === 0) return edit;
  const replaced = text.slice(edit.start, edit.end);
  if (replaced.endsWith("\n") && edit.text.endsWith("\n")) return { start: edit.start, end: len - 1, text: edit.text.slice(0, -1) };
  if (replaced === "" && edit.text.endsWith("\n")) return { start: len - 1, end: len - 1, text: `\n${edit.text.slice(0, -1)}` };
  if (replaced.endsWith("\n") && edit.text === "" && edit.start > 0 && text[edit.start - 1] === "\n") return { start: edit.start - 1, end: len - 1, text: "" };
  return edit;
}

/** The offset where each line starts. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  return starts;
}
