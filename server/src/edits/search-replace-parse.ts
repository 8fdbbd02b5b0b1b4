/**
 * Parses replace_in_file's SEARCH/REPLACE blocks:
 *
 * ```
 * ------- SEARCH          (or <<<<<<< SEARCH)
 * lines to find
 * =======
 * lines to write
 * +++++++ REPLACE         (or >>>>>>> REPLACE)
 * ```
 *
 * Markers are tolerated as other agents' models write them: 5 to 9 marker characters (`-` or `<`
 * before SEARCH, `=` for the divider, `+`, `>` or `-` before REPLACE), a stray `>` after the word,
 * whitespace around. Inside REPLACE a divider line is ordinary text (it can only be content there),
 * so Markdown or reST headings can be written; inside SEARCH a divider of other than 7 `=` is text
 * when a 7-character divider follows. Roo's `:start_line:N` hint (with the `-------` line after it)
 * at the top of SEARCH is taken as where to start looking, and never written; one at the top of
 * REPLACE is dropped. A line that looks like a marker but is not one is an error naming that line. Text between blocks (prose, code fences, a file name) is ignored; a marker that is out
 * of place is an error, because it means a block was cut or merged and guessing would edit the
 * wrong lines.
 */

/** One parsed block. */
export interface SearchReplaceBlock {
  /** 1-based position of the block in the diff, used in every message about it. */
  index: number;
  /** 1-based line of the diff where the block's SEARCH marker is. */
  diffLine: number;
  /** SEARCH lines (bodies), including any `....... SKIP` marker lines. */
  search: string[];
  /** REPLACE lines (bodies), written verbatim. */
  replace: string[];
  /** A `:start_line:N` hint: SEARCH is looked for from this 1-based line on. */
  startLine?: number;
}

/** Parse outcome: the blocks in order, or why the diff is malformed. */
export type ParseBlocksResult = { ok: true; blocks: SearchReplaceBlock[] } | { ok: false; error: string };

const SEARCH_MARKER = /^\s*(?:-{5,9}|<{5,9})\s*SEARCH\s*>?\s*$/;
const DIVIDER_MARKER = /^\s*={5,9}\s*$/;
const STRICT_DIVIDER = /^\s*={7}\s*$/;
const REPLACE_MARKER = /^\s*(?:\+{5,9}|>{5,9}|-{5,9})\s*REPLACE\s*>?\s*$/;
/** Marker characters and a marker word, but not a marker: said as such rather than taken as text. */
const NEAR_MISS = /^\s*(?:[-<>+=]{2,}\s*(?:SEARCH|REPLACE)\b.*|(?:SEARCH|REPLACE)\s*[-<>+=]{2,}\s*)$/;
const START_LINE_HINT = /^\s*:start_line:\s*(\d+)\s*$/;
const END_LINE_HINT = /^\s*:end_line:\s*\d+\s*$/;
const HINT_SEPARATOR = /^\s*-{5,9}\s*$/;
const SKIP_MARKER = /^\s*\.{7}\s+SKIP\s*$/;

/** The expected shape, shown with every format error so the model can fix its output. */
const FORMAT_HINT = "Each block is:\n------- SEARCH\n<lines to find>\n=======\n<replacement lines>\n+++++++ REPLACE";

/** True for a `....... SKIP` line (seven dots, then SKIP). */
export function isSkipMarker(line: string): boolean {
  return SKIP_MARKER.test(line);
}

/** Splits a replace_in_file `diff` into its blocks. */
export function parseSearchReplace(diff: string): ParseBlocksResult {
  const lines = diff.split(/\r?\n/);
  const blocks: SearchReplaceBlock[] = [];
  let state: "outside" | "search" | "replace" = "outside";
  let current: SearchReplaceBlock | undefined;
  const fail = (msg: string): ParseBlocksResult => ({ ok: false, error: `${msg}\n${FORMAT_HINT}` });
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const where = `line ${i + 1} of the diff`;
    const marker = SEARCH_MARKER.test(line) || REPLACE_MARKER.test(line) || DIVIDER_MARKER.test(line);
    if (!marker && NEAR_MISS.test(line) && state !== "replace") {
      return fail(`${where}, "${line.trim()}", looks like a marker but is not one (markers are 5 to 9 of the same character, then SEARCH or REPLACE).`);
    }
    if (state === "outside") {
      if (SEARCH_MARKER.test(line)) {
        current = { index: blocks.length + 1, diffLine: i + 1, search: [], replace: [] };
        i = takeHints(lines, i + 1, current) - 1;
        state = "search";
      } else if (DIVIDER_MARKER.test(line) || REPLACE_MARKER.test(line)) {
        return fail(`Block ${blocks.length + 1}: "${line.trim()}" at ${where} has no SEARCH marker before it.`);
      }
      continue;
    }
    const block = current!;
    if (state === "search") {
      if (DIVIDER_MARKER.test(line) && !(STRICT_DIVIDER.test(line) === false && strictDividerAhead(lines, i + 1))) {
        state = "replace";
        if (START_LINE_HINT.test(lines[i + 1] ?? "")) i++;
      } else if (SEARCH_MARKER.test(line) || REPLACE_MARKER.test(line)) {
        return fail(`Block ${block.index}: "${line.trim()}" at ${where} comes before the ======= divider.`);
      } else block.search.push(line);
      continue;
    }
    if (REPLACE_MARKER.test(line)) {
      blocks.push(block);
      state = "outside";
    } else if (SEARCH_MARKER.test(line)) {
      return fail(`Block ${block.index}: a new SEARCH marker at ${where} before this block's +++++++ REPLACE marker.`);
    } else block.replace.push(line);
  }
  if (state !== "outside") {
    const missing = state === "search" ? "its ======= divider and +++++++ REPLACE marker" : "its +++++++ REPLACE marker";
    return fail(`Block ${current!.index} (starting at line ${current!.diffLine} of the diff) is missing ${missing}.`);
  }
  if (blocks.length === 0) return fail("The diff contains no SEARCH/REPLACE blocks.");
  return { ok: true, blocks };
}

/**
 * Reads Roo's hint lines at the top of SEARCH (`:start_line:N`, `:end_line:N`, then a `-------`
 * line) into the block; returns the index of the first SEARCH line after them.
 */
function takeHints(lines: readonly string[], from: number, block: SearchReplaceBlock): number {
  let i = from;
  let hinted = false;
  for (; i < lines.length; i++) {
    const start = START_LINE_HINT.exec(lines[i]!);
    if (start) block.startLine = Number(start[1]);
    else if (!END_LINE_HINT.test(lines[i]!)) break;
    hinted = true;
  }
  if (hinted && HINT_SEPARATOR.test(lines[i] ?? "")) i++;
  return i;
}

/** Whether a 7-character divider comes before the block's end (so a looser one above it is text). */
function strictDividerAhead(lines: readonly string[], from: number): boolean {
  for (let i = from; i < lines.length; i++) {
    if (REPLACE_MARKER.test(lines[i]!) || SEARCH_MARKER.test(lines[i]!)) return false;
    if (STRICT_DIVIDER.test(lines[i]!)) return true;
  }
  return false;
}
