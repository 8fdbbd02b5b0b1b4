/**
 * Where one text differs from another, as replacements of the old text's character ranges: the
 * line diff of edits/ finds the changed lines (runs of whole lines), which can be narrowed to the
 * characters that differ. Pure.
 */
import { diffTexts } from "../edits/line-diff.js";

/** `text` replaces the old text's characters [start, end). */
export interface Hunk {
  start: number;
  end: number;
  text: string;
}

/**
 * The hunks that turn `oldText` into `newText`, in document order, not overlapping: runs of
 * whole lines, or (`narrow`) only the characters that differ in them.
 */
export function textHunks(oldText: string, newText: string, narrowed = true): Hunk[] {
  if (oldText === newText) return [];
  const { window, a, b, ops } = diffTexts(oldText, newText, 0);
  const hunks: Hunk[] = [];
  let offset = window.start;
  let ai = 0;
  let bi = 0;
  let open: Hunk | undefined;
  const close = () => {
    if (open) hunks.push(narrowed ? narrow(open, oldText) : open);
    open = undefined;
  };
  for (const op of ops) {
    if (op.kind === "equal") {
      close();
      for (let k = 0; k < op.count; k++) offset += a[ai + k]!.length;
      ai += op.count;
      bi += op.count;
      continue;
    }
    open ??= { start: offset, end: offset, text: "" };
    if (op.kind === "removed") {
      for (let k = 0; k < op.count; k++) offset += a[ai + k]!.length;
      open.end = offset;
      ai += op.count;
    } else {
      open.text += b.slice(bi, bi + op.count).join("");
      bi += op.count;
    }
  }
  close();
  return hunks;
}

/** Trims the characters a hunk keeps at its start and end (a letter typed inside a line). */
function narrow(hunk: Hunk, oldText: string): Hunk {
  const old = oldText.slice(hunk.start, hunk.end);
  let head = 0;
  const max = Math.min(old.length, hunk.text.length);
  while (head < max && old.charCodeAt(head) === hunk.text.charCodeAt(head)) head++;
  let tail = 0;
  while (tail < max - head && old.charCodeAt(old.length - 1 - tail) === hunk.text.charCodeAt(hunk.text.length - 1 - tail)) tail++;
  return { start: hunk.start + head, end: hunk.end - tail, text: hunk.text.slice(head, hunk.text.length - tail) };
}
