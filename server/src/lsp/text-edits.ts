/**
 * Minimal LSP TextEdits that turn one text into another, so an agent edit lands in the editor
 * as small changes (cursor, marks and folds survive; undo shows what changed), not a whole-buffer
 * replacement.
 */
import { diffLines } from "diff";
import { TextDocument } from "vscode-languageserver-textdocument";
import type { TextEdit } from "vscode-languageserver/node.js";

/** Edits that transform `oldText` into `newText`, in document order, non-overlapping. */
export function computeTextEdits(oldText: string, newText: string): TextEdit[] {
  if (oldText === newText) return [];
  const doc = TextDocument.create("file:///x", "plaintext", 0, oldText);
  const edits: TextEdit[] = [];
  let offset = 0;
  let pending: { start: number; end: number; text: string } | undefined;
  const flush = () => {
    if (!pending) return;
    edits.push({ range: { start: doc.positionAt(pending.start), end: doc.positionAt(pending.end) }, newText: pending.text });
    pending = undefined;
  };
  for (const change of diffLines(oldText, newText)) {
    if (change.removed) {
      pending ??= { start: offset, end: offset, text: "" };
      pending.end = offset + change.value.length;
      offset += change.value.length;
    } else if (change.added) {
      pending ??= { start: offset, end: offset, text: "" };
      pending.text += change.value;
    } else {
      flush();
      offset += change.value.length;
    }
  }
  flush();
  return edits;
}

/** Applies TextEdits to a text (for verifying and for tests). */
export function applyTextEdits(text: string, edits: TextEdit[]): string {
  const doc = TextDocument.create("file:///x", "plaintext", 0, text);
  return TextDocument.applyEdits(doc, edits);
}
