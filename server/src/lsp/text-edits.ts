/**
 * Minimal LSP TextEdits that turn one text into another, so an agent edit lands in the editor
 * as small changes (cursor, marks and folds survive; undo shows what changed), not a whole-buffer
 * replacement. The line diff is the bounded one of edits/: only the window where the texts differ
 * is split into lines, and a rewrite too costly to diff minimally becomes one larger edit rather
 * than seconds of blocking every request.
 */
import { TextDocument } from "vscode-languageserver-textdocument";
import type { TextEdit } from "vscode-languageserver/node.js";
import { textHunks } from "./text-hunks.js";

/** Edits that transform `oldText` into `newText`, in document order, non-overlapping. */
export function computeTextEdits(oldText: string, newText: string): TextEdit[] {
  if (oldText === newText) return [];
  const doc = TextDocument.create("file:///x", "plaintext", 0, oldText);
  return textHunks(oldText, newText, false).map((h) => ({ range: { start: doc.positionAt(h.start), end: doc.positionAt(h.end) }, newText: h.text }));
}

/** Applies TextEdits to a text (for verifying and for tests). */
export function applyTextEdits(text: string, edits: TextEdit[]): string {
  const doc = TextDocument.create("file:///x", "plaintext", 0, text);
  return TextDocument.applyEdits(doc, edits);
}
