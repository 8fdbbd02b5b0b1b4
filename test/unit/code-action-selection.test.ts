/** isSelection: which ranges of an automatic code-action request are a selection the user made. */
import { describe, expect, it } from "vitest";
import type { Range } from "vscode-languageserver/node.js";
import { isSelection } from "../../server/src/lsp/code-actions.js";

const at = (line: number, from: number, toLine: number, to: number): Range => ({ start: { line, character: from }, end: { line: toLine, character: to } });

describe("isSelection", () => {
  const text = "ab\n\n  \nxyz\n";
  it.each([
    ["an empty range", at(0, 1, 0, 1), false],
    ["one character", at(0, 0, 0, 1), false],
    ["a line break only", at(1, 0, 2, 0), false],
    ["blanks only", at(2, 0, 2, 2), false],
    ["two characters", at(0, 0, 0, 2), true],
    ["across lines", at(0, 1, 3, 1), true],
    ["a document it cannot read", at(0, 0, 0, 2), false],
  ])("%s", (name, range, expected) => {
    expect(isSelection(name === "a document it cannot read" ? undefined : text, range)).toBe(expected);
  });
});
