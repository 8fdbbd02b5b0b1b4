import { describe, expect, it } from "vitest";
import { findMatches, splitTarget } from "../../../server/src/edits/matcher.js";
import { foldUnicode } from "../../../server/src/edits/normalize.js";

/** The matched text of every match, so tests compare what was found, not just offsets. */
function found(text: string, target: string) {
  const r = findMatches(text, target);
  if (!r.found) return { step: null, texts: [], lines: [] };
  return {
    step: r.step,
    texts: r.matches.map((m) => text.slice(m.start, m.end)),
    lines: r.matches.map((m) => [m.startLine, m.endLine]),
  };
}

describe("findMatches: each step, and the first step that matches wins", () => {
  it.each([
    {
      name: "exact substring inside one line",
      text: "const a = foo(1);\nconst b = foo(2);\n",
      target: "foo(2)",
      step: "exact",
      texts: ["foo(2)"],
      lines: [[2, 2]],
    },
    {
      name: "exact across lines, starting and ending mid-line",
      text: "alpha beta\ngamma delta\n",
      target: "beta\ngamma",
      step: "exact",
      texts: ["beta\ngamma"],
      lines: [[1, 2]],
    },
    {
      name: "exact with a final newline: the newline belongs to the last line",
      text: "a\nb\nc\n",
      target: "b\n",
      step: "exact",
      texts: ["b\n"],
      lines: [[2, 2]],
    },
    {
      name: "trailing whitespace in the file",
      text: "x\nfoo()   \nbar()\t\ny\n",
      target: "foo()\nbar()",
      step: "trailing_whitespace",
      texts: ["foo()   \nbar()\t"],
      lines: [[2, 3]],
    },
    {
      name: "trailing whitespace: CRLF file, LF target (\\r counts as trailing whitespace)",
      text: "x\r\nfoo()\r\nbar()\r\ny\r\n",
      target: "foo()\nbar()",
      step: "trailing_whitespace",
      texts: ["foo()\r\nbar()"],
      lines: [[2, 3]],
    },
    {
      name: "trim: different indentation, whole lines from column 0",
      text: "def f():\n    a = 1\n    b = 2\n",
      target: "a = 1\n  b = 2",
      step: "trim",
      texts: ["    a = 1\n    b = 2"],
      lines: [[2, 3]],
    },
    {
      name: "trim: a one-line target with stray indentation matches inside a line",
      text: "x = compute(a, b) + 1\n",
      target: "   compute(a, b)",
      step: "trim",
      texts: ["compute(a, b)"],
      lines: [[1, 1]],
    },
    {
      name: "unicode: typographic quotes, dash and ellipsis in the file",
      text: "msg = “it’s done — really…”\n",
      target: `msg = "it's done - really..."`,
      step: "unicode",
      texts: ["msg = “it’s done — really…”"],
      lines: [[1, 1]],
    },
    {
      name: "unicode: substring inside a line maps back to original offsets",
      text: "say(“hi”) and more\n",
      target: 'say("hi")',
      step: "unicode",
      texts: ["say(“hi”)"],
      lines: [[1, 1]],
    },
    {
      name: "unicode: odd spaces (NBSP, thin space) and NFKC (fullwidth)",
      text: "a\u00A0=\u2009１\n",
      target: "a = 1",
      step: "unicode",
      texts: ["a\u00A0=\u2009１"],
      lines: [[1, 1]],
    },
    {
      name: "unicode: typographic characters in the target",
      text: "  print('x - y')\n",
      target: "print(‘x – y’)",
      step: "unicode",
      texts: ["  print('x - y')"],
      lines: [[1, 1]],
    },
  ])("$name", ({ text, target, step, texts, lines }) => {
    expect(found(text, target)).toEqual({ step, texts, lines });
  });

  it("reports the strictest step even when a looser one would find more", () => {
    // The trim step would also match line 2; exact matching line 1 wins and is the only match.
    expect(found("foo()\n  foo()  \n", "foo()\n")).toEqual({ step: "exact", texts: ["foo()\n"], lines: [[1, 1]] });
    // trailing_whitespace matches lines 1-2; the trim step would add lines 3-4.
    expect(found("x()  \ny()\n  x()\n  y()\n", "x()\t\ny()")).toEqual({
      step: "trailing_whitespace",
      texts: ["x()  \ny()"],
      lines: [[1, 2]],
    });
  });

  it("returns every non-overlapping match with 1-based line numbers", () => {
    expect(found("ab\nxx ab\n\nab\n", "ab")).toEqual({
      step: "exact",
      texts: ["ab", "ab", "ab"],
      lines: [
        [1, 1],
        [2, 2],
        [4, 4],
      ],
    });
    expect(found("aaaa", "aa").texts).toEqual(["aa", "aa"]);
  });

  it("fuzzy multi-line targets match whole lines only", () => {
    // "b = 2" is only the end of line 2: no fuzzy step takes a partial first line.
    expect(found("a = 1; b = 2\n  c = 3\n", "b = 2\nc = 3").step).toBeNull();
  });

  it("does not let a whitespace-only target match blank lines fuzzily", () => {
    const r = findMatches("a\n   \nb\n", " \t \n");
    expect(r.found).toBe(false);
  });

  it("returns the closest region when nothing matches", () => {
    const text = "function a() {\n  return 1;\n}\nfunction b() {\n  return 2;\n}\n";
    const r = findMatches(text, "function b() {\n  return 3;\n}");
    expect(r.found).toBe(false);
    if (r.found) return;
    expect(r.closest).toMatchObject({ startLine: 4, endLine: 6, text: "function b() {\n  return 2;\n}" });
    expect(r.closest!.similarity).toBeGreaterThan(0.8);
    expect(r.closest!.similarity).toBeLessThan(1);
  });

  it("finds nothing (and no region) for an empty target or an empty file", () => {
    expect(findMatches("abc", "")).toEqual({ found: false });
    expect(findMatches("", "abc")).toEqual({ found: false, closest: undefined });
  });
});

describe("splitTarget", () => {
  it("treats a final line break as the end of the last line", () => {
    expect(splitTarget("a\nb\n")).toEqual({ lines: ["a", "b"], endsWithNewline: true });
    expect(splitTarget("a\r\nb")).toEqual({ lines: ["a", "b"], endsWithNewline: false });
  });
});

describe("foldUnicode", () => {
  it("folds quotes, dashes, ellipsis, odd spaces, zero-width characters and NFKC forms", () => {
    expect(foldUnicode("‘a’ “b” – — ‒ ― − …\u00A0\u2009\u202Fx\u200By ﬁ")).toBe(`'a' "b" - - - - - ...   xy fi`);
  });

  it("composes combining marks (NFKC)", () => {
    expect(foldUnicode("e\u0301")).toBe("é");
  });

  it("leaves ASCII untouched", () => {
    expect(foldUnicode("plain 'ascii' - ...")).toBe("plain 'ascii' - ...");
  });
});
