import { describe, expect, it } from "vitest";
import { replaceText } from "../../../server/src/edits/replace-text.js";

describe("replaceText", () => {
  it.each([
    { name: "literal, every occurrence", text: "a.b a.b", find: "a.b", replace: "x", regex: false, out: "x x", count: 2 },
    { name: "literal keeps $ patterns as text", text: "v = 1", find: "1", replace: "$1$&", regex: false, out: "v = $1$&", count: 1 },
    { name: "literal with no match", text: "abc", find: "z", replace: "y", regex: false, out: "abc", count: 0 },
    { name: "regex with groups", text: "foo(1) foo(22)", find: "foo\\((\\d+)\\)", replace: "bar[$1]", regex: true, out: "bar[1] bar[22]", count: 2 },
    { name: "regex named group", text: "k=v", find: "(?<k>\\w)=(?<v>\\w)", replace: "$<v>=$<k>", regex: true, out: "v=k", count: 1 },
    { name: "regex ^ and $ per line", text: "a\nb\n", find: "^(\\w)$", replace: "- $1", regex: true, out: "- a\n- b\n", count: 2 },
    { name: "regex dot is literal only when escaped", text: "a.b axb", find: "a\\.b", replace: "!", regex: true, out: "! axb", count: 1 },
    { name: "regex with no match", text: "abc", find: "\\d", replace: "#", regex: true, out: "abc", count: 0 },
  ])("$name", ({ text, find, replace, regex, out, count }) => {
    expect(replaceText(text, { find, replace, regex })).toEqual({ ok: true, text: out, count });
  });

  it("explains an invalid regex", () => {
    expect(replaceText("abc", { find: "(a", replace: "", regex: true })).toEqual({
      ok: false,
      error: "Invalid regular expression /(a/: Unterminated group. Use JavaScript regex syntax.",
    });
  });

  it("rejects an empty find", () => {
    expect(replaceText("abc", { find: "", replace: "x" })).toEqual({ ok: false, error: "find is empty: give the text (or regex) to replace." });
  });
});
