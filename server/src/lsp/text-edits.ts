/**
 * Minimal LSP TextEdits that turn one text into another, so an agent edit lands in the editor
 * as small changes (cursor, marks and folds survive; undo shows what changed), not a whole-buffer
 * replacement. The line diff is the bounded one of edits/: only the window where the texts differ
 * is split into lines, and a rewrite too costly to diff minimally becomes one larger edit rather
 * than seconds of blocking every request.
 */
import { TextDocument } from "vscode-languageserver-textdocument";
import type { TextEdit } from "vscode-languageserver/node.js";
import { diffTexts } from "../edits/line-diff.js";

/** Edits that transform `oldText` into `newText`, in document order, non-overlapping. */
export function computeTextEdits(oldText: string, newText: string): TextEdit[] {
  if (oldText === newText) return [];
  const doc = TextDocument.create("file:///x", "plaintext", 0, oldText);
  const { window, a, b, ops } = diffTexts(oldText, newText, 0);
  const edits: TextEdit[] = [];
  let offset = window.start;
  let ai = 0;
  let bi = 0;
  let pending: { start: number; end: number; text: string } | undefined;
  const flush = () => {
    if (!pending) return;
    edits.push({ range: { start: doc.positionAt(pending.start), end: doc.positionAt(pending.end) }, newText: pending.text });
    pending = undefined;
  };
  for (const op of ops) {
    if (op.kind === "equal") {
      flush();
      for (let k = 0; k < op.count; k++) offset += a[ai + k]!.length;
      ai += op.count;
      bi += op.count;
      continue;
    }
    pending ??= { start: offset, end: offset, text: "" };
    if (op.kind === "removed") {
      for (let k = 0; k < op.count; k++) offset += a[ai + k]!.length;
      pending.end = offset;
      ai += op.count;
    } else {
      pending.text += b.slice(bi, bi + op.count).join("");
      bi += op.count;
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
