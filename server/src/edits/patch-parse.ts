/**
 * apply_patch parsing: recognises the format and turns it into {@link PatchOp}s.
 *
 * (a) The `*** Begin Patch` envelope:
 * ```
 * *** Begin Patch
 * *** Add File: path        then `+` lines
 * *** Delete File: path
 * *** Update File: path
 * *** Move to: new/path     (optional)
 * @@ class Foo              (optional anchors, stackable; bare `@@` separates hunks)
 *  context / -removed / +added
 * *** End of File           (optional: the hunk ends at the end of the file)
 * *** End Patch
 * ```
 * Markers may be padded with whitespace; a missing `*** End Patch` is tolerated (the text ends
 * there anyway). (b) Plain unified diffs are handled in patch-unified.ts. (c) OpenAI's native
 * apply_patch operations carry the envelope's per-file body and go through the same hunk parser.
 */
import { parseUnifiedDiff } from "./patch-unified.js";
import { buildHunk, isHunkLine, type Hunk, type ParsePatchResult, type PatchOp } from "./patch-types.js";

export type { Hunk, HunkLine, ParsePatchResult, PatchOp } from "./patch-types.js";

/** One operation of OpenAI's native apply_patch tool. `diff` is the V4A body of that file. */
export interface V4AOperation {
  type: "create_file" | "update_file" | "delete_file";
  path: string;
  diff?: string;
}

const BEGIN = "*** Begin Patch";
const END = "*** End Patch";
const ADD = "*** Add File:";
const DELETE = "*** Delete File:";
const UPDATE = "*** Update File:";
const MOVE = "*** Move to:";
const END_OF_FILE = "*** End of File";
/** A unified hunk header used inside the envelope: its numbers are a location hint, not an anchor. */
const RANGE_HEADER = /^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@/;

/** Parses an apply_patch `patch` in either format. */
export function parsePatch(text: string): ParsePatchResult {
  const lines = stripFences(text.split(/\r?\n/));
  if (lines.every((l) => l.trim() === "")) return { ok: false, error: "The patch is empty." };
  const first = lines.find((l) => l.trim() !== "")!.trim();
  const envelope = lines.some((l) => l.trim() === BEGIN) || [ADD, DELETE, UPDATE].some((m) => first.startsWith(m));
  const parsed = envelope
    ? parseEnvelope(lines)
    : lines.some((l) => /^(--- |\+\+\+ |@@ |diff --git )/.test(l))
      ? parseUnifiedDiff(lines.join("\n"))
      : {
          ok: false as const,
          error:
            'Unrecognised patch format. Use the "*** Begin Patch" envelope (*** Update File: path, @@ hunks, ' +
            "*** End Patch) or a unified diff (--- a/path, +++ b/path, @@ -1,2 +1,2 @@).",
        };
  if (parsed.ok && parsed.ops.length === 0) return { ok: false, error: "The patch is empty: it contains no file operations." };
  return parsed;
}

/** Drops a Markdown code fence around the whole patch, which models often add. */
function stripFences(lines: string[]): string[] {
  const nonBlank = lines.map((l, i) => (l.trim() === "" ? -1 : i)).filter((i) => i >= 0);
  if (nonBlank.length < 2) return lines;
  const a = nonBlank[0]!;
  const b = nonBlank[nonBlank.length - 1]!;
  if (lines[a]!.trim().startsWith("```") && lines[b]!.trim() === "```") return lines.slice(a + 1, b);
  return lines;
}

/** True for a line that starts the next file section or ends the patch. */
function isSectionEnd(line: string): boolean {
  const t = line.trim();
  return t === END || t.startsWith(ADD) || t.startsWith(DELETE) || t.startsWith(UPDATE);
}

/** Parses the envelope format (lines already split). */
function parseEnvelope(lines: readonly string[]): ParsePatchResult {
  const ops: PatchOp[] = [];
  const begin = lines.findIndex((l) => l.trim() === BEGIN);
  let i = begin + 1;
  while (i < lines.length) {
    const line = lines[i]!;
    const t = line.trim();
    if (t === END) break;
    if (t === "") {
      i++;
      continue;
    }
    const section = readSection(lines, i + 1);
    const path = t.slice(t.indexOf(":") + 1).trim();
    const where = `line ${i + 1} of the patch`;
    if ((t.startsWith(ADD) || t.startsWith(DELETE) || t.startsWith(UPDATE)) && path === "") {
      return { ok: false, error: `"${t}" at ${where} names no file.` };
    }
    if (t.startsWith(ADD)) {
      const content = parseAddBody(section, path, i + 2);
      if (typeof content !== "string") return content;
      ops.push({ type: "add", path, content });
    } else if (t.startsWith(DELETE)) {
      ops.push({ type: "delete", path });
    } else if (t.startsWith(UPDATE)) {
      const op = parseUpdateBody(section, path, i + 2);
      if (!("type" in op)) return op;
      ops.push(op);
    } else {
      return {
        ok: false,
        error: `Unexpected "${t}" at ${where}: expected "*** Add File:", "*** Update File:", "*** Delete File:" or "*** End Patch".`,
      };
    }
    i += 1 + section.length;
  }
  return { ok: true, ops };
}

/** The lines of one file section: up to the next section marker or the end of the patch. */
function readSection(lines: readonly string[], from: number): string[] {
  let end = from;
  while (end < lines.length && !isSectionEnd(lines[end]!)) end++;
  return lines.slice(from, end);
}

/** An Add File body: every line starts with `+`. Returns the content or an error. */
function parseAddBody(body: readonly string[], path: string, firstLineNo: number): string | { ok: false; error: string } {
  const lines = trimTrailingBlank(body);
  const content: string[] = [];
  for (let j = 0; j < lines.length; j++) {
    const line = lines[j]!;
    if (line.trim() === END_OF_FILE) continue;
    if (line === "") content.push("");
    else if (line.startsWith("+")) content.push(line.slice(1));
    else {
      return { ok: false, error: `Add File ${path}: line ${firstLineNo + j} of the patch must start with "+" (every line of a new file does).` };
    }
  }
  return content.length === 0 ? "" : content.join("\n") + "\n";
}

function trimTrailingBlank(lines: readonly string[]): readonly string[] {
  let end = lines.length;
  while (end > 0 && lines[end - 1]!.trim() === "") end--;
  return lines.slice(0, end);
}

/** An Update File body: optional `*** Move to:`, then hunks. */
function parseUpdateBody(
  body: readonly string[],
  path: string,
  firstLineNo: number,
): Extract<PatchOp, { type: "update" }> | { ok: false; error: string } {
  let moveTo: string | undefined;
  let start = 0;
  while (start < body.length && body[start]!.trim() === "") start++;
  if (start < body.length && body[start]!.trim().startsWith(MOVE)) {
    moveTo = body[start]!.trim().slice(MOVE.length).trim();
    if (moveTo === "") return { ok: false, error: `Update File ${path}: "*** Move to:" names no file.` };
    start++;
  }
  const hunks = parseHunks(body.slice(start), `Update File ${path}`, firstLineNo + start);
  if (!Array.isArray(hunks)) return hunks;
  if (hunks.length === 0 && moveTo === undefined) {
    return { ok: false, error: `Update File ${path} has no hunks: add lines starting with " ", "-" or "+".` };
  }
  return moveTo === undefined || moveTo === path ? { type: "update", path, hunks } : { type: "update", path, moveTo, hunks };
}

/**
 * Splits a file body into hunks. `@@` lines start a hunk (consecutive ones stack their anchors);
 * the first hunk may omit its `@@`.
 */
function parseHunks(body: readonly string[], label: string, firstLineNo: number): Hunk[] | { ok: false; error: string } {
  const hunks: Hunk[] = [];
  let current: { raw: string[]; extras: Partial<Hunk> & { anchors: string[] } } | undefined;
  const flush = () => {
    if (current) hunks.push(buildHunk(current.raw, current.extras));
    current = undefined;
  };
  for (let j = 0; j < body.length; j++) {
    const line = body[j]!;
    const t = line.trim();
    if (t.startsWith("@@")) {
      if (!current || current.raw.some((l) => l !== "")) {
        flush();
        current = { raw: [], extras: { anchors: [] } };
      }
      // Stacked anchors: blank lines between two @@ lines are spacing, not context.
      current.raw.length = 0;
      const range = RANGE_HEADER.exec(t);
      if (range) current.extras.oldStart = Math.max(1, Number(range[1]) + (range[2] === "0" ? 1 : 0));
      else if (t.length > 2) current.extras.anchors.push(t.slice(2).replace(/^ /, "").trimEnd());
    } else if (t === END_OF_FILE) {
      if (!current) return { ok: false, error: `${label}: "*** End of File" at line ${firstLineNo + j} of the patch follows no hunk.` };
      current.extras.endOfFile = true;
      flush();
    } else if (isHunkLine(line)) {
      if (!current && line === "") continue;
      current ??= { raw: [], extras: { anchors: [] } };
      current.raw.push(line);
    } else {
      return {
        ok: false,
        error: `${label}: line ${firstLineNo + j} of the patch ("${line}") must start with " " (context), "-" (remove) or "+" (add), or be an @@ line.`,
      };
    }
  }
  flush();
  const empty = hunks.findIndex((h) => h.lines.length === 0);
  if (empty !== -1) return { ok: false, error: `${label}: hunk ${empty + 1} has no lines.` };
  return hunks;
}

/**
 * Converts one operation of OpenAI's native apply_patch tool into the same parsed form as a
 * `*** Begin Patch` section: `create_file`'s diff is the `+` lines of the new file, `update_file`'s
 * is the hunks, `delete_file` needs none.
 */
export function parseV4AOperation(op: V4AOperation): ParsePatchResult {
  const path = op.path.trim();
  if (path === "") return { ok: false, error: `${op.type}: the path is empty.` };
  const lines = (op.diff ?? "").split(/\r?\n/);
  switch (op.type) {
    case "delete_file":
      return { ok: true, ops: [{ type: "delete", path }] };
    case "create_file": {
      const content = parseAddBody(lines, path, 1);
      return typeof content === "string" ? { ok: true, ops: [{ type: "add", path, content }] } : content;
    }
    case "update_file": {
      const update = parseUpdateBody(lines, path, 1);
      return "type" in update ? { ok: true, ops: [update] } : update;
    }
    default:
      return { ok: false, error: `Unknown apply_patch operation type "${(op as { type: string }).type}".` };
  }
}
