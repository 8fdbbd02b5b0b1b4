/**
 * Applies a checked plan: open documents through one workspace/applyEdit (editor-steps.ts),
 * then closed files through the atomic disk commit. The editor step goes first because it is
 * the one that can be refused; if the disk step then fails, the editor's change is sent back,
 * so nothing stays half done.
 */
import type { ApplyEditOptions, DocumentHost } from "../editor/document-host.js";
import { commitDisk, type DiskOp, type PriorFile } from "./atomic.js";
import { applyInEditor, editorStep, revertNote, type EditorStep } from "./editor-steps.js";
import { WorkspaceError } from "./errors.js";
import type { Plan, PlannedChange } from "./plan.js";

/** What committing needs from the Workspace. */
export interface CommitContext {
  root: string;
  documents: DocumentHost;
}

/** Where each file went, and what the model should know. */
export interface CommitOutcome {
  via: Map<PlannedChange, "editor" | "disk">;
  createdDirs: string[];
  notes: string[];
  /** By real path: hash of the text written to disk (for the session's read stamps). */
  hashes: Map<string, string>;
}

/** The disk operation of one change that does not go through the editor. */
async function diskOp(change: PlannedChange, prior: PriorFile, notes: string[], documents: DocumentHost): Promise<DiskOp | undefined> {
  const { path: p, before } = change;
  if (change.after !== null) {
    const content = change.bytes ? { bytes: change.bytes } : { text: change.after, bom: change.bom ?? before.bom };
    return { kind: "write", target: p.real, rel: p.rel, content, mode: change.mode ?? before.mode, prior };
  }
  if (await documents.readDocument(p.uri)) {
    notes.push(`${p.rel} is still open in the editor (this client cannot delete files through an edit); its buffer was left as it was.`);
  }
  // An unsaved buffer of a file that never reached the disk has nothing to delete there.
  if (before.source === "buffer" && before.mtimeMs === undefined) return undefined;
  return { kind: "delete", target: p.abs, rel: p.rel, prior };
}

/**
 * Applies `plan`. `priors` maps each change to its checkpoint copy, for rolling back the disk.
 * Throws a WorkspaceError, with every file as it was, when anything fails.
 */
export async function commitPlan(
  ctx: CommitContext,
  label: string,
  plan: Plan,
  priors: Map<PlannedChange, PriorFile>,
  who: ApplyEditOptions = {},
): Promise<CommitOutcome> {
  const via = new Map<PlannedChange, "editor" | "disk">();
  const steps: EditorStep[] = [];
  for (const change of plan.changes) {
    const step = await editorStep(ctx.documents, change, plan);
    if (step) steps.push(step);
  }
  const byEditor = new Set(steps.map((s) => s.change));
  for (const s of steps) {
    via.set(s.change, "editor");
    const moved = s.change.movedTo ? plan.changes.find((c) => c.movedFrom === s.change.path) : undefined;
    if (!moved) continue;
    byEditor.add(moved);
    via.set(moved, "editor");
  }
  const notes: string[] = [];
  const ops: DiskOp[] = plan.dirs.map((d) => ({ kind: "mkdir", target: d.real, rel: d.rel }));
  for (const change of plan.changes.filter((c) => !byEditor.has(c))) {
    via.set(change, "disk");
    const op = await diskOp(change, priors.get(change) ?? { existed: false }, notes, ctx.documents);
    if (op) ops.push(op);
  }
  notes.push(...(await applyInEditor(ctx.documents, label, steps, who)));
  try {
    const { createdDirs, hashes } = await commitDisk(ctx.root, ops);
    return { via, createdDirs, notes, hashes };
  } catch (err) {
    // The editor took the change (counting the ones it has not reported yet, as applied).
    const undone = await revertNote(ctx.documents, steps, who);
    // The message is extended in place so the error keeps its class (IncompleteRollback matters).
    if (err instanceof WorkspaceError) err.message += undone;
    throw err;
  }
}
