/**
 * Text sync with a hook into each didChange. The documents must exist from the first didOpen
 * (before the agent loads), but what watches the changes (the edit tracker) comes with the
 * agent; so each didChange asks an observer, set later, for a watch over its changes. Changes
 * are applied in version order whatever order they arrive in (change-journal.ts). This module
 * is on the start-up path: it imports nothing heavy.
 */
import { TextDocument } from "vscode-languageserver-textdocument";
import { TextDocuments } from "./lsp-library.js";
import { ChangeJournal, type ChangeWatch } from "./change-journal.js";
import { LARGE_INPUT_BYTES } from "../util/large-input.js";
import { collectSoon } from "../util/release-memory.js";

/** Gives a watch over the changes of one didChange of `uri`, or none. */
export type ChangeObserver = (uri: string) => ChangeWatch | undefined;

/** Text-synced documents whose update step can be observed. */
export interface ObservableDocuments {
  documents: TextDocuments<TextDocument>;
  /** Shows every later didChange to `observer`. */
  observe(observer: ChangeObserver): void;
}

/** Creates the documents of a connection; `warn` hears of changes that came too late to reorder. */
export function observableDocuments(warn?: (message: string) => void): ObservableDocuments {
  let observer: ChangeObserver | undefined;
  const journal = new ChangeJournal(warn);
  const documents = new TextDocuments<TextDocument>({
    create: TextDocument.create,
    update: (doc, changes, version) => journal.apply(doc, changes, version, observer?.(doc.uri)),
  });
  documents.onDidClose(({ document }) => {
    journal.forget(document.uri);
    // Nothing else holds a closed document's text: hand a large one's memory back.
    if (document.getText().length > LARGE_INPUT_BYTES) collectSoon();
  });
  return {
    documents,
    observe(next) {
      observer = next;
    },
  };
}
