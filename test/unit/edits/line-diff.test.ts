import { applyPatch, structuredPatch } from "diff";
import { describe, expect, it } from "vitest";
import { DIFF_WORK, diffLineArrays } from "../../../server/src/edits/line-diff.js";
import { splitLines } from "../../../server/src/edits/line-ops.js";
import { buildHunks, formatHunk } from "../../../server/src/edits/unified-hunks.js";

/** A small deterministic random source, so a failure can be replayed. */
function random(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
}

/** Texts with few distinct lines (many ties for the diff to break), CRLF and missing final newlines. */
function randomPair(rnd: () => number): [string, string] {
  const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)]!;
  const text = (n: number) => Array.from({ length: n }, () => pick(["a", "b", "c", "", "d\r", "}"]) + "\n").join("") + (rnd() < 0.2 ? "tail" : "");
  const a = text(Math.floor(rnd() * 30));
  if (rnd() < 0.5) return [a, text(Math.floor(rnd() * 30))];
  const lines = a.split("\n");
  for (let k = Math.floor(rnd() * 5); k > 0; k--) {
    const at = Math.floor(rnd() * (lines.length + 1));
    const r = rnd();
    if (r < 0.3) lines.splice(at, 1);
    else if (r < 0.6) lines.splice(at, 0, pick(["a", "x", ""]));
    else lines[at] = pick(["z", "a"]);
  }
  return [a, lines.join("\n")];
}

/** Our diff of two texts as hunk text. */
function ours(a: string, b: string, context: number, budget = DIFF_WORK): string {
  const la = splitLines(a);
  const lb = splitLines(b);
  return buildHunks(diffLineArrays(la, lb, { left: budget }), la, lb, context)
    .map((h) => `${formatHunk(h, 0)}\n`)
    .join("");
}

/** The diff package's hunks of the same texts. */
function reference(a: string, b: string, context: number): string {
  return structuredPatch("x", "x", a, b, "", "", { context })
    .hunks.map((h) => `${formatHunk(h, 0)}\n`)
    .join("");
}

describe("diffLineArrays", () => {
  it("gives exactly the diff package's hunks when the budget suffices (2,000 random pairs)", () => {
    const rnd = random(1);
    for (let i = 0; i < 2000; i++) {
      const [a, b] = randomPair(rnd);
      const context = i % 4;
      expect(ours(a, b, context), JSON.stringify([a, b, context])).toBe(reference(a, b, context));
    }
  });

  it("stays an exact patch on any budget, however small (2,000 random pairs)", () => {
    const rnd = random(2);
    for (let i = 0; i < 2000; i++) {
      const [a, b] = randomPair(rnd);
      const budget = Math.floor(rnd() * (i % 2 ? 40 : 2000));
      const patch = `--- a/x\n+++ b/x\n${ours(a, b, i % 4, budget)}`;
      expect(applyPatch(a, patch), JSON.stringify([a, b, budget])).toBe(b);
    }
  });

  it("spends no more than its budget (plus one round) on texts with nothing in common", () => {
    const a = Array.from({ length: 100_000 }, (_, i) => `old ${i}\n`);
    const b = Array.from({ length: 100_000 }, (_, i) => `new ${i}\n`);
    const budget = { left: DIFF_WORK };
    expect(diffLineArrays(a, b, budget)).toEqual([
      { kind: "removed", count: 100_000 },
      { kind: "added", count: 100_000 },
    ]);
    expect(budget.left).toBeGreaterThan(-10_000);
  });

  it("keeps the unchanged lines of a rewrite too large for Myers by matching unique lines", () => {
    // 20,000 lines, every third changed: far beyond Myers' budget, easy for the unique-line pass.
    const a = Array.from({ length: 20_000 }, (_, i) => `line ${i}\n`);
    const b = a.map((l, i) => (i % 3 ? l : `changed ${i}\n`));
    const budget = { left: DIFF_WORK };
    const ops = diffLineArrays(a, b, budget);
    const kept = ops.filter((o) => o.kind === "equal").reduce((n, o) => n + o.count, 0);
    expect(kept).toBe(a.length - Math.ceil(a.length / 3));
  });
});
