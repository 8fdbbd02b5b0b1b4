import { describe, expect, it } from "vitest";
import {
  BOM,
  convertEol,
  countLines,
  detectEol,
  dominantEol,
  hasBom,
  isAllCrlf,
  joinLines,
  lineEol,
  numberLines,
  restoreBom,
  settleLineEnds,
  splitLines,
  stripBom,
  type TextLine,
} from "../../../server/src/edits/text.js";

describe("BOM helpers", () => {
  it("detects, strips and restores a BOM", () => {
    expect(hasBom(`${BOM}abc`)).toBe(true);
    expect(hasBom("abc")).toBe(false);
    expect(stripBom(`${BOM}abc`)).toEqual({ text: "abc", bom: true });
    expect(stripBom("abc")).toEqual({ text: "abc", bom: false });
    expect(restoreBom("xyz", true)).toBe(`${BOM}xyz`);
    expect(restoreBom("xyz", false)).toBe("xyz");
    expect(restoreBom(`${BOM}xyz`, true)).toBe(`${BOM}xyz`);
  });
});

describe("line endings", () => {
  it.each([
    ["a\nb\n", "lf"],
    ["a\r\nb\r\n", "crlf"],
    ["a\r\nb\n", "mixed"],
    ["abc", "none"],
    ["", "none"],
    ["a\rb", "none"],
  ] as const)("detectEol(%j) is %s", (text, style) => {
    expect(detectEol(text)).toBe(style);
  });

  it.each(["a\nb\n", "a\r\nb\r\n", "a\r\nb\n", "a\nb\r\n", "\n", "\r\n", "abc", "", "a\rb", "a\r\nb"])(
    "isAllCrlf(%j) agrees with detectEol",
    (text) => {
      expect(isAllCrlf(text)).toBe(detectEol(text) === "crlf");
    },
  );

  it("picks the dominant terminator, LF on a tie or without any", () => {
    expect(dominantEol("a\r\nb\r\nc\n")).toBe("\r\n");
    expect(dominantEol("a\r\nb\n")).toBe("\n");
    expect(dominantEol("abc")).toBe("\n");
  });

  it("reports one line's terminator", () => {
    expect(lineEol("a\r\n")).toBe("\r\n");
    expect(lineEol("a\n")).toBe("\n");
    expect(lineEol("a")).toBe("");
  });

  it("converts all terminators", () => {
    expect(convertEol("a\nb\r\nc", "\r\n")).toBe("a\r\nb\r\nc");
    expect(convertEol("a\r\nb\nc", "\n")).toBe("a\nb\nc");
  });
});

describe("splitLines / joinLines", () => {
  it.each([
    ["", []],
    ["a", [{ body: "a", eol: "" }]],
    ["a\n", [{ body: "a", eol: "\n" }]],
    [
      "a\r\nb\nc",
      [
        { body: "a", eol: "\r\n" },
        { body: "b", eol: "\n" },
        { body: "c", eol: "" },
      ],
    ],
    ["\n\n", [{ body: "", eol: "\n" }, { body: "", eol: "\n" }]],
    ["a\rb\n", [{ body: "a\rb", eol: "\n" }]],
  ] as const)("splits %j keeping terminators and round-trips", (text, lines) => {
    expect(splitLines(text)).toEqual(lines);
    expect(joinLines(splitLines(text))).toBe(text);
  });

  it("counts lines as an editor numbers them", () => {
    expect(countLines("")).toBe(0);
    expect(countLines("a")).toBe(1);
    expect(countLines("a\n")).toBe(1);
    expect(countLines("a\nb")).toBe(2);
    expect(countLines("a\r\nb\r\n")).toBe(2);
  });
});

describe("settleLineEnds", () => {
  it("gives inner lines a terminator and sets the last one from finalNewline", () => {
    const lines: TextLine[] = [
      { body: "a", eol: "" },
      { body: "b", eol: "\r\n" },
    ];
    settleLineEnds(lines, false, "\r\n");
    expect(joinLines(lines)).toBe("a\r\nb");
    settleLineEnds(lines, true, "\n");
    expect(joinLines(lines)).toBe("a\r\nb\n");
  });
});

describe("numberLines", () => {
  it("right-aligns line numbers", () => {
    expect(numberLines(["x", "y"], 9)).toBe(" 9 | x\n10 | y");
  });
});
