/**
 * Turns the core's file changes into one LSP WorkspaceEdit, against the server's current view
 * of each open document (which is an edit's result while the editor has not reported it back).
 */
import type { TextDocument } from "vscode-languageserver-textdocument";
import type { TextEdit, WorkspaceEdit } from "vscode-languageserver/node.js";
import type { FileChange } from "../editor/document-host.js";
import { breather } from "../util/breathe.js";
import { computeTextEdits } from "./text-edits.js";
import { uriFileName } from "./uris.js";

/** A document edit of the WorkspaceEdit, for the tracker to follow. */
export interface EditedDocument {
  uri: string;
  base: string;
  expected: string;
}

/** What building found: the edit to send, or why it must not be sent. */
export type BuiltEdit = { edit: WorkspaceEdit; edited: EditedDocument[] } | { conflict: string };

/** What building needs to know about open documents. */
export interface DocumentLookup {
  find(uri: string): TextDocument | undefined;
  /** The server's view: text and version (null while an applied edit awaits its report). */
  view(doc: TextDocument): { text: string; version: number | null };
}

/**
 * Builds the WorkspaceEdit. Each open document's edit carries the version of the view, and the
 * view must still be the text the change was computed from: edits are ranges, and ranges
 * computed for one text garble another, so a document that changed since is a conflict. The
 * diffs come first, giving the event loop a turn between large ones; the views are checked
 * after them, with no wait between the check and the caller sending the edit.
 */
export async function buildWorkspaceEdit(changes: FileChange[], docs: DocumentLookup): Promise<BuiltEdit> {
  const pause = breather(10);
  const textEdits = new Map<FileChange, TextEdit[]>();
  for (const change of changes) {
    if (change.kind !== "edit") continue;
    await pause();
    textEdits.set(change, change.edits ?? computeTextEdits(change.oldText, change.newText));
  }
  const documentChanges: NonNullable<WorkspaceEdit["documentChanges"]> = [];
  const edited: EditedDocument[] = [];
  for (const change of changes) {
    if (change.kind === "edit") {
      const doc = docs.find(change.uri);
      const view = doc && docs.view(doc);
      if (view && view.text !== change.oldText) {
        return { conflict: `${uriFileName(change.uri)} changed in the editor while the change was being made` };
      }
      const uri = doc?.uri ?? change.uri;
      documentChanges.push({ textDocument: { uri, version: view ? view.version : change.version }, edits: textEdits.get(change)! });
      edited.push({ uri, base: change.oldText, expected: change.newText });
    } else if (change.kind === "create") {
      documentChanges.push({ kind: "create", uri: change.uri, options: { overwrite: change.overwrite ?? false, ignoreIfExists: false } });
      if (change.text) {
        documentChanges.push({ textDocument: { uri: change.uri, version: null }, edits: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: change.text }] });
      }
    } else if (change.kind === "delete") {
      documentChanges.push({ kind: "delete", uri: change.uri, options: { ignoreIfNotExists: true } });
    } else {
      documentChanges.push({ kind: "rename", oldUri: change.oldUri, newUri: change.newUri, options: { overwrite: false } });
    }
  }
  return { edit: { documentChanges }, edited };
}
