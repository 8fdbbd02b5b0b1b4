import { describe, expect, it } from "vitest";
import { applySearchReplace, parseSearchReplace, type SearchReplaceResult } from "../../../server/src/edits/search-replace.js";

/** Builds a diff of blocks in the current style. */
function block(search: string[], replace: string[]): string {
  return ["------- SEARCH", ...search, "=======", ...replace, "+++++++ REPLACE"].join("\n");
}

function ok(result: SearchReplaceResult) {
  if (!result.ok) throw new Error(`expected success, got: ${result.error}`);
  return result;
}

function err(result: SearchReplaceResult): string {
  if (result.ok) throw new Error(`expected an error, got text ${JSON.stringify(result.text)}`);
  return result.error;
}

const PY = ["def f(x):", "    y = x + 1", "    z = y * 2", "    return z", "", "def g():", "    pass", ""].join("\n");

describe("replace_in_file matching rules", () => {
  it.each([
    {
      name: "SEARCH lines that are whole file lines",
      search: ["    y = x + 1", "    z = y * 2"],
      replace: ["    y = x - 1"],
      out: PY.replace("    y = x + 1\n    z = y * 2\n", "    y = x - 1\n"),
      range: [2, 3],
    },
    {
      name: "SEARCH lines that are the beginning of file lines; matched lines are replaced in full",
      search: ["    y = x", "    z ="],
      replace: ["    q = 0"],
      out: PY.replace("    y = x + 1\n    z = y * 2\n", "    q = 0\n"),
      range: [2, 3],
    },
    {
      name: "leading indentation omitted in SEARCH but given in REPLACE; REPLACE is written verbatim",
      search: ["y = x + 1", "z = y"],
      replace: ["    y = 5"],
      out: PY.replace("    y = x + 1\n    z = y * 2\n", "    y = 5\n"),
      range: [2, 3],
    },
    {
      name: "a SEARCH line differing from a whole line only by trailing whitespace",
      search: ["    return z   "],
      replace: ["    return -z"],
      out: PY.replace("    return z\n", "    return -z\n"),
      range: [4, 4],
    },
    {
      name: "an empty REPLACE deletes the matched lines",
      search: ["def g():", "pass"],
      replace: [],
      out: PY.replace("def g():\n    pass\n", ""),
      range: [6, 7],
    },
  ])("$name", ({ search, replace, out, range }) => {
    const r = ok(applySearchReplace(PY, block(search, replace)));
    expect(r.text).toBe(out);
    expect(r.blocks).toEqual([{ block: 1, startLine: range[0], endLine: range[1], skipped: 0, replacementLines: replace.length }]);
  });

  it("never matches from the middle of a line", () => {
    const e = err(applySearchReplace(PY, block(["x + 1"], ["x"])));
    expect(e).toMatch(/^Block 1: SEARCH was not found\. Each SEARCH line must be a whole file line or the beginning of one/);
  });

  it("takes indentation, when given, as the file line's own", () => {
    const text = "if a:\n    go()\nif b:\n  go()\n";
    const r = ok(applySearchReplace(text, block(["  go()"], ["  stop()"])));
    expect(r.text).toBe("if a:\n    go()\nif b:\n  stop()\n");
    expect(r.blocks[0]).toMatchObject({ startLine: 4, endLine: 4 });
  });

  it("falls back to ignoring indentation when nothing matches with it", () => {
    const r = ok(applySearchReplace("if a:\n    go()\n", block(["  go()"], ["    stop()"])));
    expect(r.text).toBe("if a:\n    stop()\n");
  });

  it("matches a blank SEARCH line only against a blank file line", () => {
    const text = "a\nb\n\nc\na\n   \nc\n";
    const r = ok(applySearchReplace(text, block(["a", "", "c"], ["A"])));
    expect(r.text).toBe("a\nb\n\nc\nA\n");
    expect(r.blocks[0]).toMatchObject({ startLine: 5, endLine: 7 });
  });

  it("rejects a block that matches several locations, listing them", () => {
    const text = "x = 1\nfoo()\ny = 2\n  foo()\nfoo(bar)\n";
    expect(err(applySearchReplace(text, block(["foo("], ["baz()"])))).toBe(
      "Block 1: SEARCH matches 3 locations (starting at lines 2, 4, 5); it must match exactly one. Add lines before or after to make it unique.",
    );
  });
});

const CLS = ["class A:", "    def f(self):", "        x = 1", "        return x", "", "    def g(self):", "        pass", ""].join("\n");

describe("replace_in_file: REPLACE's indentation when SEARCH left it out", () => {
  it.each([
    {
      name: "SEARCH and REPLACE both lack one uniform amount: it is added to each non-blank REPLACE line",
      search: ["def f(self):", "    x = 1"],
      replace: ["def f(self):", "    x = 2", "", "    y = 3"],
      text: CLS.replace("    def f(self):\n        x = 1\n", "    def f(self):\n        x = 2\n\n        y = 3\n"),
      reindented: "    ",
    },
    {
      name: "a fully stripped one-line block",
      search: ["x = 1"],
      replace: ["x = 2"],
      text: CLS.replace("        x = 1\n", "        x = 2\n"),
      reindented: "        ",
    },
    {
      name: "REPLACE nests deeper than SEARCH in SEARCH's frame",
      search: ["x = 1", "return x"],
      replace: ["if self:", "    x = 2", "return x"],
      text: CLS.replace("        x = 1\n", "        if self:\n            x = 2\n"),
      reindented: "        ",
    },
    {
      name: "SEARCH written with the wrong indentation (found by ignoring it) and REPLACE alike",
      search: ["  x = 1"],
      replace: ["  x = 2"],
      text: CLS.replace("        x = 1\n", "        x = 2\n"),
      reindented: "      ",
    },
    {
      name: "REPLACE already has the file's indentation: written verbatim",
      search: ["x = 1"],
      replace: ["        x = 2"],
      text: CLS.replace("        x = 1\n", "        x = 2\n"),
      reindented: undefined,
    },
    {
      name: "SEARCH gave the full indentation: a dedenting REPLACE is written verbatim",
      search: ["        x = 1"],
      replace: ["x = 1"],
      text: CLS.replace("        x = 1\n", "x = 1\n"),
      reindented: undefined,
    },
  ])("$name", ({ search, replace, text, reindented }) => {
    const r = ok(applySearchReplace(CLS, block(search, replace)));
    expect(r.text).toBe(text);
    expect(r.blocks[0]!.reindented).toBe(reindented);
  });

  it("re-indents with tabs in a tab-indented file", () => {
    const r = ok(applySearchReplace("\tif a:\n\t\tgo()\n", block(["if a:", "\tgo()"], ["if b:", "\tstop()"])));
    expect(r.text).toBe("\tif b:\n\t\tstop()\n");
    expect(r.blocks[0]!.reindented).toBe("\t");
  });

  it.each([
    {
      name: "SEARCH lines lacking different amounts, REPLACE in SEARCH's shape: each line takes its file line's indentation",
      search: ["def f(self):", "x = 1"],
      replace: ["def f(self):", "x = 2"],
      text: CLS.replace("    def f(self):\n        x = 1\n", "    def f(self):\n        x = 2\n"),
    },
    {
      name: "only the first SEARCH line lacking its indentation",
      search: ["def f(self):", "        x = 1"],
      replace: ["def f(self):", "        x = 2"],
      text: CLS.replace("    def f(self):\n        x = 1\n", "    def f(self):\n        x = 2\n"),
    },
    {
      name: "SEARCH squeezed to two spaces a level, REPLACE on SEARCH's levels with a line more: mapped level by level",
      search: ["def f(self):", "  x = 1", "  return x"],
      replace: ["def f(self):", "  x = 2", "  y = 3", "  return x"],
      text: CLS.replace("        return x\n", "        y = 3\n        return x\n").replace("x = 1", "x = 2"),
    },
  ])("maps REPLACE onto the file's structure: $name", ({ search, replace, text }) => {
    const r = ok(applySearchReplace(CLS, block(search, replace)));
    expect(r.text).toBe(text);
    expect(r.blocks[0]!.mapped).toBe(true);
  });

  it("REPLACE at a level of its own, one step deeper than SEARCH: moved by SEARCH's offset", () => {
    const r = ok(applySearchReplace(CLS, block(["x = 1"], ["    x = 2"])));
    expect(r.text).toBe(CLS.replace("        x = 1\n", "            x = 2\n"));
    expect(r.blocks[0]!.reindented).toBe("        ");
  });

  it("SEARCH and REPLACE both over-indented: REPLACE is outdented by the same amount (as edit_file does)", () => {
    const r = ok(applySearchReplace(CLS, block(["            x = 1", "            return x"], ["            x = 2", "            return x + 1"])));
    expect(r.text).toBe(CLS.replace("        x = 1\n        return x\n", "        x = 2\n        return x + 1\n"));
    expect(r.blocks[0]!.outdented).toBe("    ");
  });

  it("refuses, naming the matched lines, when SEARCH lost its structure and REPLACE's cannot be fitted", () => {
    const r = applySearchReplace(CLS, block(["def f(self):", "x = 1", "return x"], ["def f(self):", "  x = 2", "return x"]));
    expect(r.ok).toBe(false);
    const error = (r as { error: string }).error;
    expect(error).toContain("Block 1: not applied: SEARCH matched lines 2-4");
    expect(error).toContain("file: 4, 8, 8; given: 0, 0, 0");
    expect(error).toContain("3 |         x = 1");
  });
});

describe("replace_in_file: stray blank lines at the edges of SEARCH", () => {
  const TEXT = "one\ntwo\nthree\n";
  it.each([
    {
      name: "a leading blank line mirrored in REPLACE: dropped from both",
      search: ["", "two"],
      replace: ["", "TWO"],
      text: "one\nTWO\nthree\n",
      dropped: { leading: 1, trailing: 0, replaceLeading: 1, replaceTrailing: 0 },
    },
    {
      name: "a trailing blank line that REPLACE does not have: REPLACE as given",
      search: ["two", ""],
      replace: ["TWO"],
      text: "one\nTWO\nthree\n",
      dropped: { leading: 0, trailing: 1, replaceLeading: 0, replaceTrailing: 0 },
    },
    {
      name: "REPLACE with more blank lines than SEARCH keeps the extra ones",
      search: ["", "two", ""],
      replace: ["", "", "TWO", ""],
      text: "one\n\nTWO\nthree\n",
      dropped: { leading: 1, trailing: 1, replaceLeading: 1, replaceTrailing: 1 },
    },
    {
      name: "blank edges of a SKIP block's head and tail",
      search: ["", "one", "....... SKIP", "three", "  "],
      replace: ["", "ONE-THREE", ""],
      text: "ONE-THREE\n",
      dropped: { leading: 1, trailing: 1, replaceLeading: 1, replaceTrailing: 1 },
    },
  ])("$name", ({ search, replace, text, dropped }) => {
    const r = ok(applySearchReplace(TEXT, block(search, replace)));
    expect(r.text).toBe(text);
    expect(r.blocks[0]!.droppedBlank).toEqual(dropped);
  });

  it("uses SEARCH as written when its blank lines are in the file", () => {
    const r = ok(applySearchReplace("one\n\ntwo\n", block(["", "two"], ["TWO"])));
    expect(r.text).toBe("one\nTWO\n");
    expect(r.blocks[0]).toMatchObject({ startLine: 2, endLine: 3 });
    expect(r.blocks[0]!.droppedBlank).toBeUndefined();
  });

  it("still refuses a SEARCH whose other lines do not match, and one that is only blank lines", () => {
    expect(err(applySearchReplace(TEXT, block(["", "four"], ["x"])))).toMatch(/^Block 1: SEARCH was not found/);
    expect(err(applySearchReplace(TEXT, block(["", " "], ["x"])))).toMatch(/^Block 1: SEARCH was not found/);
  });

  it("refuses a trimmed SEARCH that matches several places", () => {
    expect(err(applySearchReplace("x\ny\nx\n", block(["x", ""], ["z"])))).toContain("SEARCH matches 2 locations (starting at lines 1, 3)");
  });
});

describe("replace_in_file SKIP ranges", () => {
  const SRC = ["header", "function big() {", "  a();", "  b();", "  c();", "}", "", "function other() {", "}", ""].join("\n");

  it("covers every line from the head through the nearest matching tail", () => {
    const diff = block(["function big() {", "....... SKIP", "}"], ["function big() {", "  all();", "}"]);
    const r = ok(applySearchReplace(SRC, diff));
    expect(r.text).toBe(["header", "function big() {", "  all();", "}", "", "function other() {", "}", ""].join("\n"));
    expect(r.blocks).toEqual([{ block: 1, startLine: 2, endLine: 6, skipped: 3, replacementLines: 3 }]);
  });

  it("accepts a padded SKIP marker and multi-line head and tail", () => {
    const diff = block(["header", "function big", "   .......   SKIP  ", "  c();", "}"], ["gone"]);
    const r = ok(applySearchReplace(SRC, diff));
    expect(r.text).toBe(["gone", "", "function other() {", "}", ""].join("\n"));
    expect(r.blocks[0]).toMatchObject({ startLine: 1, endLine: 6, skipped: 2 });
  });

  it("is ambiguous when two heads reach a tail", () => {
    const text = "start\nx\nstart\ny\nend\n";
    expect(err(applySearchReplace(text, block(["start", "....... SKIP", "end"], ["z"])))).toContain(
      "Block 1: SEARCH matches 2 locations (starting at lines 1, 3)",
    );
  });

  it("fails when the tail never follows the head", () => {
    expect(err(applySearchReplace("end\nstart\n", block(["start", "....... SKIP", "end"], ["z"])))).toMatch(/^Block 1: SEARCH was not found/);
  });

  it("needs lines on both sides of the marker", () => {
    expect(err(applySearchReplace(SRC, block(["....... SKIP", "}"], ["x"])))).toBe(
      'Block 1: a "....... SKIP" line needs SEARCH lines both before and after it (the head and the tail of the range).',
    );
  });
});

describe("replace_in_file blocks and formats", () => {
  it("applies blocks in order to the evolving text and reports original line ranges", () => {
    const text = "one\ntwo\nthree\nfour\nfive\n";
    const diff = [block(["two"], ["2a", "2b", "2c"]), block(["2c", "three"], ["3"]), block(["five"], ["5"])].join("\n\n");
    const r = ok(applySearchReplace(text, diff));
    expect(r.text).toBe("one\n2a\n2b\n3\nfour\n5\n");
    expect(r.blocks).toEqual([
      { block: 1, startLine: 2, endLine: 2, skipped: 0, replacementLines: 3 },
      { block: 2, startLine: 2, endLine: 3, skipped: 0, replacementLines: 1 },
      { block: 3, startLine: 5, endLine: 5, skipped: 0, replacementLines: 1 },
    ]);
  });

  it("accepts the older <<<<<<< / >>>>>>> markers, padded markers and prose or fences around blocks", () => {
    const diff = [
      "Here is the change:",
      "```",
      "  <<<<<<< SEARCH  ",
      "two",
      "\t=======",
      "TWO",
      ">>>>>>>   REPLACE ",
      "```",
      "  ------- SEARCH",
      "three",
      " ======= ",
      "THREE",
      "+++++++ REPLACE\t",
    ].join("\n");
    expect(ok(applySearchReplace("one\ntwo\nthree\n", diff)).text).toBe("one\nTWO\nTHREE\n");
  });

  it("treats ======= inside REPLACE as content", () => {
    const diff = block(["Title"], ["Title", "=======", "text"]);
    expect(ok(applySearchReplace("Title\n", diff)).text).toBe("Title\n=======\ntext\n");
  });

  it("keeps CRLF line endings and a missing final newline", () => {
    const r = ok(applySearchReplace("a\r\nb\r\nc", block(["b", "c"], ["B", "C", "D"])));
    expect(r.text).toBe("a\r\nB\r\nC\r\nD");
    expect(ok(applySearchReplace("a\r\nb\r\n", block(["a"], ["x", "y"]))).text).toBe("x\r\ny\r\nb\r\n");
  });

  it("keeps a missing final newline when the last line is deleted", () => {
    expect(ok(applySearchReplace("a\nb\nc", block(["c"], []))).text).toBe("a\nb");
  });

  it("keeps a BOM", () => {
    expect(ok(applySearchReplace("\uFEFFa\nb\n", block(["a"], ["A"]))).text).toBe("\uFEFFA\nb\n");
  });

  it("fills an empty file from an empty SEARCH, and refuses an empty SEARCH otherwise", () => {
    expect(ok(applySearchReplace("", block([], ["x", "y"]))).text).toBe("x\ny\n");
    expect(err(applySearchReplace("a\n", block([], ["x"])))).toBe(
      "Block 1: SEARCH is empty. It must contain the file lines to replace (an empty SEARCH is only accepted for an empty file).",
    );
  });

  it("names the failing block; nothing applies when a later block fails", () => {
    const diff = [block(["one"], ["1"]), block(["missing"], ["x"])].join("\n");
    const e = err(applySearchReplace("one\ntwo\n", diff));
    expect(e).toMatch(/^Block 2: SEARCH was not found\./);
    expect(e).toContain('First SEARCH line: "missing".');
  });

  it("shows the closest region when a block does not match", () => {
    const e = err(applySearchReplace("alpha()\nbeta(1, 2)\ngamma()\n", block(["beta(1, 3)", "gamma()"], ["x"])));
    expect(e).toContain("Closest region, lines 2-3:\n2 | beta(1, 2)\n3 | gamma()");
  });
});

describe("parseSearchReplace: malformed markers", () => {
  it.each([
    ["no blocks", "just text", "The diff contains no SEARCH/REPLACE blocks."],
    ["REPLACE without SEARCH", "=======\nx\n+++++++ REPLACE", 'Block 1: "=======" at line 1 of the diff has no SEARCH marker before it.'],
    ["missing divider", "------- SEARCH\na\n+++++++ REPLACE", 'Block 1: "+++++++ REPLACE" at line 3 of the diff comes before the ======= divider.'],
    ["unterminated", "------- SEARCH\na\n=======\nb", "Block 1 (starting at line 1 of the diff) is missing its +++++++ REPLACE marker."],
    ["unterminated search", "------- SEARCH\na", "Block 1 (starting at line 1 of the diff) is missing its ======= divider and +++++++ REPLACE marker."],
    [
      "nested SEARCH",
      `${block(["a"], ["b"])}\n------- SEARCH\nc\n=======\n------- SEARCH`,
      "Block 2: a new SEARCH marker at line 9 of the diff before this block's +++++++ REPLACE marker.",
    ],
    [
      "a marker with too few characters is named, not the divider after it",
      "---- SEARCH\na\n=======\nb\n+++++++ REPLACE",
      'line 1 of the diff, "---- SEARCH", looks like a marker but is not one (markers are 5 to 9 of the same character, then SEARCH or REPLACE).',
    ],
  ])("%s", (_name, diff, message) => {
    const r = parseSearchReplace(diff);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.split("\n")[0]).toBe(message);
  });

  it.each([
    ["five dashes", "----- SEARCH\na\n=====\nb\n+++++ REPLACE"],
    ["six characters", "------ SEARCH\na\n======\nb\n++++++ REPLACE"],
    ["nine characters", "<<<<<<<<< SEARCH\na\n=========\nb\n>>>>>>>>> REPLACE"],
    ["Cline's trailing >", "<<<<<<< SEARCH>\na\n=======\nb\n>>>>>>> REPLACE"],
    ["padded with whitespace", "  <<<<<<< SEARCH  \na\n  =======  \nb\n  >>>>>>> REPLACE  "],
    ["dashes before REPLACE", "------- SEARCH\na\n=======\nb\n------- REPLACE"],
  ])("accepts markers as other agents write them: %s", (_name, diff) => {
    const r = parseSearchReplace(diff);
    expect(r).toMatchObject({ ok: true, blocks: [{ search: ["a"], replace: ["b"] }] });
  });

  it("keeps a loose divider inside SEARCH as text when a 7-character one follows", () => {
    const r = parseSearchReplace("------- SEARCH\nTitle\n=====\n=======\nTitle!\n=====\n+++++++ REPLACE");
    expect(r).toMatchObject({ ok: true, blocks: [{ search: ["Title", "====="], replace: ["Title!", "====="] }] });
  });

  it("takes Roo's :start_line: hint as where to look, and never writes it", () => {
    const r = parseSearchReplace("<<<<<<< SEARCH\n:start_line:3\n-------\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE");
    expect(r).toMatchObject({ ok: true, blocks: [{ search: ["x = 1"], replace: ["x = 2"], startLine: 3 }] });
    const text = "x = 1\ny\nx = 1\n";
    const applied = applySearchReplace(text, "<<<<<<< SEARCH\n:start_line:3\n-------\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE");
    expect(applied).toMatchObject({ ok: true, text: "x = 1\ny\nx = 2\n" });
    const inReplace = applySearchReplace("a\n", "------- SEARCH\na\n=======\n:start_line:1\nb\n+++++++ REPLACE");
    expect(inReplace).toMatchObject({ ok: true, text: "b\n" });
  });

  it("parses blocks with their diff line numbers", () => {
    const r = parseSearchReplace(`intro\n${block(["a", "b"], ["c"])}`);
    expect(r).toEqual({ ok: true, blocks: [{ index: 1, diffLine: 2, search: ["a", "b"], replace: ["c"] }] });
  });
});
