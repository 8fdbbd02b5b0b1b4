/**
 * The per-line normalisations behind the degrading match steps. Each step is more forgiving than
 * the one before: models copy code with stray trailing spaces, with re-indented lines, or with
 * "smart" punctuation that an editor or a chat UI substituted, and each of these gets its own step
 * so a caller can tell the model how loose the match was.
 */

/** The match steps, strictest first. The first step that finds anything wins. */
export type MatchStep = "exact" | "trailing_whitespace" | "trim" | "unicode" | "inner_whitespace";

/** Every step in the order they are tried. */
export const MATCH_STEPS: readonly MatchStep[] = ["exact", "trailing_whitespace", "trim", "unicode", "inner_whitespace"];

/** The fuzzy steps, which compare line by line (exact compares raw text). */
export const FUZZY_STEPS: readonly MatchStep[] = ["trailing_whitespace", "trim", "unicode", "inner_whitespace"];

/**
 * Steps that count a match only when it is the only one: treating runs of spaces inside a line as
 * equal is loose enough that two places could both match, and then guessing would edit the wrong one.
 */
export const UNIQUE_ONLY_STEPS: ReadonlySet<MatchStep> = new Set(["inner_whitespace"]);

/** How each step is described to a model ("matched ignoring trailing whitespace"). */
export const STEP_DESCRIPTIONS: Readonly<Record<MatchStep, string>> = {
  exact: "exactly",
  trailing_whitespace: "ignoring trailing whitespace",
  trim: "ignoring leading and trailing whitespace",
  unicode: "after Unicode normalisation (quotes, dashes, spaces) and ignoring surrounding whitespace",
  inner_whitespace: "treating runs of spaces and tabs inside lines as equal (after Unicode normalisation)",
};

/**
 * Typographic characters folded to their ASCII look-alikes. NFKC already turns the ellipsis and
 * most odd spaces into ASCII, but not quotes or dashes; they are listed here anyway so the table
 * says in one place what the unicode step forgives.
 */
const FOLDS: ReadonlyArray<[RegExp, string]> = [
  [/[\u2018\u2019\u201A\u201B\u2032\u2035]/g, "'"],
  [/[\u201C\u201D\u201E\u201F\u2033\u2036]/g, '"'],
  [/[\u2010\u2011\u2012\u2013\u2014\u2015\u2212\uFE58\uFE63\uFF0D]/g, "-"],
  [/\u2026/g, "..."],
  [/[\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000]/g, " "],
  // Zero-width characters are invisible in the model's copy, so they must not break a match.
  [/[\u200B\u200C\u200D\u2060\uFEFF]/g, ""],
];

// eslint-disable-next-line no-control-regex
const ASCII_ONLY = /^[\x00-\x7F]*$/;

/** A base character with its combining marks: the unit the unicode fold maps one to one. */
const CLUSTER = /\P{M}\p{M}*|\p{M}+/gu;

/** Folds one cluster: NFKC, then the typographic table. */
function foldCluster(cluster: string): string {
  let s = cluster.normalize("NFKC");
  for (const [re, to] of FOLDS) s = s.replace(re, to);
  return s;
}

/**
 * NFKC plus the typographic folds. Works cluster by cluster (a character with its combining marks)
 * so that {@link foldWithOffsets} can map any position of the result back to the original text;
 * ASCII text is returned as is without any work, which keeps the step fast on source code.
 */
export function foldUnicode(text: string): string {
  if (ASCII_ONLY.test(text)) return text;
  let out = "";
  for (const m of text.matchAll(CLUSTER)) out += foldCluster(m[0]);
  return out;
}

/**
 * Like {@link foldUnicode}, also returning for each folded character the original offsets of the
 * cluster it came from, so a match found in folded text can be turned back into a range of the
 * original. `starts[i]`/`ends[i]` are the original start and end of folded character `i`.
 */
export function foldWithOffsets(text: string): { folded: string; starts: number[]; ends: number[] } {
  const starts: number[] = [];
  const ends: number[] = [];
  let folded = "";
  for (const m of text.matchAll(CLUSTER)) {
    const start = m.index;
    const end = start + m[0].length;
    const f = foldCluster(m[0]);
    for (let i = 0; i < f.length; i++) {
      starts.push(start);
      ends.push(end);
    }
    folded += f;
  }
  return { folded, starts, ends };
}

/**
 * Normalises one line (without terminator) for a step. `\r` is whitespace to `trimEnd`, so a line
 * of a CRLF file compares equal to the same line written with `\n`.
 */
export function normalizeLine(line: string, step: MatchStep): string {
  switch (step) {
    case "exact":
      return line;
    case "trailing_whitespace":
      return line.trimEnd();
    case "trim":
      return line.trim();
    case "unicode":
      return foldUnicode(line).trim();
    case "inner_whitespace":
      return foldUnicode(line).trim().replace(/[ \t]+/g, " ");
  }
}

/** Normalises every line for a step (once per step, never once per candidate). */
export function normalizeLines(lines: readonly string[], step: MatchStep): string[] {
  return step === "exact" ? lines.slice() : lines.map((l) => normalizeLine(l, step));
}

/**
 * Where the normalised text of a line starts inside the original line, for mapping a substring
 * match back. Only the steps that trim the start shift it; the unicode step is mapped separately.
 */
export function leadingTrimmed(line: string, step: MatchStep): number {
  return step === "trim" ? line.length - line.trimStart().length : 0;
}
