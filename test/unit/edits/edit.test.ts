import { describe, expect, it } from "vitest";
import { editText, type EditResult } from "../../../server/src/edits/edit.js";

function ok(result: EditResult) {
  if (!result.ok) throw new Error(`expected success, got: ${result.error}`);
  return result;
}

function err(result: EditResult): string {
  if (result.ok) throw new Error(`expected an error, got text ${JSON.stringify(result.text)}`);
  return result.error;
}

describe("editText: replacing", () => {
  it.each([
    {
      name: "exact substring in one line",
      text: "let x = 1;\nlet y = 2;\n",
      target: "y = 2",
      replacement: "y = 3",
      out: "let x = 1;\nlet y = 3;\n",
      step: "exact",
      at: [2],
    },
    {
      name: "exact multi-line, replacement with fewer lines",
      text: "a\nb\nc\nd\n",
      target: "b\nc\n",
      replacement: "X\n",
      out: "a\nX\nd\n",
      step: "exact",
      at: [2],
    },
    {
      name: "trailing whitespace ignored; the file's trailing spaces go with the matched lines",
      text: "if (a) {  \n  go();\t\n}\n",
      target: "if (a) {\n  go();",
      replacement: "if (b) {\n  stop();",
      out: "if (b) {\n  stop();\n}\n",
      step: "trailing_whitespace",
      at: [1],
    },
    {
      name: "trim step re-indents a replacement written without the enclosing indentation",
      text: "class A:\n    def f(self):\n        return 1\n",
      target: "def f(self):\n    return 1",
      replacement: "def f(self):\n    x = 2\n\n    return x",
      out: "class A:\n    def f(self):\n        x = 2\n\n        return x\n",
      step: "trim",
      at: [2],
    },
    {
      name: "trim step removes indentation the target had in excess",
      text: "def f():\n  return 1\n",
      target: "    def f():\n      return 1",
      replacement: "    def g():\n      return 2",
      out: "def g():\n  return 2\n",
      step: "trim",
      at: [1],
    },
    {
      name: "unicode step with typographic quotes in the file",
      text: "title = “Hello — world”\nend\n",
      target: 'title = "Hello - world"',
      replacement: 'title = "Bye"',
      out: 'title = "Bye"\nend\n',
      step: "unicode",
      at: [1],
    },
    {
      name: "unicode step inside a line keeps the rest of the line",
      text: "print(‘a’, ‘b’)\n",
      target: "'b'",
      replacement: "'c'",
      out: "print(‘a’, 'c')\n",
      step: "unicode",
      at: [1],
    },
  ])("$name", ({ text, target, replacement, out, step, at }) => {
    const r = ok(editText(text, { target, replacement }));
    expect(r.text).toBe(out);
    expect(r.step).toBe(step);
    expect(r.replacedAt).toEqual(at);
    expect(r.count).toBe(at.length);
  });

  it("keeps CRLF: a replacement written with LF gets CRLF", () => {
    const r = ok(editText("one\r\ntwo\r\nthree\r\n", { target: "two\nthree", replacement: "2\n3\n3.5" }));
    expect(r.text).toBe("one\r\n2\r\n3\r\n3.5\r\n");
    expect(r.step).toBe("trailing_whitespace");
  });

  it("keeps each region's own line ending in a mixed file", () => {
    const r = ok(editText("a\nb\r\nc\r\nd\n", { target: "c", replacement: "c1\nc2" }));
    expect(r.text).toBe("a\nb\r\nc1\r\nc2\r\nd\n");
  });

  it("converts CRLF in a replacement to LF in an LF file", () => {
    expect(ok(editText("a\nb\n", { target: "a", replacement: "x\r\ny" })).text).toBe("x\ny\nb\n");
  });

  it("keeps a missing final newline when a fuzzy target ended with one", () => {
    const r = ok(editText("a\nlast  ", { target: "last\n", replacement: "final\n" }));
    expect(r.text).toBe("a\nfinal");
    expect(r.step).toBe("trailing_whitespace");
  });

  it("keeps a BOM and never matches it", () => {
    const r = ok(editText("\uFEFF  first\nsecond\n", { target: "first", replacement: "1st" }));
    expect(r.text).toBe("\uFEFF  1st\nsecond\n");
    const fuzzy = ok(editText("\uFEFFfirst  \nsecond\n", { target: "first\nsecond", replacement: "x" }));
    expect(fuzzy.text).toBe("\uFEFFx\n");
  });

  it("keeps unicode text around the edit intact", () => {
    const r = ok(editText("名前 = “値”\n🙂 ok\n", { target: "ok", replacement: "fine" }));
    expect(r.text).toBe("名前 = “値”\n🙂 fine\n");
  });

  it("replaces every match with allowMultiple and reports each line", () => {
    const r = ok(editText("x = 1\ny = x\nz = x + x\n", { target: "x", replacement: "w", allowMultiple: true }));
    expect(r.text).toBe("w = 1\ny = w\nz = w + w\n");
    expect(r.replacedAt).toEqual([1, 2, 3, 3]);
    expect(r.count).toBe(4);
  });

  it("does not treat $ patterns in the replacement specially", () => {
    expect(ok(editText("a\n", { target: "a", replacement: "$& $1 $$" })).text).toBe("$& $1 $$\n");
  });
});

describe("editText: errors a model can act on", () => {
  it("refuses several matches without allowMultiple, listing their lines", () => {
    const text = "a\nfoo()\nb\nfoo()\nc\n  foo()\n";
    const e = err(editText(text, { target: "foo()", replacement: "bar()" }));
    expect(e).toBe(
      "target_content matches 3 locations, starting at lines 2, 4, 6. Include more surrounding lines so it matches " +
        "exactly one, or set allow_multiple to change all of them.",
    );
  });

  it("names the step when the ambiguous matches were fuzzy", () => {
    const e = err(editText("  x()\n    x()\n", { target: "x() \n", replacement: "y()" }));
    expect(e).toContain("matches 2 locations (matched ignoring leading and trailing whitespace), starting at lines 1, 2.");
  });

  it("shows the closest region with line numbers when nothing matches", () => {
    const text = "import os\n\ndef load(path):\n    with open(path) as f:\n        return f.read()\n";
    const e = err(editText(text, { target: "def load(p):\n    with open(p) as f:", replacement: "x" }));
    expect(e).toMatch(/^target_content was not found in the file \(tried exact, ignoring trailing whitespace, ignoring leading and trailing whitespace, Unicode normalisation, and runs of spaces inside lines\)\. The closest region is lines 3-4 \(\d+% similar\):\n/);
    expect(e).toContain("3 | def load(path):\n4 |     with open(path) as f:\nCopy target_content");
  });

  it("rejects an empty target", () => {
    expect(err(editText("abc", { target: "", replacement: "x" }))).toBe(
      "target_content is empty. Give the exact text to replace, or use insert_line to insert text.",
    );
  });
});

describe("editText: insertLine", () => {
  it.each([
    { name: "at the top", text: "a\nb\n", line: 0, insert: "top", out: "top\na\nb\n" },
    { name: "after a middle line", text: "a\nb\n", line: 1, insert: "mid\nmid2", out: "a\nmid\nmid2\nb\n" },
    { name: "at the end", text: "a\nb\n", line: 2, insert: "end\n", out: "a\nb\nend\n" },
    { name: "at the end of a file without final newline", text: "a\nb", line: 2, insert: "c", out: "a\nb\nc" },
    { name: "in a CRLF file", text: "a\r\nb\r\n", line: 1, insert: "x\ny", out: "a\r\nx\r\ny\r\nb\r\n" },
    { name: "into an empty file", text: "", line: 0, insert: "hello\n", out: "hello\n" },
  ])("inserts $name", ({ text, line, insert, out }) => {
    const r = ok(editText(text, { target: "", replacement: insert, insertLine: line }));
    expect(r.text).toBe(out);
    expect(r.step).toBe("insert");
    expect(r.replacedAt).toEqual([line + 1]);
  });

  it.each([-1, 3, 1.5])("rejects insert_line %s outside 0..line count", (line) => {
    expect(err(editText("a\nb\n", { target: "", replacement: "x", insertLine: line }))).toBe(
      `insert_line ${line} is out of range: the file has 2 lines (use 0 to insert at the top, 2 to append at the end).`,
    );
  });

  it("rejects an empty insertion", () => {
    expect(err(editText("a\n", { target: "", replacement: "", insertLine: 1 }))).toBe(
      "replacement_content is empty: there is nothing to insert.",
    );
  });
});
