/**
 * The document host: where the text of open documents lives and how changes reach it. Over LSP
 * it is the editor's buffers (didOpen/didChange; workspace/applyEdit); for the headless CLI it is
 * the disk alone (no document is ever open); over ACP it would be the client's `fs/*` requests.
 * The Workspace is its only user in the core (and the language-service tools, through
 * `languageService`).
 */
import type { LanguageService } from "./language-service.js";

/** A document the editor has open. */
export interface OpenDocument {
  uri: string;
  text: string;
  /**
   * The version the editor last reported. Null while an edit the editor said it applied has not
   * been reported back (some editors send their didChange seconds later): `text` is then the
   * edit's result, and the version the editor now has is not known.
   */
  version: number | null;
}

/** A position in a document: 0-based line and UTF-16 character, as LSP counts them. */
export interface DocumentPosition {
  line: number;
  character: number;
}

/** One replacement in a document, for a caller that chose its edits itself. */
export interface RangeEdit {
  range: { start: DocumentPosition; end: DocumentPosition };
  newText: string;
}

/**
 * A whole-text change to one file, or a file operation. URIs are `file://` URIs. An edit may
 * carry the exact `edits` to send (they must turn `oldText` into `newText`); otherwise the host
 * computes small ones.
 */
export type FileChange =
  | { kind: "edit"; uri: string; version: number | null; oldText: string; newText: string; edits?: RangeEdit[] }
  | { kind: "create"; uri: string; text: string; overwrite?: boolean }
  | { kind: "delete"; uri: string }
  | { kind: "rename"; oldUri: string; newUri: string };

/** Who applies an edit, and the turn it belongs to. */
export interface ApplyEditOptions {
  /** The session making the edit: later news about it (see {@link Editor.takeNotices}) goes there. */
  sessionId?: string;
  /** The turn's signal: a cancel withdraws the request to the editor. */
  signal?: AbortSignal;
  /**
   * The caller follows the document's later reports itself (the chat file): what a report shows
   * of the edit after the call returned is news for no one.
   */
  quiet?: boolean;
}

/**
 * What the editor's own reports (didChange) show of an edited document so far: the new text
 * (`confirmed`), nothing yet (`pending`: treated as applied), the old text (`skipped`: it said
 * applied but did not apply it), or other text (`unknown`: it changed in other ways meanwhile).
 */
export type EditReport = "confirmed" | "pending" | "skipped" | "unknown";

/** Result of asking the editor to apply changes. */
export interface ApplyEditResult {
  applied: boolean;
  /** Why not, in words a model can read. */
  reason?: string;
  /**
   * No answer came (timeout, or the turn was cancelled): the edit may still land. The editor
   * checks the next report of each document and tells the session what it found.
   */
  unanswered?: boolean;
  /** After `applied`: the report of each edited document, by URI. */
  reports?: Record<string, EditReport>;
}

/** What saving documents did. */
export interface SaveResult {
  saved: string[];
  failed: { uri: string; reason: string }[];
}

/** Where open documents live and how edits reach them. */
export interface DocumentHost {
  /** The open document at `uri`, or undefined when the host does not have it open. */
  readDocument(uri: string): Promise<OpenDocument | undefined>;
  /** Every open document (search overlays its text on the disk's). */
  openDocuments(): Promise<OpenDocument[]>;
  /** Calls `listener` with the URI of each open document whose text changes; returns the way to stop. */
  onDidChange(listener: (uri: string) => void): () => void;
  /** Whether the host can create/rename/delete files through applyEdit. */
  readonly supportsResourceOperations: boolean;
  /**
   * Applies changes to open documents (and file operations) as one edit. An answer of applied
   * counts as applied; each edited document's report so far comes with it (`reports`).
   */
  applyEdit(label: string, changes: FileChange[], options?: ApplyEditOptions): Promise<ApplyEditResult>;
  /** Whether the host saves documents on request (`saveDocuments`). */
  readonly canSaveDocuments: boolean;
  /**
   * Writes the open documents at `uris` to disk, exactly those. Never throws: a document the
   * host could not save (or no answer) is in `failed`, with the reason.
   */
  saveDocuments(uris: string[], signal: AbortSignal): Promise<SaveResult>;
  /**
   * What the host learned since for `sessionId`, in words for the model, and forgets it: an
   * edit it said it applied that its report shows was not, one that landed after no answer...
   */
  takeNotices(sessionId: string): string[];
  /**
   * The editor's own language servers (definitions, references, rename, diagnostics), when the
   * editor serves them; absent otherwise, and the tools that need them are not offered.
   */
  readonly languageService?: LanguageService;
}
