/**
 * The lines an editor range covers, as the prompt names them: a whole-line selection (Helix's
 * `x`, which ends at column 0 of the next line) is that one line, not two.
 */
import { describe, expect, it } from "vitest";
import { lineSpan } from "../../../server/src/agent/turn/prompt-content.js";

const at = (line: number, character: number) => ({ line, character });

describe("lineSpan", () => {
  it.each([
    ["a cursor", { start: at(0, 3), end: at(0, 3) }, "line 1"],
    ["line 1 selected whole (x)", { start: at(0, 0), end: at(1, 0) }, "line 1"],
    ["lines 2-3 selected whole", { start: at(1, 0), end: at(3, 0) }, "lines 2-3"],
    ["a selection ending inside line 3", { start: at(1, 2), end: at(2, 10) }, "lines 2-3"],
    ["a selection ending at column 0 of the same line", { start: at(4, 0), end: at(4, 0) }, "line 5"],
  ])("%s", (_name, range, expected) => {
    expect(lineSpan(range)).toBe(expected);
  });
});
