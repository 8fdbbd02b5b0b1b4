/**
 * /undo and /restore: putting the files the agent changed back to a checkpoint's state. The way
 * back is itself a change set (through the editor for open documents, atomic on disk for the
 * rest) with its own checkpoint, so an undo can be redone and a restore undone.
 */
import { rmdir } from "node:fs/promises";
import { readStateBytes } from "../util/state-folder.js";
import { commitRecorded, showPlan, type WorkspaceCore } from "./apply.js";
import type { ApplyResult } from "./change-set.js";
import type { Checkpoint, CheckpointFile } from "./checkpoints.js";
import { decodeText } from "./encoding.js";
import { WorkspaceError } from "./errors.js";
import { loadFileState } from "./file-state.js";
import type { Plan, PlannedChange } from "./plan.js";

/** What a restore did, for the command's message. */
export interface RestoreResult {
  /** The checkpoint made of the state before the restore (absent when nothing changed). */
  result: ApplyResult;
  /** Checkpoints whose changes were reverted. */
  reverted: Checkpoint[];
}

/** The planned change that takes one file back to its saved state, if it differs now. */
async function planBack(core: WorkspaceCore, checkpoint: Checkpoint, file: CheckpointFile): Promise<PlannedChange | undefined> {
  const path = await core.resolve(file.abs);
  if (path.external) refuseOutside(core, checkpoint, file);
  const before = await loadFileState(core.documents, path);
  if (!file.existed) return before.exists ? { path, before, after: null } : undefined;
  const copy = await core.checkpoints.copyPath(checkpoint, file);
  if (!copy) return undefined;
  // A saved copy is agent-lsp's own record: a link planted in its place is refused, never read.
  const bytes = readStateBytes(copy);
  const { text, bom } = decodeText(bytes);
  if (before.exists && before.text === text && before.bom === bom && before.mode === (file.mode ?? before.mode)) return undefined;
  return { path, before, after: text, bytes, bom, mode: file.mode };
}

/**
 * Refuses to put back a file outside the project from a checkpoint this server did not make. A
 * checkpoint is a file in the project's state folder: a repository can ship one, with the session
 * log to resume, naming `~/.bashrc` and a "saved copy" of its choosing, and /undo would write it
 * (or delete the file, for one that "did not exist"). The copy is named for the user to put back
 * by hand when the change was really theirs.
 */
function refuseOutside(core: WorkspaceCore, checkpoint: Checkpoint, file: CheckpointFile): void {
  if (core.checkpoints.madeByThisServer(checkpoint.id)) return;
  const copy = file.copy ? ` Its saved copy is ${file.copy} in that checkpoint's folder, to put back by hand if the change was yours.` : "";
  throw new WorkspaceError(
    `Checkpoint ${checkpoint.id} would change ${file.abs}, outside the project: agent-lsp restores a file outside the project only from a checkpoint this server made (a repository can ship one naming your files).${copy}`,
  );
}

/**
 * For each file touched by `checkpoints` (oldest first), its state before the earliest of them:
 * the state it had when the first checkpoint was made.
 */
async function planRestore(core: WorkspaceCore, checkpoints: Checkpoint[]): Promise<Plan> {
  const seen = new Set<string>();
  const changes: PlannedChange[] = [];
  for (const checkpoint of checkpoints) {
    for (const file of checkpoint.files) {
      if (seen.has(file.abs)) continue;
      seen.add(file.abs);
      const change = await planBack(core, checkpoint, file);
      if (change) changes.push(change);
    }
  }
  return { changes, dirs: [] };
}

/**
 * Removes folders the reverted changes created, innermost first, when they are empty; one outside
 * the project only when this server made the checkpoint (as {@link refuseOutside}).
 */
async function removeCreatedDirs(core: WorkspaceCore, checkpoints: Checkpoint[]): Promise<void> {
  const dirs: string[] = [];
  for (const c of checkpoints) {
    for (const dir of c.createdDirs) if (core.checkpoints.madeByThisServer(c.id) || !(await core.resolve(dir)).external) dirs.push(dir);
  }
  for (const dir of dirs.sort((a, b) => b.length - a.length)) await rmdir(dir).catch(() => undefined);
}

/** Reverts `checkpoints` as one change set made by `tool`. */
async function revert(core: WorkspaceCore, sessionId: string, checkpoints: Checkpoint[], kind: "undo" | "restore"): Promise<ApplyResult> {
  const plan = await planRestore(core, checkpoints);
  const tool = kind === "undo" ? "/undo" : `/restore ${checkpoints[0]!.id}`;
  const result = plan.changes.length
    ? (await commitRecorded(core, plan, { sessionId, tool, kind }, await showPlan(tool, plan))).result
    : { changed: false, files: [], dirs: [], diff: "", notes: [] };
  await removeCreatedDirs(core, checkpoints);
  return result;
}

/** The session's checkpoints, oldest first. */
export function sessionCheckpoints(core: WorkspaceCore, sessionId: string): Promise<Checkpoint[]> {
  return core.checkpoints.list(sessionId);
}

/**
 * Reverts the session's last change set that is not undone yet (an undo itself is skipped, so
 * repeated undos walk back). Returns undefined when there is nothing to undo.
 */
export function undoLast(core: WorkspaceCore, sessionId: string): Promise<RestoreResult | undefined> {
  return core.exclusive(async () => {
    const all = await core.checkpoints.list(sessionId);
    const last = all.filter((c) => c.kind !== "undo" && !c.undoneAt).pop();
    if (!last) return undefined;
    const result = await revert(core, sessionId, [last], "undo");
    last.undoneAt = new Date().toISOString();
    await core.checkpoints.save(last);
    return { result, reverted: [last] };
  });
}

/**
 * Returns every file the session changed since checkpoint `id` to its state then (created files
 * are deleted), making a checkpoint first so the restore can be undone.
 */
export function restoreTo(core: WorkspaceCore, sessionId: string, id: string): Promise<RestoreResult> {
  return core.exclusive(async () => {
    const all = await core.checkpoints.list(sessionId);
    const index = all.findIndex((c) => c.id === id);
    if (index === -1) throw new WorkspaceError(`There is no checkpoint ${id} in this session (see /checkpoints).`);
    const since = all.slice(index);
    const result = await revert(core, sessionId, since, "restore");
    return { result, reverted: since };
  });
}
