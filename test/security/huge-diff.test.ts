/**
 * A 50 MB full rewrite completes: the unified diff for prompts and results, and the text edits
 * for an open document, both end within the diff's work budget (the `diff` package would run for
 * hours on this), and the shown diff is a short note rather than 100 MB of `-`/`+` lines.
 */
import { parsePatch } from "diff";
import { describe, expect, it } from "vitest";
import { applyTextEdits, computeTextEdits } from "../../server/src/lsp/text-edits.js";
import { unifiedDiff } from "../../server/src/workspace/diff.js";

const n = 1_250_000;
const lines = (f: (i: number) => string) => Array.from({ length: n }, (_, i) => `${f(i)}\n`).join("");
const before = lines((i) => `old line ${i} with some padding text..`);
const after = lines((i) => `NEW ${i * 7} line and different text...`);

describe("a 50 MB full rewrite", () => {
  it("has a unified diff: a note in place of the hunks, still a valid patch", () => {
    expect(before.length).toBeGreaterThan(50_000_000);
    const d = unifiedDiff("big.txt", "big.txt", before, after);
    expect([d.additions, d.deletions, d.omitted]).toEqual([n, n, true]);
    expect(d.text).toMatch(/^diff of big\.txt not shown: its 10\d\.\d MB would go past the 1\.0 MB of diff shown per change/);
    expect(d.text.length).toBeLessThan(300);
    const [file] = parsePatch(d.text);
    expect(file).toMatchObject({ oldFileName: "a/big.txt", newFileName: "b/big.txt", hunks: [] });
  });

  it("has text edits for the editor that turn one text into the other", () => {
    const edits = computeTextEdits(before, after);
    expect(edits).toHaveLength(1);
    expect(applyTextEdits(before, edits)).toBe(after);
  });
});
