/**
 * The shape every line diff in edits/ produces: a script of runs of kept, removed and added
 * lines that turns the old lines into the new ones, in order.
 */

/** A run of lines: kept (in both texts), removed (old only) or added (new only). */
export interface LineOp {
  kind: "equal" | "removed" | "added";
  count: number;
}

/** Appends a run, merging it into the last one when both are of the same kind. */
export function pushOp(ops: LineOp[], kind: LineOp["kind"], count: number): void {
  if (count <= 0) return;
  const last = ops[ops.length - 1];
  if (last && last.kind === kind) last.count += count;
  else ops.push({ kind, count });
}

/**
 * Splits a text into lines that keep their terminator (`\n`, `\r\n`, or none on the last line),
 * the tokens the `diff` package's line diff uses, so both compare the same lines.
 */
export function splitLines(text: string): string[] {
  const lines: string[] = [];
  let p = 0;
  while (p < text.length) {
    const nl = text.indexOf("\n", p);
    const end = nl === -1 ? text.length : nl + 1;
    lines.push(text.slice(p, end));
    p = end;
  }
  return lines;
}

/**
 * Work a line diff may still do, in rough units of one line comparison. Shared by every step of
 * one diff and spent as it goes, so a diff of any input ends within a known time.
 */
export interface WorkBudget {
  left: number;
}

/** A range of lines: `lines[lo..hi)`. */
export interface LineRange {
  lines: readonly string[];
  lo: number;
  hi: number;
}
