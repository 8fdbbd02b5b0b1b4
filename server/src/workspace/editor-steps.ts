/**
 * The editor's part of a commit: open documents change through one workspace/applyEdit. An
 * answer of applied counts as applied; what the editor's reports show so far decides the rest:
 * a document it reported without the edit (it said applied but skipped it) fails the change,
 * one it has not reported yet (some editors send their changes seconds later) counts as
 * applied with a note. Only a revert that was sent and answered is ever called a revert.
 */
import { stat } from "node:fs/promises";
import type { ApplyEditOptions, ApplyEditResult, DocumentHost, EditReport, FileChange } from "../editor/document-host.js";
import { WorkspaceError } from "./errors.js";
import type { Plan, PlannedChange } from "./plan.js";

/** A change the editor made, how to check it and how to undo it. */
export interface EditorStep {
  change: PlannedChange;
  forward: FileChange[];
  backward: FileChange[];
  /** What the answer and the reports show of this step. */
  check(result: ApplyEditResult): Promise<EditReport>;
}

/**
 * The editor gave no answer (timeout, cancel): whether the documents changed is not known. The
 * checkpoint is kept, so /undo can take the change back if it lands after all.
 */
export class EditOutcomeUnknown extends WorkspaceError {}

/** The buffer text to send: the final text, behind the BOM character when the buffer shows one. */
function bufferText(raw: string, text: string): string {
  return raw.charCodeAt(0) === 0xfeff ? `\uFEFF${text}` : text;
}

async function goneFromDisk(path: string): Promise<boolean> {
  return stat(path).then(
    () => false,
    () => true,
  );
}

const reportOf = (result: ApplyEditResult, uri: string): EditReport => result.reports?.[uri] ?? "pending";

/** The editor step for one change whose document is open, or undefined when it goes to disk. */
export async function editorStep(editor: DocumentHost, change: PlannedChange, plan: Plan): Promise<EditorStep | undefined> {
  const doc = await editor.readDocument(change.path.uri);
  if (!doc || change.before.source !== "buffer") return undefined;
  if (change.after !== null) {
    const newText = bufferText(doc.text, change.after);
    return {
      change,
      forward: [{ kind: "edit", uri: doc.uri, version: doc.version, oldText: doc.text, newText }],
      backward: [{ kind: "edit", uri: doc.uri, version: null, oldText: newText, newText: doc.text }],
      check: async (result) => reportOf(result, doc.uri),
    };
  }
  if (!editor.supportsResourceOperations) return undefined;
  const to = change.movedTo;
  if (!to) {
    return {
      change,
      forward: [{ kind: "delete", uri: doc.uri }],
      backward: [{ kind: "create", uri: doc.uri, text: doc.text, overwrite: true }],
      check: async () => ((await goneFromDisk(change.path.abs)) ? "confirmed" : "skipped"),
    };
  }
  const target = plan.changes.find((c) => c.movedFrom === change.path);
  const finalText = bufferText(doc.text, target?.after ?? change.before.text);
  const forward: FileChange[] = [{ kind: "rename", oldUri: doc.uri, newUri: to.uri }];
  const edited = finalText !== doc.text;
  if (edited) forward.push({ kind: "edit", uri: to.uri, version: null, oldText: doc.text, newText: finalText });
  return {
    change,
    forward,
    backward: [{ kind: "rename", oldUri: to.uri, newUri: doc.uri }],
    check: async (result) => {
      if (!(await goneFromDisk(change.path.abs))) return "skipped";
      return edited ? reportOf(result, to.uri) : "confirmed";
    },
  };
}

/** How sending a revert went. */
type Revert = "nothing to revert" | "reverted" | "not reverted";

/**
 * Sends the backward edits of `steps`, built against the editor's current text. Never throws
 * (the change is failing already); says what happened, so the error tells the truth.
 */
async function revert(editor: DocumentHost, steps: EditorStep[], options: ApplyEditOptions): Promise<Revert> {
  const current = await Promise.all(
    steps
      .flatMap((s) => s.backward)
      .map(async (c): Promise<FileChange> => {
        if (c.kind !== "edit") return c;
        const doc = await editor.readDocument(c.uri);
        return doc ? { ...c, version: doc.version, oldText: doc.text } : c;
      }),
  );
  const backward = current.filter((c) => c.kind !== "edit" || c.oldText !== c.newText);
  if (!backward.length) return "nothing to revert";
  // Not the turn's signal: a cancel must not leave the revert half sent.
  const result = await editor.applyEdit("agent-lsp: undo a failed change", backward, { sessionId: options.sessionId }).catch(() => undefined);
  return result?.applied === true ? "reverted" : "not reverted";
}

const names = (steps: EditorStep[]) => steps.map((s) => s.change.path.rel).join(", ");

/** The end of a failure message about the buffers of `steps` (those that took the change). */
export async function revertNote(editor: DocumentHost, steps: EditorStep[], options: ApplyEditOptions): Promise<string> {
  if (!steps.length) return "";
  const outcome = await revert(editor, steps, options);
  if (outcome === "nothing to revert") return "";
  return outcome === "reverted"
    ? ` The editor's change to ${names(steps)} was undone.`
    : ` But the editor's change to ${names(steps)} could not be undone (use undo in the editor).`;
}

/**
 * Sends the editor's part as one applyEdit and checks each step. Returns notes for the model;
 * throws a WorkspaceError (EditOutcomeUnknown when the editor did not answer) on failure.
 */
export async function applyInEditor(editor: DocumentHost, label: string, steps: EditorStep[], options: ApplyEditOptions): Promise<string[]> {
  if (!steps.length) return [];
  const result = await editor.applyEdit(label, steps.flatMap((s) => s.forward), options);
  const why = result.reason ? ` (${result.reason})` : "";
  if (!result.applied && result.unanswered) {
    throw new EditOutcomeUnknown(
      `The editor did not answer the change to ${names(steps)}${why}. Whether it changed is not known yet; you will be told when the editor reports it. Nothing else was written.`,
    );
  }
  if (!result.applied) throw new WorkspaceError(`The editor did not apply the change${why}. Nothing was changed.`);
  const reports = await Promise.all(steps.map((s) => s.check(result)));
  const where = (wanted: EditReport[]) => steps.filter((_, i) => wanted.includes(reports[i]!));
  const failed = where(["skipped", "unknown"]);
  if (failed.length) {
    const pending = where(["pending"]);
    // Only documents whose report shows the change are reverted: one this editor skipped
    // silently proves that its "applied" says little about the ones not reported yet.
    const undone = await revertNote(editor, where(["confirmed"]), options);
    const unsure = pending.length ? ` ${names(pending)} may have the change: the editor has not reported it yet.` : "";
    throw new WorkspaceError(
      `The editor answered that it applied the change, but ${names(failed)} did not change (the editor may have rejected the edit silently). Nothing was written to disk.${undone}${unsure}`,
    );
  }
  const pending = where(["pending"]);
  if (!pending.length) return [];
  return [
    `The editor has not reported ${names(pending)} back yet (some editors send their changes later): the change counts as applied, and you will be told if it turns out it did not land.`,
  ];
}
