/**
 * Unified diff parsing (`--- a/x` / `+++ b/x` / `@@ -a,b +c,d @@`, several files, `/dev/null` for
 * created and deleted files, git's `diff --git` headers and renames).
 *
 * Well-formed diffs go through the `diff` package's `parsePatch`. Diffs written by models often
 * have wrong line counts or bare `@@` headers, which that parser rightly refuses; for those a
 * lenient reader takes over that ends a hunk at the next header instead of counting. Line numbers
 * are only kept as hints: patch-apply.ts locates hunks by their context.
 */
import { parsePatch as parseStructuredPatch } from "diff";
import { buildHunk, isHunkLine, type Hunk, type ParsePatchResult, type PatchOp } from "./patch-types.js";

const DEV_NULL = "/dev/null";

/** One file of a unified diff before it becomes a {@link PatchOp}. */
interface RawFile {
  oldName?: string;
  newName?: string;
  hunks: Hunk[];
  /** git's `new file mode` / `deleted file mode`: a created or deleted file even without hunks. */
  created?: boolean;
  deleted?: boolean;
  /** Names from `diff --git a/x b/y`, used when there are no ---/+++ lines (pure renames). */
  gitOld?: string;
  gitNew?: string;
}

/** Parses a unified diff (lines joined with `\n`). */
export function parseUnifiedDiff(text: string): ParsePatchResult {
  // Git headers the `diff` package does not model (renames, created empty files) go to the
  // lenient reader, which understands them.
  const gitExtras = /^(rename from |rename to |new file mode |deleted file mode )/m.test(text);
  let files: RawFile[] | undefined;
  if (!gitExtras) {
    try {
      files = parseStructuredPatch(text).map((p) => ({
        oldName: p.oldFileName,
        newName: p.newFileName,
        hunks: p.hunks.map((h) => buildHunk(h.lines, { oldStart: h.oldStart })),
      }));
    } catch {
      files = undefined;
    }
  }
  files ??= readLenient(text.split("\n"));
  const ops: PatchOp[] = [];
  for (const [n, file] of files.entries()) {
    const op = toOp(file, n + 1);
    if (op === undefined) continue;
    if ("error" in op) return { ok: false, error: op.error };
    ops.push(op);
  }
  return { ok: true, ops };
}

/** Removes git's `a/` / `b/` prefixes, but only when the diff uses them on both sides. */
function cleanNames(file: RawFile): { oldPath?: string; newPath?: string } {
  let oldPath = file.oldName?.trim() || file.gitOld;
  let newPath = file.newName?.trim() || file.gitNew;
  const prefixed = (p: string | undefined, prefix: string) => p === undefined || p === DEV_NULL || p.startsWith(prefix);
  if (prefixed(oldPath, "a/") && prefixed(newPath, "b/")) {
    if (oldPath?.startsWith("a/")) oldPath = oldPath.slice(2);
    if (newPath?.startsWith("b/")) newPath = newPath.slice(2);
  }
  return { oldPath, newPath };
}

/** Turns one parsed file into an op; undefined for an entry with nothing in it (stray text). */
function toOp(file: RawFile, n: number): PatchOp | { error: string } | undefined {
  const { oldPath, newPath } = cleanNames(file);
  if (oldPath === undefined && newPath === undefined) {
    return file.hunks.length > 0 ? { error: `File ${n} of the diff has hunks but no "--- a/path" / "+++ b/path" header.` } : undefined;
  }
  if (oldPath === DEV_NULL || (file.created && file.hunks.every((h) => h.lines.every((l) => l.op === "+")))) {
    const path = newPath ?? oldPath!;
    const added = file.hunks.flatMap((h) => h.lines.map((l) => l.text));
    const finalNewline = file.hunks[file.hunks.length - 1]?.finalNewline ?? true;
    const content = added.length === 0 ? "" : added.join("\n") + (finalNewline ? "\n" : "");
    return { type: "add", path, content };
  }
  if (newPath === DEV_NULL || file.deleted) return { type: "delete", path: oldPath ?? newPath! };
  const path = oldPath ?? newPath!;
  const moveTo = newPath !== undefined && newPath !== path ? newPath : undefined;
  if (file.hunks.length === 0 && moveTo === undefined) {
    return { error: `${path}: the diff has a header for this file but no hunks.` };
  }
  return moveTo === undefined ? { type: "update", path, hunks: file.hunks } : { type: "update", path, moveTo, hunks: file.hunks };
}

const HUNK_HEADER = /^@@\s*-(\d+)(?:,(\d+))?\s+\+\d+(?:,\d+)?\s*@@/;

/**
 * The lenient reader: files start at `diff --git` or a `---` line followed by `+++`; hunks at
 * `@@` (numbers optional) and end at the next header. Counts are ignored: this reader only runs
 * because they did not add up.
 */
function readLenient(lines: readonly string[]): RawFile[] {
  const files: RawFile[] = [];
  let file: RawFile | undefined;
  let hunk: { raw: string[]; oldStart?: number } | undefined;
  const endHunk = () => {
    if (hunk && file) file.hunks.push(buildHunk(hunk.raw, hunk.oldStart === undefined ? {} : { oldStart: hunk.oldStart }));
    hunk = undefined;
  };
  const newFile = (): RawFile => {
    endHunk();
    file = { hunks: [] };
    files.push(file);
    return file;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const git = /^diff --git a\/(.+) b\/(.+)$/.exec(line);
    if (git) {
      const f = newFile();
      f.gitOld = `a/${git[1]}`;
      f.gitNew = `b/${git[2]}`;
      continue;
    }
    if (line.startsWith("--- ") && lines[i + 1]?.startsWith("+++ ")) {
      const f = file && file.hunks.length === 0 && !hunk && file.oldName === undefined ? file : newFile();
      endHunk();
      f.oldName = headerName(line);
      f.newName = headerName(lines[++i]!);
      continue;
    }
    if (line.startsWith("@@")) {
      endHunk();
      const f = file ?? newFile();
      const m = HUNK_HEADER.exec(line);
      hunk = { raw: [] };
      if (m) hunk.oldStart = Math.max(1, Number(m[1]) + (m[2] === "0" ? 1 : 0));
      file = f;
      continue;
    }
    if (hunk && isHunkLine(line)) {
      hunk.raw.push(line);
      continue;
    }
    endHunk();
    if (!file) continue;
    const rename = /^rename (from|to) (.+)$/.exec(line);
    if (rename) {
      if (rename[1] === "from") file.gitOld = `a/${rename[2]}`;
      else file.gitNew = `b/${rename[2]}`;
    } else if (line.startsWith("new file mode ")) file.created = true;
    else if (line.startsWith("deleted file mode ")) file.deleted = true;
  }
  endHunk();
  return files;
}

/** The file name of a `---` / `+++` header line, without a trailing tab and timestamp or quotes. */
function headerName(line: string): string {
  let name = line.slice(4).split("\t", 1)[0]!.trim();
  if (/^".*"$/.test(name)) name = name.slice(1, -1);
  return name;
}
