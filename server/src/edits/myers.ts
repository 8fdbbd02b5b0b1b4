/**
 * Myers' O(ND) line diff with a work limit. It takes the same steps as the `diff` package's
 * diffLines (same diagonal order, same choice between an insertion and a removal, same pruning at
 * the edges), so a normal edit produces exactly the hunks it always did; unlike that package it
 * stops when the limit is spent instead of running for minutes on texts that share little
 * (its cost grows with the product of the size and the number of changed lines).
 *
 * Each step of the search is a "visit": a removal or insertion from the best path on a
 * neighbouring diagonal followed by the run of equal lines after it. Visits are kept in flat
 * typed arrays (predecessor, position reached, kind) so memory stays small and the path is
 * rebuilt by walking predecessors back from the end.
 */
import { pushOp, type LineOp, type LineRange, type WorkBudget } from "./line-ops.js";

const NONE = -1;
const ROOT = 0;
const REMOVED = 1;
const ADDED = 2;

/** The visits made so far. */
class Visits {
  prev = new Int32Array(1024);
  oldPos = new Int32Array(1024);
  kind = new Uint8Array(1024);
  size = 0;

  /** Empties the store for the next diff; one that grew large is let go rather than kept. */
  reset(): this {
    this.size = 0;
    if (this.prev.length > 1 << 20) Object.assign(this, new Visits());
    return this;
  }

  add(prev: number, oldPos: number, kind: number): number {
    if (this.size === this.prev.length) this.grow();
    const id = this.size++;
    this.prev[id] = prev;
    this.oldPos[id] = oldPos;
    this.kind[id] = kind;
    return id;
  }

  private grow(): void {
    const n = this.prev.length * 2;
    const prev = new Int32Array(n);
    const oldPos = new Int32Array(n);
    const kind = new Uint8Array(n);
    prev.set(this.prev);
    oldPos.set(this.oldPos);
    kind.set(this.kind);
    Object.assign(this, { prev, oldPos, kind });
  }
}

/** One store for every call: a patience diff runs Myers on thousands of small gaps. */
const shared = new Visits();

/**
 * The shortest edit script from `a` to `b` (both ranges of lines), or undefined when finding it
 * would cost more than `maxWork`. What it spends is taken from `budget` either way.
 */
export function myersDiff(a: LineRange, b: LineRange, budget: WorkBudget, maxWork: number): LineOp[] | undefined {
  const oldLen = a.hi - a.lo;
  const newLen = b.hi - b.lo;
  const { lines: aLines, lo: aLo } = a;
  const { lines: bLines, lo: bLo } = b;
  const limit = Math.min(maxWork, budget.left);
  const visits = shared.reset();
  // best[d + offset]: the visit furthest along diagonal d (old position minus new position).
  const reach = Math.min(oldLen + newLen, limit) + 2;
  const offset = reach;
  const best = new Int32Array(2 * reach + 1).fill(NONE);
  let o = -1;
  while (o + 1 < oldLen && o + 1 < newLen && aLines[aLo + o + 1] === bLines[bLo + o + 1]) o++;
  let work = o + 2;
  best[offset] = visits.add(NONE, o, ROOT);
  if (o + 1 >= oldLen && o + 1 >= newLen) {
    budget.left -= work;
    return rebuild(visits, best[offset]!);
  }
  // Integers, not ±Infinity, so the loop stays on small-integer arithmetic.
  let minDiagonal = -reach;
  let maxDiagonal = reach;
  for (let e = 1; e < reach - 1 && work <= limit; e++) {
    const hi = Math.min(maxDiagonal, e);
    for (let d = Math.max(minDiagonal, -e); d <= hi; d += 2) {
      work++;
      const remove = best[d - 1 + offset]!;
      const add = best[d + 1 + offset]!;
      // A path is extended once; clearing it keeps later rounds from reading a stale one.
      if (remove !== NONE) best[d - 1 + offset] = NONE;
      const addNewPos = add === NONE ? -1 : visits.oldPos[add]! - d;
      const canAdd = add !== NONE && addNewPos >= 0 && addNewPos < newLen;
      const canRemove = remove !== NONE && visits.oldPos[remove]! + 1 < oldLen;
      if (!canAdd && !canRemove) {
        best[d + offset] = NONE;
        continue;
      }
      const byAdding = !canRemove || (canAdd && visits.oldPos[remove]! < visits.oldPos[add]!);
      const from = byAdding ? add : remove;
      o = visits.oldPos[from]! + (byAdding ? 0 : 1);
      let n = o - d;
      const start = o;
      while (o + 1 < oldLen && n + 1 < newLen && aLines[aLo + o + 1] === bLines[bLo + n + 1]) o++, n++;
      work += o - start;
      const id = visits.add(from, o, byAdding ? ADDED : REMOVED);
      if (o + 1 >= oldLen && n + 1 >= newLen) {
        budget.left -= work;
        return rebuild(visits, id);
      }
      best[d + offset] = id;
      if (o + 1 >= oldLen) maxDiagonal = Math.min(maxDiagonal, d - 1);
      if (n + 1 >= newLen) minDiagonal = Math.max(minDiagonal, d + 1);
    }
  }
  budget.left -= work;
  return undefined;
}

/** The edit script of the path that ends at visit `last`. */
function rebuild(visits: Visits, last: number): LineOp[] {
  const reversed: LineOp[] = [];
  for (let id = last; id !== NONE; ) {
    const kind = visits.kind[id]!;
    const prev = visits.prev[id]!;
    const start = kind === ROOT ? -1 : visits.oldPos[prev]! + (kind === REMOVED ? 1 : 0);
    pushOp(reversed, "equal", visits.oldPos[id]! - start);
    if (kind === REMOVED) pushOp(reversed, "removed", 1);
    if (kind === ADDED) pushOp(reversed, "added", 1);
    id = prev;
  }
  const ops: LineOp[] = [];
  for (let i = reversed.length - 1; i >= 0; i--) pushOp(ops, reversed[i]!.kind, reversed[i]!.count);
  return ops;
}
