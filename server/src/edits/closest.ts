/**
 * Finds the region of a file that looks most like a target that matched nowhere, so a failed edit
 * can show the model what is really there (usually the target was written from memory and one
 * line is off). Only runs on the failure path, but still has to cope with large files: it compares
 * each file line once per sampled target line using sets of character bigrams.
 */

/** The part of a file most similar to a target that was not found. */
export interface ClosestRegion {
  /** 1-based first line. */
  startLine: number;
  /** 1-based last line (inclusive). */
  endLine: number;
  /** The region's lines (bodies, without terminators), joined with `\n`. */
  text: string;
  /** 0..1, the mean bigram (Dice) similarity of the region's lines to the target's lines. */
  similarity: number;
}

/** Comparing more target lines than this adds cost but rarely changes which region wins. */
const MAX_SAMPLED_LINES = 16;

/** The set of character bigrams of a line, as numbers, whitespace-insensitive at the ends. */
function bigrams(line: string): Set<number> {
  const s = ` ${line.trim().replace(/\s+/g, " ")} `;
  const set = new Set<number>();
  for (let i = 0; i + 1 < s.length; i++) set.add(s.charCodeAt(i) * 65536 + s.charCodeAt(i + 1));
  return set;
}

/** Dice coefficient of two bigram sets. */
function dice(a: Set<number>, b: Set<number>): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let shared = 0;
  for (const x of small) if (large.has(x)) shared++;
  return (2 * shared) / (a.size + b.size);
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
  const targetSets = sampled.map((j) => bigrams(targetLines[j]!));
  const windows = n - k + 1;
  const scores = new Float64Array(windows);
  for (let p = 0; p < n; p++) {
    const line = fileLines[p]!;
    if (line.trim() === "") continue;
    const set = bigrams(line);
    for (let s = 0; s < sampled.length; s++) {
      const w = p - sampled[s]!;
      if (w < 0 || w >= windows) continue;
      scores[w]! += dice(set, targetSets[s]!);
    }
  }
  let best = 0;
  for (let w = 1; w < windows; w++) if (scores[w]! > scores[best]!) best = w;
  const similarity = scores[best]! / sampled.length;
  if (similarity <= 0) return undefined;
  return {
    startLine: best + 1,
    endLine: best + k,
    text: fileLines.slice(best, best + k).join("\n"),
    similarity,
  };
}
