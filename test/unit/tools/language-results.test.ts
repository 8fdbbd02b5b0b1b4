/**
 * How the language tools read what the editor's servers answer: locations of every LSP shape,
 * outlines, hover contents, rename edits of both WorkspaceEdit forms, diagnostics.
 */
import { describe, expect, it } from "vitest";
import { diagnosticLines, diagnosticsOf, serversOf } from "../../../server/src/tools/language/diagnostics-format.js";
import { outlineLines } from "../../../server/src/tools/language/document-symbols.js";
import { hoverText } from "../../../server/src/tools/language/hover.js";
import { displayPath, placesOf } from "../../../server/src/tools/language/language-locations.js";
import { fileEditsOf } from "../../../server/src/tools/language/rename-symbol.js";

const range = (line: number, character: number) => ({ start: { line, character }, end: { line, character: character + 1 } });

describe("placesOf", () => {
  it.each([
    ["null", null, []],
    ["one Location", { uri: "file:///a", range: range(1, 2) }, [{ uri: "file:///a", line: 1, character: 2 }]],
    ["a Location list", [{ uri: "file:///a", range: range(0, 0) }, { uri: "file:///b", range: range(3, 4) }], [{ uri: "file:///a", line: 0, character: 0 }, { uri: "file:///b", line: 3, character: 4 }]],
    ["LocationLinks: the selection range", [{ targetUri: "file:///c", targetRange: range(9, 0), targetSelectionRange: range(10, 6) }], [{ uri: "file:///c", line: 10, character: 6 }]],
    ["malformed entries are left out", [{ uri: 3 }, { range: range(0, 0) }, "x", null], []],
    ["an empty object (a Lua empty table)", {}, []],
  ])("%s", (_name, result, expected) => {
    expect(placesOf(result)).toEqual(expected);
  });
});

describe("displayPath", () => {
  it.each([
    ["file:///work/app/src/a.ts", "src/a.ts"],
    ["file:///work/other/a.ts", "/work/other/a.ts"],
    ["untitled:Untitled-1", "untitled:Untitled-1"],
  ])("%s -> %s", (uri, shown) => {
    expect(displayPath("/work/app", uri)).toBe(shown);
  });
});

describe("outlineLines", () => {
  it("nests DocumentSymbols in position order", () => {
    const symbols = [
      { name: "b", kind: 12, range: range(9, 0), selectionRange: range(9, 9) },
      { name: "A", kind: 5, detail: "class", range: range(0, 0), selectionRange: range(0, 6), children: [{ name: "m", kind: 6, range: range(2, 2), selectionRange: range(2, 2) }] },
    ];
    expect(outlineLines(symbols)).toEqual(["1:7 class A class", "  3:3 method m", "10:10 function b"]);
  });

  it("reads SymbolInformation's location", () => {
    expect(outlineLines([{ name: "x", kind: 13, location: { range: range(4, 1) } }])).toEqual(["5:2 variable x"]);
  });
});

describe("hoverText", () => {
  it.each([
    ["a string", "plain", "plain"],
    ["MarkupContent", { kind: "markdown", value: "**bold**" }, "**bold**"],
    ["a MarkedString with a language", { language: "ts", value: "x: number" }, "```ts\nx: number\n```"],
    ["several servers' contents joined", [{ kind: "plaintext", value: "one" }, "two"], "one\n\ntwo"],
    ["nothing", null, ""],
  ])("%s", (_name, contents, text) => {
    expect(hoverText(contents)).toBe(text);
  });
});

describe("fileEditsOf", () => {
  const e = { range: range(0, 0), newText: "n" };
  it("reads `changes` and `documentChanges` alike, and a file rename as a move", () => {
    const edit = {
      changes: { "file:///a": [e] },
      documentChanges: [{ textDocument: { uri: "file:///b", version: 1 }, edits: [e, e] }, { kind: "rename", oldUri: "file:///b", newUri: "file:///c" }],
    };
    expect(fileEditsOf(edit)).toEqual([
      { uri: "file:///a", edits: [e] },
      { uri: "file:///b", edits: [e, e], moveTo: "file:///c" },
    ]);
  });

  it("refuses a rename that creates or deletes files", () => {
    expect(() => fileEditsOf({ documentChanges: [{ kind: "delete", uri: "file:///a" }] })).toThrow("rename would delete a file");
  });

  it("reads nothing from null", () => {
    expect(fileEditsOf(null)).toEqual([]);
  });
});

describe("diagnostics", () => {
  const d = (uri: string, line: number, severity: number | undefined, message: string, source?: string) => ({ uri, range: range(line, 0), severity, message, ...(source ? { source } : {}) });

  it("reads the answer's list (or a bare list) and how many servers are on the file", () => {
    expect(diagnosticsOf({ diagnostics: [d("file:///r/a", 0, 1, "x"), { message: "no uri" }], servers: 2 })).toEqual([d("file:///r/a", 0, 1, "x")]);
    expect(diagnosticsOf([d("file:///r/a", 0, 1, "x")])).toHaveLength(1);
    expect(diagnosticsOf({ diagnostics: {} })).toEqual([]);
    expect(serversOf({ diagnostics: [], servers: 0 })).toBe(0);
    expect(serversOf([])).toBeUndefined();
  });

  it("lists errors first, then by file and line, one line each, capped", () => {
    const list = [d("file:///r/b", 3, 2, "unused", "lint"), d("file:///r/b", 1, 1, "bad\n  type", "ts"), d("file:///r/a", 7, undefined, "no severity"), d("file:///r/a", 0, 2, "w")];
    expect(diagnosticLines("/r", list, 3)).toEqual(["a:8:1: error no severity", "b:2:1: error [ts] bad type", "a:1:1: warning w", "[... 1 more]"]);
  });
});
