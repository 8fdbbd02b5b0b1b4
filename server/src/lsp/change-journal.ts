/**
 * Puts didChange notifications back in version order. Helix (25.01) sends each buffer change
 * from a task of its own, so two keystrokes typed in a burst can reach the server as version 10
 * then 9. Applied as they come, the server's copy drifts from the buffer ("mtah" for "math"),
 * and every edit computed from it is refused as stale. LSP versions only grow, so a change whose
 * version is not above the document's is late: the journal undoes the changes applied after it,
 * applies it, and applies them again, in version order.
 *
 * Each recorded change keeps only what undoing it needs (where its text starts, how long it is,
 * the text it replaced), not copies of the document, and the journal is bounded in count and
 * bytes: reordering only ever spans a few keystrokes in flight. Versions may skip numbers
 * (Neovim's changedtick), which is fine: only their order counts. A whole-text change starts the
 * journal afresh; a late change older than the journal reaches is applied where it lands, as
 * before, and said once in the log.
 */
import { TextDocument, type TextDocumentContentChangeEvent } from "vscode-languageserver-textdocument";

/** What is kept per document: enough to undo the last few changes. */
const MAX_ENTRIES = 64;
const MAX_REPLACED_CHARS = 1 << 20;

/** One applied change and how to undo it. */
interface Entry {
  version: number;
  change: TextDocumentContentChangeEvent;
  /** Offset where the change's text starts, its length, and the text it replaced. */
  start: number;
  insertedLength: number;
  replaced: string;
}

/** Watches the changes of one didChange as they apply (the edit tracker's settlement). */
export interface ChangeWatch {
  /** After each change, with the document's text. */
  step(text: string): void;
  /** After the last change. */
  end(doc: TextDocument, changes: TextDocumentContentChangeEvent[]): void;
}

/** One document's recent changes, and the highest version before them that can no longer be undone. */
interface Journal {
  entries: Entry[];
  floor: number;
}

/** A didChange's changes under its version. */
interface Batch {
  version: number;
  changes: TextDocumentContentChangeEvent[];
}

/** The recent changes of every open document. */
export class ChangeJournal {
  private readonly journals = new Map<string, Journal>();

  constructor(private readonly warn: (message: string) => void = () => {}) {}

  /**
   * Applies a didChange to `doc` (in place, as TextDocument.update does) and returns it; a late
   * one is slotted in by version. `watch` sees each change as it applies.
   */
  apply(doc: TextDocument, changes: TextDocumentContentChangeEvent[], version: number, watch?: ChangeWatch): TextDocument {
    const journal = this.journals.get(doc.uri) ?? { entries: [], floor: doc.version };
    this.journals.set(doc.uri, journal);
    const batch = { version, changes };
    if (version > doc.version) return applyInOrder(doc, [batch], journal, watch);
    if (version <= journal.floor) {
      this.warn(`didChange version ${version} of ${doc.uri} came after version ${doc.version}, too late to put in order; applied as it came`);
      return applyInOrder(doc, [batch], journal, watch);
    }
    const firstLater = journal.entries.findIndex((e) => e.version > version);
    if (firstLater === -1) return applyInOrder(doc, [batch], journal, watch); // a repeated version: nothing newer to reorder
    const later = journal.entries.splice(firstLater);
    for (let i = later.length - 1; i >= 0; i--) doc = undo(doc, later[i]!);
    return applyInOrder(doc, [batch, ...later.map((e) => ({ version: e.version, changes: [e.change] }))], journal, watch);
  }

  /** Forgets a closed document. */
  forget(uri: string): void {
    this.journals.delete(uri);
  }
}

/** Applies batches in the order given, recording each change; the version ends at the highest. */
function applyInOrder(doc: TextDocument, batches: Batch[], journal: Journal, watch: ChangeWatch | undefined): TextDocument {
  const top = Math.max(doc.version, ...batches.map((b) => b.version));
  const all: TextDocumentContentChangeEvent[] = [];
  for (const batch of batches) {
    for (const change of batch.changes) {
      const entry = entryFor(doc, change, batch.version);
      doc = TextDocument.update(doc, [change], top);
      if (entry) journal.entries.push(entry);
      else startAfresh(journal, batch.version); // a whole text: nothing before it can be undone
      watch?.step(doc.getText());
      all.push(change);
    }
  }
  trim(journal);
  watch?.end(doc, all);
  return doc;
}

function startAfresh(journal: Journal, version: number): void {
  journal.entries.length = 0;
  journal.floor = Math.max(journal.floor, version);
}

/** How to undo `change` on `doc` (before it applies); undefined for a whole-text change. */
function entryFor(doc: TextDocument, change: TextDocumentContentChangeEvent, version: number): Entry | undefined {
  if (!("range" in change)) return undefined;
  const start = doc.offsetAt(change.range.start);
  const end = Math.max(start, doc.offsetAt(change.range.end));
  return { version, change, start, insertedLength: change.text.length, replaced: doc.getText().slice(start, end) };
}

/** Undoes one recorded change (the last one applied). */
function undo(doc: TextDocument, entry: Entry): TextDocument {
  const range = { start: doc.positionAt(entry.start), end: doc.positionAt(entry.start + entry.insertedLength) };
  return TextDocument.update(doc, [{ range, text: entry.replaced }], doc.version);
}

/** Keeps the newest entries within the count and the size of the text they hold; raises the floor past those dropped. */
function trim(journal: Journal): void {
  const { entries } = journal;
  let chars = 0;
  let keepFrom = entries.length;
  while (keepFrom > 0 && entries.length - keepFrom < MAX_ENTRIES) {
    const entry = entries[keepFrom - 1]!;
    chars += entry.replaced.length + entry.insertedLength;
    if (chars > MAX_REPLACED_CHARS) break;
    keepFrom--;
  }
  for (const dropped of entries.splice(0, keepFrom)) journal.floor = Math.max(journal.floor, dropped.version);
}
