/**
 * Applies a checked plan: open documents through one workspace/applyEdit (verified afterwards,
 * since some clients answer `applied: true` for an edit they skipped), then closed files through
 * the atomic disk commit. The editor step goes first because it is the one that can be refused;
 * if the disk step then fails, the editor's buffers are put back, so nothing stays half done.
 */
import { stat } from "node:fs/promises";
import type { Editor, FileChange } from "../editor/editor.js";
import { commitDisk, type DiskOp, type PriorFile } from "./atomic.js";
import { WorkspaceError } from "./errors.js";
import type { Plan, PlannedChange } from "./plan.js";

/** What committing needs from the Workspace. */
export interface CommitContext {
  root: string;
  editor: Editor;
  /** How long to wait for the client's didChange after it said applied. */
  verifyTimeoutMs: number;
}

/** Where each file went, and what the model should know. */
export interface CommitOutcome {
  via: Map<PlannedChange, "editor" | "disk">;
  createdDirs: string[];
  notes: string[];
  /** By real path: hash of the text written to disk (for the session's read stamps). */
  hashes: Map<string, string>;
}

/** A change the editor made, and how to check and undo it. */
interface EditorStep {
  change: PlannedChange;
  forward: FileChange[];
  backward: FileChange[];
  verify(): Promise<boolean>;
}

/** The buffer text to send: the final text, behind the BOM character when the buffer shows one. */
function bufferText(raw: string, text: string): string {
  return raw.charCodeAt(0) === 0xfeff ? `\uFEFF${text}` : text;
}

async function missingOnDisk(path: string): Promise<boolean> {
  return stat(path).then(
    () => false,
    () => true,
  );
}

/** The editor step for one change whose document is open, or undefined when it goes to disk. */
function editorStep(ctx: CommitContext, change: PlannedChange, plan: Plan): EditorStep | undefined {
  const { editor } = ctx;
  const doc = editor.openDocument(change.path.uri);
  if (!doc || change.before.source !== "buffer") return undefined;
  if (change.after !== null) {
    const newText = bufferText(doc.text, change.after);
    return {
      change,
      forward: [{ kind: "edit", uri: doc.uri, version: doc.version, oldText: doc.text, newText }],
      backward: [{ kind: "edit", uri: doc.uri, version: null, oldText: newText, newText: doc.text }],
      verify: () => editor.waitForText(doc.uri, newText, ctx.verifyTimeoutMs),
    };
  }
  if (!editor.supportsResourceOperations) return undefined;
  const to = change.movedTo;
  if (!to) {
    return {
      change,
      forward: [{ kind: "delete", uri: doc.uri }],
      backward: [{ kind: "create", uri: doc.uri, text: doc.text, overwrite: true }],
      verify: () => missingOnDisk(change.path.abs),
    };
  }
  const target = plan.changes.find((c) => c.movedFrom === change.path);
  const finalText = bufferText(doc.text, target?.after ?? change.before.text);
  const forward: FileChange[] = [{ kind: "rename", oldUri: doc.uri, newUri: to.uri }];
  if (finalText !== doc.text) forward.push({ kind: "edit", uri: to.uri, version: null, oldText: doc.text, newText: finalText });
  return {
    change,
    forward,
    backward: [{ kind: "rename", oldUri: to.uri, newUri: doc.uri }],
    verify: async () => (await missingOnDisk(change.path.abs)) && editor.waitForText(to.uri, finalText, ctx.verifyTimeoutMs),
  };
}

/**
 * Puts the buffers of applied editor steps back. We are already failing, so this never throws;
 * it says whether the editor took the edit back, so the error tells the truth about the buffers.
 */
async function revertEditor(editor: Editor, steps: EditorStep[]): Promise<boolean> {
  const backward = steps.flatMap((s) => s.backward).map((c): FileChange => {
    if (c.kind !== "edit") return c;
    const doc = editor.openDocument(c.uri);
    return doc ? { ...c, version: doc.version, oldText: doc.text } : c;
  }).filter((c) => c.kind !== "edit" || c.oldText !== c.newText);
  if (!backward.length) return true;
  const result = await editor.applyEdit("agent-lsp: undo a failed change", backward).catch(() => undefined);
  return result?.applied === true;
}

/** How the end of an error message describes the editor's buffers after a failed change. */
function buffersNote(reverted: boolean, others: boolean): string {
  const which = others ? "the other buffers" : "the editor's buffers";
  return reverted ? `${which} were put back` : `${which} could not be put back (use undo in the editor)`;
}

/** Sends the editor's part as one applyEdit and checks each buffer afterwards. */
async function applyInEditor(ctx: CommitContext, label: string, steps: EditorStep[]): Promise<void> {
  if (!steps.length) return;
  const result = await ctx.editor.applyEdit(label, steps.flatMap((s) => s.forward));
  if (!result.applied) {
    const why = result.reason ? ` (${result.reason})` : "";
    throw new WorkspaceError(`The editor did not apply the change${why}. Nothing was changed.`);
  }
  const checks = await Promise.all(steps.map((s) => s.verify()));
  const skipped = steps.filter((_, i) => !checks[i]).map((s) => s.change.path.rel);
  if (!skipped.length) return;
  const reverted = await revertEditor(ctx.editor, steps);
  throw new WorkspaceError(
    `The editor answered that it applied the change, but ${skipped.join(", ")} did not change. ` +
      `Nothing was written to disk and ${buffersNote(reverted, true)}; the editor may have rejected the edit silently.`,
  );
}

/** The disk operation of one change that does not go through the editor. */
function diskOp(change: PlannedChange, prior: PriorFile, notes: string[], editor: Editor): DiskOp | undefined {
  const { path: p, before } = change;
  if (change.after !== null) {
    const content = change.bytes ? { bytes: change.bytes } : { text: change.after, bom: change.bom ?? before.bom };
    return { kind: "write", target: p.real, rel: p.rel, content, mode: change.mode ?? before.mode, prior };
  }
  if (editor.openDocument(p.uri)) {
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
): Promise<CommitOutcome> {
  const via = new Map<PlannedChange, "editor" | "disk">();
  const steps: EditorStep[] = [];
  for (const change of plan.changes) {
    const step = editorStep(ctx, change, plan);
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
    const op = diskOp(change, priors.get(change) ?? { existed: false }, notes, ctx.editor);
    if (op) ops.push(op);
  }
  await applyInEditor(ctx, label, steps);
  try {
    const { createdDirs, hashes } = await commitDisk(ctx.root, ops);
    return { via, createdDirs, notes, hashes };
  } catch (err) {
    const reverted = await revertEditor(ctx.editor, steps);
    // The message is extended in place so the error keeps its class (IncompleteRollback matters).
    if (err instanceof WorkspaceError && steps.length) {
      err.message += reverted ? " The editor's buffers were put back too." : ` But ${buffersNote(false, false)}.`;
    }
    throw err;
  }
}
