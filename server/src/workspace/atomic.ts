/**
 * All-or-nothing disk writes across files. Every new content goes to a temp file beside its target
 * (so the rename stays on one file system), is synced, and only then renamed over the target; the
 * folders are synced after. A reader (or a crash) sees each file either old or new, never torn. If
 * any step fails, the files already replaced are put back from their checkpoint copies, so a change
 * set never stays half applied.
 */
import { copyFile, mkdir, open, rename, rmdir, unlink } from "node:fs/promises";
import { writeSync } from "node:fs";
import path from "node:path";
import { describeFsError, errnoCode, WorkspaceError } from "./errors.js";
import { closeJournal, openJournal, tempPathFor } from "./journal.js";
import { writeTextInSlices } from "./large-text-write.js";

/** What was at a target before, so a failed commit can put it back. */
export interface PriorFile {
  existed: boolean;
  /** A copy of the old bytes (the checkpoint's), when it existed. */
  copy?: string;
  mode?: number;
}

/** What a write puts in the file: text (encoded as UTF-8, behind a BOM if asked) or exact bytes. */
export type WriteContent = { text: string; bom: boolean } | { bytes: Buffer };

/** One disk operation of a commit. `target` is where the bytes really are (symlinks resolved). */
export type DiskOp =
  | { kind: "write"; target: string; rel: string; content: WriteContent; mode?: number; prior: PriorFile }
  | { kind: "delete"; target: string; rel: string; prior: PriorFile }
  | { kind: "mkdir"; target: string; rel: string };

/** What a successful commit created besides files (for undo), and the hash of each text written. */
export interface DiskCommit {
  createdDirs: string[];
  /** By target: hash of the text written (as read stamps keep it). */
  hashes: Map<string, string>;
}

/**
 * Writes `content` to a new file at `file`, with `mode` when given, and syncs it. Returns the
 * hash of the text written, when it was text.
 */
async function writeSynced(file: string, content: WriteContent, mode?: number): Promise<string | undefined> {
  const handle = await open(file, "wx", 0o666);
  try {
    let hash: string | undefined;
    if ("text" in content) hash = await writeTextInSlices(handle, content.text, content.bom);
    else for (let done = 0; done < content.bytes.length; ) done += writeSync(handle.fd, content.bytes, done);
    if (mode !== undefined) await handle.chmod(mode);
    await handle.sync();
    return hash;
  } finally {
    await handle.close();
  }
}

/** Syncs a folder so a rename in it survives a power cut (not supported everywhere: best effort). */
async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, "r").catch(() => undefined);
  if (!handle) return;
  await handle.sync().catch(() => undefined);
  await handle.close();
}

/** Creates `dir` and its missing parents; returns the folders it created, outermost first. */
async function makeDirs(dir: string): Promise<string[]> {
  const first = await mkdir(dir, { recursive: true });
  if (!first) return [];
  const created = [first];
  for (let d = dir; d !== first && d.startsWith(first); d = path.dirname(d)) created.splice(1, 0, d);
  return [...new Set(created)];
}

/**
 * A commit failed after its commit point and some files could not be put back: the checkpoint's
 * copies are then the only record of their earlier content, so it must be kept, not discarded.
 */
export class IncompleteRollback extends WorkspaceError {
  constructor(
    message: string,
    /** Root-relative paths left with the new content (or deleted). */
    readonly notRestored: string[],
  ) {
    super(message);
  }
}

/** Puts one target back as it was; false when that failed (we are already failing: no throw). */
async function restorePrior(target: string, prior: PriorFile): Promise<boolean> {
  if (!prior.existed) return unlink(target).then(() => true, (err: unknown) => errnoCode(err) === "ENOENT");
  if (!prior.copy) return false;
  const temp = tempPathFor(target);
  try {
    await copyFile(prior.copy, temp);
    await rename(temp, target);
    return true;
  } catch {
    await unlink(temp).catch(() => undefined);
    return false;
  }
}

/** Removes folders a failed commit created, innermost first, if they are empty. */
async function removeDirs(dirs: string[]): Promise<void> {
  for (const dir of [...dirs].reverse()) await rmdir(dir).catch(() => undefined);
}

/** Applies disk operations all-or-nothing. Throws a WorkspaceError after rolling back. */
export async function commitDisk(root: string, ops: DiskOp[]): Promise<DiskCommit> {
  const writes = ops.filter((op): op is Extract<DiskOp, { kind: "write" }> => op.kind === "write");
  const temps = writes.map((op) => tempPathFor(op.target));
  const journal = writes.length ? await openJournal(root, temps) : undefined;
  const createdDirs: string[] = [];
  const hashes = new Map<string, string>();
  const replaced: Extract<DiskOp, { kind: "write" }>[] = [];
  const deleted: Extract<DiskOp, { kind: "delete" }>[] = [];
  let current: DiskOp | undefined;
  try {
    for (const op of ops.filter((o) => o.kind === "mkdir")) {
      current = op;
      createdDirs.push(...(await makeDirs(op.target)));
    }
    for (const [i, op] of writes.entries()) {
      current = op;
      createdDirs.push(...(await makeDirs(path.dirname(op.target))));
      const hash = await writeSynced(temps[i]!, op.content, op.mode);
      if (hash) hashes.set(op.target, hash);
    }
    // The commit point: from here each rename makes one file new; a failure rolls them back.
    for (const [i, op] of writes.entries()) {
      current = op;
      await rename(temps[i]!, op.target);
      replaced.push(op);
    }
    for (const dir of new Set(writes.map((op) => path.dirname(op.target)))) await syncDir(dir);
    for (const op of ops) {
      if (op.kind !== "delete") continue;
      current = op;
      await unlink(op.target);
      deleted.push(op);
    }
    for (const dir of new Set(deleted.map((op) => path.dirname(op.target)))) await syncDir(dir);
    return { createdDirs, hashes };
  } catch (err) {
    for (const temp of temps) await unlink(temp).catch(() => undefined);
    const notRestored: string[] = [];
    for (const op of [...replaced, ...deleted]) if (!(await restorePrior(op.target, op.prior))) notRestored.push(op.rel);
    await removeDirs(createdDirs);
    throw failure(err, current, notRestored);
  } finally {
    if (journal) await closeJournal(journal);
  }
}

/** The error a model reads when a commit failed and was rolled back (wholly, or not). */
function failure(err: unknown, op: DiskOp | undefined, notRestored: string[]): WorkspaceError {
  const what = op ? `${op.kind === "delete" ? "Deleting" : "Writing"} ${op.rel}` : "Writing";
  const described = op ? describeFsError(err, op.rel) : err;
  const reason =
    described instanceof Error ? described.message : `${errnoCode(err) ?? "error"}: ${String(err)}`;
  if (!notRestored.length) return new WorkspaceError(`${what} failed (${reason}). Every file was left as it was.`);
  return new IncompleteRollback(
    `${what} failed (${reason}), and ${notRestored.join(", ")} could not be put back as ${notRestored.length > 1 ? "they were" : "it was"}.`,
    notRestored,
  );
}
