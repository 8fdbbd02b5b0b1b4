/**
 * Indentation the same in every edit tool (edits/rebase-indent.ts): when the text to find matched
 * only with its indentation forgiven, edit_file, replace_in_file and apply_patch all move the
 * replacement into the file's frame the same way, or all refuse; none writes a broken structure
 * silently. Plus the whitespace-inside-a-line step and the similarity a refusal reports.
 */
import { describe, expect, it } from "vitest";
import { editText } from "../../../server/src/edits/edit.js";
import { applySearchReplace } from "../../../server/src/edits/search-replace.js";
import { applyPatchOps } from "../../../server/src/edits/patch-apply.js";
import { parsePatch } from "../../../server/src/edits/patch-parse.js";
import { rebaseIndent } from "../../../server/src/edits/rebase-indent.js";

type Outcome = { ok: true; text: string } | { ok: false; error: string };

/** The three tools' engines on one (find, replace) pair. */
const TOOLS: Record<string, (text: string, find: string[], put: string[]) => Outcome> = {
  edit_file: (text, find, put) => {
    const r = editText(text, { target: find.join("\n"), replacement: put.join("\n") });
    return r.ok ? { ok: true, text: r.text } : r;
  },
  replace_in_file: (text, find, put) => {
    const r = applySearchReplace(text, ["------- SEARCH", ...find, "=======", ...put, "+++++++ REPLACE"].join("\n"));
    return r.ok ? { ok: true, text: r.text } : r;
  },
  apply_patch: (text, find, put) => {
    const patch = ["*** Begin Patch", "*** Update File: f.py", "@@", ...find.map((l) => `-${l}`), ...put.map((l) => `+${l}`), "*** End Patch"].join("\n");
    const parsed = parsePatch(patch);
    if (!parsed.ok) return parsed;
    const r = applyPatchOps(parsed.ops, new Map([["f.py", text]]));
    return r.ok ? { ok: true, text: r.results[0]!.newText ?? "" } : r;
  },
};

const PY = "def f():\n    if x:\n        y()\n    return 1\n";

const CASES: { name: string; text: string; find: string[]; put: string[]; out?: string; refused?: RegExp }[] = [
  {
    name: "the text to find lost its relative indentation, the replacement has its shape: each line keeps its file line's depth",
    text: PY,
    find: ["def f():", "if x:", "y()"],
    put: ["def f():", "if z:", "w()"],
    out: "def f():\n    if z:\n        w()\n    return 1\n",
  },
  {
    name: "lost relative indentation and a replacement of another shape: refused, nothing written",
    text: PY,
    find: ["def f():", "if x:", "y()"],
    put: ["def f():", "if z:", "  w()", "  v()"],
    refused: /does not relate to the file's by one offset \(file: 0, 4, 8; given: 0, 0, 0\)/,
  },
  {
    name: "both over-indented by one amount: outdented by it",
    text: PY,
    find: ["            y()", "        return 1"],
    put: ["            z()", "        return 2"],
    out: "def f():\n    if x:\n        z()\n    return 2\n",
  },
  {
    name: "both written without the enclosing indentation: indented by it",
    text: PY,
    find: ["if x:", "    y()"],
    put: ["if x:", "    y()", "    z()"],
    out: "def f():\n    if x:\n        y()\n        z()\n    return 1\n",
  },
  {
    name: "the text to find starts with a blank line: indented once, not twice",
    text: "class A:\n\n    def f(self):\n        pass\n",
    find: ["", "def f(self):", "    pass"],
    put: ["", "def f(self):", "    return 1"],
    out: "class A:\n\n    def f(self):\n        return 1\n",
  },
];

describe("one re-basing of indentation for every edit tool", () => {
  for (const [tool, run] of Object.entries(TOOLS)) {
    it.each(CASES)(`${tool}: $name`, ({ text, find, put, out, refused }) => {
      const r = run(text, find, put);
      if (refused) {
        expect(r.ok).toBe(false);
        expect((r as { error: string }).error).toMatch(refused);
      } else {
        expect(r).toEqual({ ok: true, text: out });
      }
    });
  }
});

describe("rebaseIndent", () => {
  it.each([
    { name: "same indentation", pairs: [["a", "a"]], lines: ["b"], kind: "verbatim", out: ["b"] },
    { name: "uniform add", pairs: [["a", "  a"], [" b", "   b"]], lines: ["c", " d"], kind: "shifted", out: ["  c", "   d"] },
    { name: "blank lines stay blank", pairs: [["a", "\ta"]], lines: ["c", "", "d"], kind: "shifted", out: ["\tc", "", "\td"] },
    { name: "tabs to spaces level by level", pairs: [["a", "    a"], ["\tb", "        b"]], lines: ["\tc", "d"], kind: "mapped", out: ["        c", "    d"] },
    { name: "a level the table lacks", pairs: [["a", "    a"], ["\tb", "        b"]], lines: ["\t\tc"], kind: "refused" },
  ] as const)("$name", ({ pairs, lines, kind, ...rest }) => {
    const r = rebaseIndent(pairs, lines);
    expect(r.kind).toBe(kind);
    if ("out" in rest) expect((r as { lines: string[] }).lines).toEqual(rest.out);
  });
});

describe("runs of spaces inside a line", () => {
  it("match as one space when that finds exactly one place, and the result says so", () => {
    const r = editText("x  =   compute(a,  b)\ny = 2\n", { target: "x = compute(a, b)", replacement: "x = compute(b, a)" });
    expect(r).toMatchObject({ ok: true, text: "x = compute(b, a)\ny = 2\n", step: "inner_whitespace" });
  });

  it("never pick one of several places that match only that way", () => {
    const r = editText("x  = 1\nx   = 1\n", { target: "x = 1", replacement: "x = 2" });
    expect(r.ok).toBe(false);
  });

  it("apply_patch's context matches that way too, when unique", () => {
    const r = TOOLS.apply_patch!("a  =  1\nb = 2\n", ["a = 1"], ["a = 3"]);
    expect(r).toEqual({ ok: true, text: "a = 3\nb = 2\n" });
  });
});

describe("similarity in a refusal", () => {
  it("is measured on the text as written: a region that differs only in spacing is not 100% similar", () => {
    const r = editText("x  = 1\nx   = 1\n", { target: "x = 1", replacement: "x = 2" });
    expect(r.ok).toBe(false);
    const pct = Number(/\((\d+)% similar\)/.exec((r as { error: string }).error)?.[1]);
    expect(pct).toBeGreaterThan(50);
    expect(pct).toBeLessThan(100);
  });
});
