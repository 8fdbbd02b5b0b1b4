import { applyPatch, createTwoFilesPatch, parsePatch } from "diff";
import { describe, expect, it } from "vitest";
import { hunksOf, unifiedDiff } from "../../../server/src/workspace/diff.js";
import { makeProject } from "./setup.js";

/** The hunks of the diff package's own patch of the whole texts (our fast path must agree). */
function reference(a: string, b: string): string {
  const full = createTwoFilesPatch("x", "x", a, b, "", "", { context: 3 });
  return full.slice(full.indexOf("@@"));
}

function ours(a: string, b: string): string {
  const d = unifiedDiff("x", "x", a, b).text;
  return d.slice(d.indexOf("@@"));
}

const lines = (n: number, f = (i: number) => `line ${i}`) => Array.from({ length: n }, (_, i) => `${f(i)}\n`).join("");

describe("unifiedDiff", () => {
  const base = lines(200);
  const cases: [string, string][] = [
    ["one line changed in the middle", base.replace("line 100\n", "LINE 100\n")],
    ["first line changed", base.replace("line 0\n", "first\n")],
    ["last line changed", base.replace("line 199\n", "last\n")],
    ["lines inserted", base.replace("line 50\n", "line 50\nnew a\nnew b\n")],
    ["lines removed", base.replace("line 50\nline 51\n", "")],
    ["final newline removed", base.slice(0, -1)],
    ["two distant changes", base.replace("line 10\n", "X\n").replace("line 180\n", "Y\n")],
    ["change inside a line", base.replace("line 77", "line 7 7")],
    ["a repeated line inserted next to its twin", base.replace("line 5\n", "line 5\nline 5\n")],
  ];
  it.each(cases)("agrees with the diff package: %s", (_name, changed) => {
    expect(ours(base, changed)).toBe(reference(base, changed));
  });

  it("agrees on texts with repeated lines around the change", () => {
    const a = "a\nb\na\nb\na\nb\n";
    const b = "a\nb\na\nX\na\nb\n";
    expect(ours(a, b)).toBe(reference(a, b));
    expect(ours("\n\nx\n\n", "\n\ny\n\n")).toBe(reference("\n\nx\n\n", "\n\ny\n\n"));
  });

  it("counts lines, names new and deleted files, and is empty for no change", () => {
    const d = unifiedDiff(null, "n.txt", "", "a\nb\n");
    expect(d.text).toBe("--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1,2 @@\n+a\n+b\n");
    expect([d.additions, d.deletions]).toEqual([2, 0]);
    expect(unifiedDiff("d.txt", null, "x\n", "").text).toBe("--- a/d.txt\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-x\n");
    expect(unifiedDiff("s", "s", "same", "same").text).toBe("");
  });

  it("diffs one change in a 10 MB text quickly", () => {
    const big = lines(200_000, (i) => `const value${i} = ${i}; // some padding text here`);
    const changed = big.replace("value199990 =", "value199990 = 1 +");
    // Flatten the replaced string first, as text read from a file already is.
    expect(changed.charCodeAt(1) + big.charCodeAt(1)).toBeGreaterThan(0);
    const t0 = performance.now();
    const d = unifiedDiff("big", "big", big, changed);
    // The diff package alone takes about a second here; the trimmed diff takes milliseconds.
    expect(performance.now() - t0).toBeLessThan(300);
    expect([d.additions, d.deletions]).toEqual([1, 1]);
    expect(d.text).toContain("@@ -199988,7 +199988,7 @@");
  });

  it("replaces a diff longer than maxChars by a note before the header, and the whole stays a valid patch", () => {
    const big = unifiedDiff("big.txt", "big.txt", lines(100), lines(100, (i) => `changed ${i}`), { maxChars: 1000 });
    expect(big.omitted).toBe(true);
    expect([big.additions, big.deletions]).toEqual([100, 100]);
    expect(big.text).toBe(
      "diff of big.txt not shown: its 2080 characters would go past the 1000 characters of diff shown per change (+100 -100 lines between lines 1 and 100)\n--- a/big.txt\n+++ b/big.txt\n",
    );
    const small = unifiedDiff("a.txt", "a.txt", "x\n", "y\n");
    const files = parsePatch(small.text + big.text + small.text);
    expect(files.map((f) => [f.oldFileName, f.hunks.length])).toEqual([
      ["a/a.txt", 1],
      ["a/big.txt", 0],
      ["a/a.txt", 1],
    ]);
  });

  it("says where the change is when the hunks were built but are too long", () => {
    const base = lines(200);
    const changed = base.replace("line 150\n", `${"x".repeat(600)}\n`).replace("line 160\n", `${"y".repeat(600)}\n`);
    // The changed lines alone (1,220 characters) fit; with their context lines they do not.
    const d = unifiedDiff("f", "f", base, changed, { maxChars: 1300 });
    expect(d.text.split("\n")[0]).toMatch(/^diff of f not shown: its 1\d{3} characters would go past the 1300 characters of diff shown per change \(\+2 -2 lines between lines 151 and 161\)$/);
  });

  it("shares the 1 MB of one change set between its files: a file that would go past it gets the note", async () => {
    const p = makeProject();
    try {
      // New files: about 600 KB of + lines each, so the second would go past 1 MB.
      const text = (tag: string) => lines(20_000, (i) => `${tag} line ${i} with padding text`);
      const ops = [
        { kind: "write" as const, path: "one.txt", text: text("one") },
        { kind: "write" as const, path: "two.txt", text: text("two") },
        { kind: "write" as const, path: "three.txt", text: "small\n" },
      ];
      const r = await p.ws.apply({ tool: "t", ops }, { sessionId: "s1" });
      expect(r.diff.startsWith("--- /dev/null\n+++ b/one.txt\n@@ -0,0 +1,20000 @@\n+one line 0")).toBe(true);
      expect(r.diff).toMatch(/\ndiff of two\.txt not shown: its 6\d\d KB would go past the 1\.0 MB of diff shown per change \(\+20000 -0 lines at line 1\)\n--- \/dev\/null\n\+\+\+ b\/two\.txt\n/);
      // What the second file did not take is still there for a small third one.
      expect(r.diff.endsWith("--- /dev/null\n+++ b/three.txt\n@@ -0,0 +1,1 @@\n+small\n")).toBe(true);
      expect(r.diff.length).toBeLessThan(1_000_000);
      expect(r.files.map((f) => [f.path, f.additions])).toEqual([["one.txt", 20_000], ["two.txt", 20_000], ["three.txt", 1]]);
    } finally {
      p.dispose();
    }
  });

  it("notes a new file too long to show from its length and lines alone, as the line diff would", () => {
    const note = (chars: number, limit: string) => `diff of x not shown: its ${chars} characters would go past the ${limit} of diff shown per change (+3 -0 lines at line 1)\n--- /dev/null\n+++ b/x\n`;
    expect(unifiedDiff(null, "x", "", "a\nbb\nccc", { maxChars: 5 })).toEqual({ text: note(11, "5 characters"), additions: 3, deletions: 0, omitted: true });
    expect(unifiedDiff(null, "x", "", "a\nbb\nccc\n", { maxChars: 5, limit: 1_000_000 }).text).toBe(note(12, "1.0 MB"));
    // A 50 MB create: counted, not split into 800,000 lines.
    const d = unifiedDiff(null, "big.txt", "", ("y".repeat(63) + "\n").repeat(800_000));
    expect(d).toMatchObject({ additions: 800_000, deletions: 0, omitted: true });
    expect(d.text).toMatch(/^diff of big\.txt not shown: its 52\.0 MB would go past the 1\.0 MB of diff shown per change \(\+800000 -0 lines at line 1\)\n/);
  });

  it("gives hunks numbered in the whole file that re-apply onto a text changed elsewhere", () => {
    const base = lines(300);
    const after = base.replace("line 200\n", "LINE 200\n");
    const current = base.replace("line 10\n", "user's edit\n");
    const patch = { oldFileName: "a", newFileName: "b", oldHeader: undefined, newHeader: undefined, hunks: hunksOf(base, after) };
    expect(patch.hunks.map((h) => [h.oldStart, h.oldLines])).toEqual([[198, 7]]);
    expect(applyPatch(current, patch, { fuzzFactor: 0 })).toBe(current.replace("line 200\n", "LINE 200\n"));
    // An edit of the same line does not re-apply.
    expect(applyPatch(base.replace("line 200\n", "other\n"), patch, { fuzzFactor: 0 })).toBe(false);
  });
});
