/** Edits addressed by LSP positions, as a language server's rename answers: applied all or none. */
import { describe, expect, it } from "vitest";
import { applyPositionEdits, type PositionEdit } from "../../../server/src/edits/position-edits.js";

const edit = (line: number, from: number, to: number, newText: string, endLine = line): PositionEdit => ({
  range: { start: { line, character: from }, end: { line: endLine, character: to } },
  newText,
});

describe("applyPositionEdits", () => {
  it.each([
    ["one replacement", "let a = a;\n", [edit(0, 4, 5, "b")], "let b = a;\n"],
    ["several on one line, given in any order", "a + a\n", [edit(0, 4, 5, "bb"), edit(0, 0, 1, "bb")], "bb + bb\n"],
    ["across lines", "one\ntwo\nthree\n", [edit(0, 1, 2, "X", 2)], "oXree\n"],
    ["CRLF lines keep their endings", "a\r\nb a\r\n", [edit(1, 2, 3, "z"), edit(0, 0, 1, "z")], "z\r\nb z\r\n"],
    ["an insert at the end of a line", "ab\ncd", [edit(0, 2, 2, "!"), edit(1, 2, 2, "?")], "ab!\ncd?"],
    ["UTF-16 positions past a surrogate pair", "😀x = x\n", [edit(0, 2, 3, "y"), edit(0, 6, 7, "y")], "😀y = y\n"],
    ["no edits", "same\n", [], "same\n"],
  ])("%s", (_name, text, edits, expected) => {
    expect(applyPositionEdits(text as string, edits as PositionEdit[])).toEqual({ ok: true, text: expected });
  });

  it.each([
    ["a line past the end", "a\n", [edit(5, 0, 1, "b")], "the edit at line 6, character 1 does not fit the file"],
    ["a character past the line's end", "abc\nd\n", [edit(0, 2, 9, "b")], "the edit at line 1, character 3 does not fit the file"],
    ["a character into the CR of a CRLF", "ab\r\n", [edit(0, 3, 3, "x")], "the edit at line 1, character 4 does not fit the file"],
    ["an end before its start", "abc\n", [edit(0, 2, 1, "x")], "the edit at line 1, character 3 does not fit the file"],
    ["overlapping edits", "abcdef\n", [edit(0, 0, 3, "x"), edit(0, 2, 4, "y")], "the server's edits overlap"],
  ])("refuses %s", (_name, text, edits, error) => {
    expect(applyPositionEdits(text as string, edits as PositionEdit[])).toEqual({ ok: false, error });
  });
});
