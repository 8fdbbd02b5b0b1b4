/**
 * A line diff that always ends within a work budget and always describes the change exactly.
 *
 * First Myers (myers.ts), which finds the shortest script and, for the edits agents make, agrees
 * line for line with the `diff` package. When that would cost too much (a file rewritten from
 * end to end, where its cost grows with the square of the size), the lines that occur exactly once
 * in both texts are matched in order (patience diff) and split the texts into smaller gaps, each
 * diffed the same way. What the budget cannot pay for becomes one "removed all, added all" run:
 * a coarser script, still exact (applying it gives the new text).
 */
import { myersDiff } from "./myers.js";
import { pushOp, splitLines, type LineOp, type LineRange, type WorkBudget } from "./line-ops.js";
import { changedWindow, type TextWindow } from "./text-window.js";

/**
 * Work of one diff, in visits of Myers' search (about 15 ns each): some 30 ms of one core. Enough
 * for Myers on any edit made by hand and for the unique-line pass over a 2 MB rewrite.
 */
export const DIFF_WORK = 2_000_000;

/** Work charged per line for the unique-line pass (a Map lookup costs about ten visits). */
const HASH_COST = 10;

/**
 * The edit script that turns lines `a` into lines `b`. Exact whatever the budget; minimal (and the
 * same as the `diff` package's) when Myers finishes within it.
 */
export function diffLineArrays(a: readonly string[], b: readonly string[], budget: WorkBudget = { left: DIFF_WORK }): LineOp[] {
  const ops: LineOp[] = [];
  diffRange({ lines: a, lo: 0, hi: a.length }, { lines: b, lo: 0, hi: b.length }, budget, ops);
  return ops;
}

/** A line diff of two texts, over the window where they differ. */
export interface TextDiff {
  window: TextWindow;
  /** The lines of the window in the old text and in the new one. */
  a: string[];
  b: string[];
  /** Turns `a` into `b`. */
  ops: LineOp[];
}

/** Diffs two texts by lines, splitting only the part that differs (plus `context` lines each side). */
export function diffTexts(oldText: string, newText: string, context: number, budget?: WorkBudget): TextDiff {
  const window = changedWindow(oldText, newText, context);
  const a = splitLines(oldText.slice(window.start, window.endA));
  const b = splitLines(newText.slice(window.start, window.endB));
  return { window, a, b, ops: diffLineArrays(a, b, budget) };
}

/** Diffs one range pair into `ops`. */
function diffRange(a: LineRange, b: LineRange, budget: WorkBudget, ops: LineOp[]): void {
  if (a.hi === a.lo || b.hi === b.lo) return replaceAll(a, b, ops);
  const size = a.hi - a.lo + (b.hi - b.lo);
  // A small range gets what its worst case needs. A large one gets enough for a few changes and
  // at most half of what is left, so the unique-line pass can still be paid for after it.
  const cap = size * size <= budget.left / 2 ? size * size + 64 : Math.min(Math.floor(budget.left / 2), 4 * size + 65536);
  const script = myersDiff(a, b, budget, cap);
  if (script) {
    for (const op of script) pushOp(ops, op.kind, op.count);
    return;
  }
  diffByUniqueLines(a, b, budget, ops);
}

/** Patience step: match the lines unique to both ranges, then diff the gaps between them. */
function diffByUniqueLines(a: LineRange, b: LineRange, budget: WorkBudget, ops: LineOp[]): void {
  let { lo: aLo, hi: aHi } = a;
  let { lo: bLo, hi: bHi } = b;
  while (aLo < aHi && bLo < bHi && a.lines[aLo] === b.lines[bLo]) aLo++, bLo++;
  let tail = 0;
  while (aHi > aLo && bHi > bLo && a.lines[aHi - 1] === b.lines[bHi - 1]) aHi--, bHi--, tail++;
  pushOp(ops, "equal", aLo - a.lo);
  const inner = (lines: readonly string[], lo: number, hi: number): LineRange => ({ lines, lo, hi });
  const midA = inner(a.lines, aLo, aHi);
  const midB = inner(b.lines, bLo, bHi);
  const cost = HASH_COST * (aHi - aLo + (bHi - bLo));
  const anchors = aLo < aHi && bLo < bHi && cost <= budget.left ? uniqueAnchors(midA, midB, budget, cost) : undefined;
  if (!anchors?.a.length) {
    replaceAll(midA, midB, ops);
  } else {
    let ai = aLo;
    let bi = bLo;
    for (let k = 0; k < anchors.a.length; k++) {
      diffGap(inner(a.lines, ai, anchors.a[k]!), inner(b.lines, bi, anchors.b[k]!), budget, ops);
      pushOp(ops, "equal", 1);
      ai = anchors.a[k]! + 1;
      bi = anchors.b[k]! + 1;
    }
    diffGap(inner(a.lines, ai, aHi), inner(b.lines, bi, bHi), budget, ops);
  }
  pushOp(ops, "equal", tail);
}

/** Diffs the gap between two anchors; most are a line or two and need no search at all. */
function diffGap(a: LineRange, b: LineRange, budget: WorkBudget, ops: LineOp[]): void {
  if (a.hi - a.lo <= 1 && b.hi - b.lo <= 1) {
    if (a.hi > a.lo && b.hi > b.lo && a.lines[a.lo] === b.lines[b.lo]) return pushOp(ops, "equal", 1);
    return replaceAll(a, b, ops);
  }
  diffRange(a, b, budget, ops);
}

/** The whole of `a` removed and the whole of `b` added. */
function replaceAll(a: LineRange, b: LineRange, ops: LineOp[]): void {
  pushOp(ops, "removed", a.hi - a.lo);
  pushOp(ops, "added", b.hi - b.lo);
}

/** Index of each line that occurs once in the range, -1 for lines that occur more often. */
function uniqueIndex(r: LineRange): Map<string, number> {
  const seen = new Map<string, number>();
  for (let i = r.lo; i < r.hi; i++) {
    const line = r.lines[i]!;
    seen.set(line, seen.has(line) ? -1 : i);
  }
  return seen;
}

/** Matched lines: `a[k]` in the old range is `b[k]` in the new one, both increasing. */
interface Anchors {
  a: Int32Array;
  b: Int32Array;
}

/**
 * Lines that occur exactly once in each range, matched, increasing in both: the longest such
 * chain (patience sorting), so no anchor crosses another.
 */
function uniqueAnchors(a: LineRange, b: LineRange, budget: WorkBudget, cost: number): Anchors {
  budget.left -= cost;
  const inA = uniqueIndex(a);
  // Only lines unique in `a` can anchor, so only those are counted in `b` (none, for a rewrite).
  const inB = new Map<string, number>();
  for (let j = b.lo; j < b.hi; j++) {
    const line = b.lines[j]!;
    if ((inA.get(line) ?? -1) >= 0) inB.set(line, inB.has(line) ? -1 : j);
  }
  const pairA: number[] = [];
  const pairB: number[] = [];
  for (let j = b.lo; j < b.hi; j++) {
    const line = b.lines[j]!;
    if (inB.get(line) === j) pairA.push(inA.get(line)!), pairB.push(j);
  }
  return longestIncreasing(pairA, pairB);
}

/** The longest chain of pairs (in order of `pairB`, which increases) whose `pairA` also increases. */
function longestIncreasing(pairA: number[], pairB: number[]): Anchors {
  // tops[k]: the pair with the smallest a that ends an increasing chain of length k + 1.
  const tops: number[] = [];
  const before = new Int32Array(pairA.length);
  for (let p = 0; p < pairA.length; p++) {
    let lo = 0;
    let hi = tops.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (pairA[tops[mid]!]! < pairA[p]!) lo = mid + 1;
      else hi = mid;
    }
    before[p] = lo > 0 ? tops[lo - 1]! : -1;
    tops[lo] = p;
  }
  const chain = { a: new Int32Array(tops.length), b: new Int32Array(tops.length) };
  for (let k = tops.length - 1, p = tops.length ? tops[k]! : -1; p !== -1; k--, p = before[p]!) {
    chain.a[k] = pairA[p]!;
    chain.b[k] = pairB[p]!;
  }
  return chain;
}
