/**
 * Text sync with a hook into each didChange. The documents must exist from the first didOpen
 * (before the agent loads), but what watches the changes (the edit tracker) comes with the
 * agent; so the update step delegates to an observer that is set later. Without one it is the
 * plain incremental update. This module is on the start-up path: it imports nothing heavy.
 */
import { TextDocument, type TextDocumentContentChangeEvent } from "vscode-languageserver-textdocument";
import { TextDocuments } from "vscode-languageserver/node.js";

/** Applies a didChange to a document (and may look at each step). */
export type DocumentUpdate = (doc: TextDocument, changes: TextDocumentContentChangeEvent[], version: number) => TextDocument;

/** Text-synced documents whose update step can be observed. */
export interface ObservableDocuments {
  documents: TextDocuments<TextDocument>;
  /** Routes every later didChange through `update`. */
  observe(update: DocumentUpdate): void;
}

/** Creates the documents of a connection. */
export function observableDocuments(): ObservableDocuments {
  let observer: DocumentUpdate | undefined;
  const documents = new TextDocuments<TextDocument>({
    create: TextDocument.create,
    update: (doc, changes, version) => (observer ? observer(doc, changes, version) : TextDocument.update(doc, changes, version)),
  });
  return {
    documents,
    observe(update) {
      observer = update;
    },
  };
}
