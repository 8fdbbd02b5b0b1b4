/**
 * The user's checkpoint commands through agent/command: `/undo`, `/checkpoints` and
 * `/restore <id>`. They work on the session's own checkpoints (see workspace/checkpoints.ts) and
 * return the message shown to the user; a failure throws with a message worded for the user.
 */
import type { ApplyResult } from "../../workspace/change-set.js";
import type { Checkpoint } from "../../workspace/checkpoints.js";
import type { Workspace } from "../../workspace/workspace.js";

/** What the handlers need: whose checkpoints, and the Workspace that has them. */
export interface CheckpointCommandContext {
  sessionId: string;
  workspace: Workspace;
}

/** Files listed per checkpoint before "and N more". */
const LISTED_FILES = 4;

/** "M a.ts, D b.ts" for what a revert changed. */
function changedFiles(result: ApplyResult): string {
  if (!result.files.length) return "no file needed changing";
  return result.files.map((f) => `${f.status} ${f.path}`).join(", ");
}

/** Notes a revert produced (a buffer left open on a deleted file). */
function notes(result: ApplyResult): string {
  return result.notes.length ? `\n${result.notes.join("\n")}` : "";
}

/** `/undo`: reverts the session's last change set (repeat to go further back). */
export async function undoCommand(_args: string[], { sessionId, workspace }: CheckpointCommandContext): Promise<string> {
  const undone = await workspace.undo(sessionId);
  if (!undone) return "Nothing to undo in this session.";
  const [checkpoint] = undone.reverted;
  const redo = undone.result.checkpointId ? ` /restore ${undone.result.checkpointId} redoes it.` : "";
  return `Undid ${checkpoint!.tool} (checkpoint ${checkpoint!.id}): ${changedFiles(undone.result)}.${redo}${notes(undone.result)}`;
}

/** One line of /checkpoints. */
function describeCheckpoint(c: Checkpoint): string {
  const time = new Date(c.createdAt).toLocaleString();
  const names = c.files.map((f) => f.path).concat(c.createdDirs.length && !c.files.length ? ["(folders)"] : []);
  const shown = names.length > LISTED_FILES ? `${names.slice(0, LISTED_FILES).join(", ")} and ${names.length - LISTED_FILES} more` : names.join(", ");
  const state = c.undoneAt ? " (undone)" : "";
  return `${c.id}  ${time}  ${c.tool}  ${shown}${state}`;
}

/** `/checkpoints`: the session's checkpoints, newest first. */
export async function checkpointsCommand(_args: string[], { sessionId, workspace }: CheckpointCommandContext): Promise<string> {
  const all = await workspace.listCheckpoints(sessionId);
  if (!all.length) return "No checkpoints in this session yet (one is made before every change the agent makes).";
  const lines = all.reverse().map(describeCheckpoint);
  return `${lines.join("\n")}\n/restore <id> returns the files to their state before that change; /undo reverts the newest.`;
}

/** `/restore <id>`: every file the agent changed since checkpoint `id` goes back to its state then. */
export async function restoreCommand(args: string[], { sessionId, workspace }: CheckpointCommandContext): Promise<string> {
  const id = args[0]?.trim();
  if (!id) throw new Error("Usage: /restore <checkpoint id> (/checkpoints lists them).");
  const { result, reverted } = await workspace.restore(sessionId, id);
  const undo = result.checkpointId ? " /undo reverts this restore." : "";
  return `Restored the state before checkpoint ${id} (${reverted.length} change sets reverted): ${changedFiles(result)}.${undo}${notes(result)}`;
}
