/**
 * The last check before a change set is written, made while the project's change lock is held.
 * A change is computed from each file's text at planning time; the user may then have taken
 * minutes to review it while they typed, saved or another session changed the same file. Writing
 * the computed text then would silently undo that work. So each file is read again: unchanged
 * files go ahead, a changed file whose edit still applies cleanly on its new text is re-based
 * onto it, and anything else refuses the whole change set, before anything is written.
 */
import { applyPatch } from "diff";
import type { DocumentHost } from "../editor/document-host.js";
import { hunksOf } from "./diff.js";
import { WorkspaceError } from "./errors.js";
import { loadFileState, type FileState } from "./file-state.js";
import type { Plan, PlannedChange } from "./plan.js";

/** The plan made current, and a note for each file that had to be re-based. */
export interface Rebased {
  plan: Plan;
  notes: string[];
}

/** Re-reads every file of `plan` and re-bases or refuses what changed since it was planned. */
export async function rebaseOnCurrent(editor: DocumentHost, plan: Plan): Promise<Rebased> {
  const notes: string[] = [];
  const changes: PlannedChange[] = [];
  for (const change of plan.changes) {
    const now = await loadFileState(editor, change.path);
    const rebased = rebaseOne(change, now);
    if (rebased.note) notes.push(rebased.note);
    changes.push(rebased.change);
  }
  return { plan: { ...plan, changes }, notes };
}

function rebaseOne(change: PlannedChange, now: FileState): { change: PlannedChange; note?: string } {
  const before = change.before;
  // Same text: go ahead with the state as it is now (the buffer's version may have moved on).
  // The same object, updated: the shown diff is keyed by it and stays true.
  if (sameContent(before, now)) return { change: Object.assign(change, { before: now }) };
  const where = now.source === "buffer" ? "in the editor" : "on disk";
  const refuse = (why: string) =>
    new WorkspaceError(
      `${change.path.rel} changed ${where} (by you or another session) after this change was made from it, and ${why}; nothing was changed. Read it again and redo the change.`,
    );
  if (!before.exists || !now.exists) throw refuse(now.exists ? "it exists now" : "it is gone now");
  if (change.after === null || change.movedFrom || change.movedTo) throw refuse("a move or delete is never re-based");
  const after = reapply(before.text, change.after, now.text);
  if (after === undefined) throw refuse("this change overlaps what changed");
  return {
    change: { ...change, before: now, after },
    note: `${change.path.rel} had changed ${where} meanwhile; this change was re-based onto its current text.`,
  };
}

/**
 * `after` re-based from `base` onto `current`, or undefined when the edits touch the same lines.
 * The diff is the bounded one of the shown diffs (a few dozen ms at most, with the project's change
 * lock held); where it is coarse, more counts as touched, so a re-base is refused rather than wrong.
 */
function reapply(base: string, after: string, current: string): string | undefined {
  const patch = { oldFileName: "a", newFileName: "b", oldHeader: undefined, newHeader: undefined, hunks: hunksOf(base, after) };
  const result = applyPatch(current, patch, { fuzzFactor: 0 });
  return result === false ? undefined : result;
}

function sameContent(a: FileState, b: FileState): boolean {
  return a.exists === b.exists && a.text === b.text && a.bom === b.bom;
}
