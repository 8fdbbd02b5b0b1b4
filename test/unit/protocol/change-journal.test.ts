/**
 * didChange notifications applied in version order whatever order they arrive in (Helix sends
 * each from a task of its own), with the edit tracker's watch seeing the reordered steps.
 */
import { TextDocument, type TextDocumentContentChangeEvent } from "vscode-languageserver-textdocument";
import { describe, expect, it } from "vitest";
import { ChangeJournal } from "../../../server/src/lsp/change-journal.js";

const URI = "file:///p/chat.md";

/** Typing `ch` at line 0, column `col` (as the editor computed it, in version order). */
function typed(col: number, ch: string): TextDocumentContentChangeEvent {
  return { range: { start: { line: 0, character: col }, end: { line: 0, character: col } }, text: ch };
}

/** The keystrokes of `word` after `prefix`, as didChanges with versions from `first`. */
function keystrokes(prefix: string, word: string, first: number): { version: number; changes: TextDocumentContentChangeEvent[] }[] {
  return [...word].map((ch, i) => ({ version: first + i, changes: [typed(prefix.length + i, ch)] }));
}

/** Applies the didChanges in the given order (indexes into `sent`). */
function deliver(initial: string, sent: { version: number; changes: TextDocumentContentChangeEvent[] }[], order: number[], journal = new ChangeJournal()): TextDocument {
  let doc = TextDocument.create(URI, "markdown", 1, initial);
  for (const i of order) doc = journal.apply(doc, sent[i]!.changes, sent[i]!.version);
  return doc;
}

describe("ChangeJournal", () => {
  // Typed inside "()", so a change applied too early lands in the wrong place instead of being
  // clamped to the end of the line (where a plain swap would happen to come out right).
  const sent = keystrokes("(", "math", 2);
  it.each([
    { name: "in order", order: [0, 1, 2, 3] },
    { name: "two swapped (Helix's burst)", order: [0, 2, 1, 3] },
    { name: "the last first", order: [3, 0, 1, 2] },
    { name: "reversed", order: [3, 2, 1, 0] },
    { name: "the first last", order: [1, 2, 3, 0] },
  ])("$name: the text is what the editor has, at the highest version", ({ order }) => {
    const doc = deliver("()", sent, order);
    expect(doc.getText()).toBe("(math)");
    expect(doc.version).toBe(5);
  });

  it("versions that skip numbers (Neovim's changedtick) reorder by value", () => {
    const gapped = sent.map((s, i) => ({ ...s, version: 10 + i * 3 }));
    expect(deliver("()", gapped, [1, 0, 3, 2]).getText()).toBe("(math)");
  });

  it("a late change that replaced text is undone and redone exactly", () => {
    const replace: TextDocumentContentChangeEvent = { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 3 } }, text: "one\ntwo" };
    const after = { range: { start: { line: 1, character: 3 }, end: { line: 1, character: 3 } }, text: "!" };
    const doc = deliver("abc def", [{ version: 2, changes: [replace] }, { version: 3, changes: [after] }], [1, 0]);
    expect(doc.getText()).toBe("one\ntwo! def");
  });

  it("a change older than a whole-text change cannot be placed: applied as it came, and said", () => {
    const warnings: string[] = [];
    const journal = new ChangeJournal((m) => warnings.push(m));
    const whole = { version: 3, changes: [{ text: "fresh" }] };
    const late = { version: 2, changes: [typed(0, "x")] };
    const doc = deliver("", [whole, late], [0, 1], journal);
    expect(doc.getText()).toBe("xfresh");
    expect(warnings.join()).toMatch(/version 2 .* after version 3/);
  });

  it("the watch sees each step of the reordered sequence and the end", () => {
    const journal = new ChangeJournal();
    let doc = TextDocument.create(URI, "markdown", 1, "()");
    doc = journal.apply(doc, sent[0]!.changes, 2);
    doc = journal.apply(doc, sent[2]!.changes, 4);
    const steps: string[] = [];
    let ended = "";
    journal.apply(doc, sent[1]!.changes, 3, { step: (t) => steps.push(t), end: (d) => (ended = d.getText()) });
    expect(steps).toEqual(["(ma)", "(mat)"]);
    expect(ended).toBe("(mat)");
  });

  it("a closed document's journal is forgotten: a reopened one starts afresh", () => {
    const journal = new ChangeJournal();
    deliver("()", sent, [0, 1], journal);
    journal.forget(URI);
    const doc = deliver("", keystrokes("", "ab", 2), [1, 0], journal);
    expect(doc.getText()).toBe("ab");
  });
});
