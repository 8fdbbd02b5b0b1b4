/**
 * The parsed form every patch format is turned into (the `*** Begin Patch` envelope, unified
 * diffs, OpenAI's native apply_patch operations), and the one helper that builds hunks from
 * prefixed lines, so all formats treat `\ No newline at end of file` and blank lines alike.
 */

/** One line of a hunk: context (` `), removed (`-`) or added (`+`), without its prefix. */
export interface HunkLine {
  op: " " | "-" | "+";
  text: string;
}

/** A change to one region of a file. */
export interface Hunk {
  /**
   * Lines that must be found, in this order, before the hunk's context (`@@ class Foo`, then
   * `@@ def bar():`): they pick the right one of several identical blocks.
   */
  anchors: string[];
  lines: HunkLine[];
  /** `*** End of File` (or a no-newline marker): the hunk's old lines end at the end of the file. */
  endOfFile: boolean;
  /** Unified diffs: the 1-based line where the old lines start, as the header states it (a hint). */
  oldStart?: number;
  /**
   * Set when a `\ No newline at end of file` marker says whether the new file ends with a line
   * break; undefined keeps the file's own choice.
   */
  finalNewline?: boolean;
}

/** One file operation of a patch. */
export type PatchOp =
  | { type: "add"; path: string; content: string }
  | { type: "delete"; path: string }
  | { type: "update"; path: string; moveTo?: string; hunks: Hunk[] };

/** The outcome of parsing a patch. */
export type ParsePatchResult = { ok: true; ops: PatchOp[] } | { ok: false; error: string };

/** The old-side lines of a hunk: what must be found in the file. */
export function oldLinesOf(hunk: Hunk): string[] {
  return hunk.lines.filter((l) => l.op !== "+").map((l) => l.text);
}

/**
 * Builds a hunk from its raw prefixed lines. An empty raw line is an empty context line (models
 * and some editors drop the lone space), and trailing empty lines are dropped, since they are
 * nearly always the blank line between two files rather than context. `\` lines are the
 * no-newline markers of unified diffs: after a removed or context line the old file ended without
 * a line break there, after an added or context line the new one does.
 */
export function buildHunk(raw: readonly string[], extras: Partial<Hunk> = {}): Hunk {
  const lines: HunkLine[] = [];
  let pendingBlank = 0;
  let oldNoEol = false;
  let newNoEol = false;
  for (const line of raw) {
    if (line === "") {
      pendingBlank++;
      continue;
    }
    if (line.startsWith("\\")) {
      const prev = lines[lines.length - 1];
      if (prev && prev.op !== "+") oldNoEol = true;
      if (prev && prev.op !== "-") newNoEol = true;
      continue;
    }
    for (; pendingBlank > 0; pendingBlank--) lines.push({ op: " ", text: "" });
    lines.push({ op: line[0] as HunkLine["op"], text: line.slice(1) });
  }
  const hunk: Hunk = { anchors: [], lines, endOfFile: false, ...extras };
  if (oldNoEol || newNoEol) {
    hunk.endOfFile = true;
    hunk.finalNewline = !newNoEol;
  }
  return hunk;
}

/** True when a raw line can be part of a hunk body. */
export function isHunkLine(line: string): boolean {
  return line === "" || " -+\\".includes(line[0]!);
}
