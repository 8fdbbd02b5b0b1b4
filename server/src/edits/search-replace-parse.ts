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
 * Delimiters are exactly 7 characters; markers may be padded with whitespace. Inside REPLACE a
 * `=======` line is ordinary text (it can only be content there), so Markdown or reST headings can
 * be written. Text between blocks (prose, code fences, a file name) is ignored; a marker that is out
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
}

/** Parse outcome: the blocks in order, or why the diff is malformed. */
export type ParseBlocksResult = { ok: true; blocks: SearchReplaceBlock[] } | { ok: false; error: string };

const SEARCH_MARKER = /^\s*(?:-{7}|<{7})\s*SEARCH\s*$/;
const DIVIDER_MARKER = /^\s*={7}\s*$/;
const REPLACE_MARKER = /^\s*(?:\+{7}|>{7})\s*REPLACE\s*$/;
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
    if (state === "outside") {
      if (SEARCH_MARKER.test(line)) {
        current = { index: blocks.length + 1, diffLine: i + 1, search: [], replace: [] };
        state = "search";
      } else if (DIVIDER_MARKER.test(line) || REPLACE_MARKER.test(line)) {
        return fail(`Block ${blocks.length + 1}: "${line.trim()}" at ${where} has no SEARCH marker before it.`);
      }
      continue;
    }
    const block = current!;
    if (state === "search") {
      if (DIVIDER_MARKER.test(line)) state = "replace";
      else if (SEARCH_MARKER.test(line) || REPLACE_MARKER.test(line)) {
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
