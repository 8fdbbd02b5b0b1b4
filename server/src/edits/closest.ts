/**
 * Finds the region of a file that looks most like a target that matched nowhere, so a failed edit
 * can show the model what is really there (usually the target was written from memory and one
 * line is off). Only runs on the failure path, but still has to cope with large files: it compares
 * each file line once per sampled target line using hashed sets of character bigrams.
 */

/** The part of a file most similar to a target that was not found. */
export interface ClosestRegion {
  /** 1-based first line. */
  startLine: number;
  /** 1-based last line (inclusive). */
  endLine: number;
  /** The region's lines (bodies, without terminators), joined with `\n`. */
  text: string;
  /**
   * 0..1, how alike the region and the target are as written: the mean bigram (Dice) similarity of
   * each region line to the target line at its position, whitespace included. 1 only when they are
   * the same text, so no error calls a region that was refused "100% similar".
   */
  similarity: number;
}

/** Comparing more target lines than this adds cost but rarely changes which region wins. */
const MAX_SAMPLED_LINES = 16;

/**
 * Bigram sets are kept as fixed-size bitsets (bigrams hashed into 1024 bits): far cheaper than
 * `Set`s on a file of a hundred thousand lines, and the rare hash collision only blurs a score
 * that is a hint anyway.
 */
const WORDS = 32;

/**
 * Fills `bits` with the hashed character bigrams of a line, as if it were trimmed, its inner
 * whitespace runs collapsed to one space and a space added at each end (so short lines and line
 * edges count). Done in one pass without building that string: this runs once per file line.
 */
function bigrams(line: string, bits: Uint32Array): number {
  bits.fill(0);
  let prev = 32;
  let pendingSpace = false;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 32 || c === 9 || c === 13 || c === 10 || c === 11 || c === 12 || c === 0xa0) {
      pendingSpace = prev !== 32;
      continue;
    }
    if (pendingSpace) {
      addBigram(bits, prev, 32);
      prev = 32;
      pendingSpace = false;
    }
    addBigram(bits, prev, c);
    prev = c;
  }
  if (prev !== 32) addBigram(bits, prev, 32);
  return popcountAll(bits);
}

function addBigram(bits: Uint32Array, a: number, b: number): void {
  const h = (Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca6b)) >>> 22;
  bits[h >>> 5]! |= 1 << (h & 31);
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

function popcountAll(bits: Uint32Array): number {
  let n = 0;
  for (let w = 0; w < WORDS; w++) n += popcount(bits[w]!);
  return n;
}

/** Dice coefficient of two bigram bitsets with known sizes. */
function dice(a: Uint32Array, aSize: number, b: Uint32Array, bSize: number): number {
  let shared = 0;
  for (let w = 0; w < WORDS; w++) shared += popcount(a[w]! & b[w]!);
  return (2 * shared) / (aSize + bSize);
}

/** Which target lines to compare: non-blank ones, evenly thinned out to a fixed budget. */
function sampleTargetLines(target: readonly string[]): number[] {
  const nonBlank = target.map((_, i) => i).filter((i) => target[i]!.trim() !== "");
  if (nonBlank.length <= MAX_SAMPLED_LINES) return nonBlank;
  const step = nonBlank.length / MAX_SAMPLED_LINES;
  return Array.from({ length: MAX_SAMPLED_LINES }, (_, k) => nonBlank[Math.floor(k * step)]!);
}

/**
 * The window of `targetLines.length` consecutive file lines whose lines are, position by
 * position, most similar to the target's lines. Returns undefined when the file is empty or
 * nothing in it resembles the target at all.
 *
 * @param fileLines the file's line bodies (without terminators)
 * @param targetLines the target's line bodies
 */
export function findClosestRegion(
  fileLines: readonly string[],
  targetLines: readonly string[],
): ClosestRegion | undefined {
  const n = fileLines.length;
  if (n === 0 || targetLines.length === 0) return undefined;
  const k = Math.min(targetLines.length, n);
  const sampled = sampleTargetLines(targetLines.slice(0, k));
  if (sampled.length === 0) return undefined;
  const targetSets = sampled.map((j) => {
    const bits = new Uint32Array(WORDS);
    return { bits, size: bigrams(targetLines[j]!, bits) };
  });
  const windows = n - k + 1;
  const scores = new Float64Array(windows);
  const scratch = new Uint32Array(WORDS);
  for (let p = 0; p < n; p++) {
    const line = fileLines[p]!;
    const size = bigrams(line, scratch);
    if (size === 0) continue;
    for (let s = 0; s < sampled.length; s++) {
      const w = p - sampled[s]!;
      if (w < 0 || w >= windows) continue;
      const t = targetSets[s]!;
      scores[w]! += dice(scratch, size, t.bits, t.size);
    }
  }
  let best = 0;
  for (let w = 1; w < windows; w++) if (scores[w]! > scores[best]!) best = w;
  if (scores[best]! <= 0) return undefined;
  const region = fileLines.slice(best, best + k);
  return {
    startLine: best + 1,
    endLine: best + k,
    text: region.join("\n"),
    similarity: writtenSimilarity(region, targetLines.slice(0, k)),
  };
}

/**
 * The similarity reported for a region: every line, as written (the window search above samples
 * lines and collapses whitespace to find the region fast; the figure a model reads must describe
 * the text it compared).
 */
function writtenSimilarity(region: readonly string[], target: readonly string[]): number {
  let sum = 0;
  const a = new Uint32Array(WORDS);
  const b = new Uint32Array(WORDS);
  for (let i = 0; i < region.length; i++) {
    const r = region[i]!;
    const t = target[i]!;
    if (r === t) {
      sum += 1;
      continue;
    }
    const sa = rawBigrams(r, a);
    const sb = rawBigrams(t, b);
    // Different texts never score 1: hashed bigram sets can coincide (whitespace runs, repeats).
    sum += sa + sb === 0 ? 0 : Math.min(dice(a, sa, b, sb), 0.99);
  }
  return sum / region.length;
}

/** Like {@link bigrams}, over the line exactly as written (indentation and inner runs kept). */
function rawBigrams(line: string, bits: Uint32Array): number {
  bits.fill(0);
  let prev = 10;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    addBigram(bits, prev, c);
    prev = c;
  }
  addBigram(bits, prev, 10);
  return popcountAll(bits);
}
