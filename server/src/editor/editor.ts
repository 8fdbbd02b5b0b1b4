/**
 * The Editor seam: what the core needs from whoever is at the other end. LspEditor maps it onto
 * LSP requests; the headless editor onto the terminal. Nothing below agent/ knows which.
 */
import type { SessionUpdate } from "../protocol/updates.js";

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

/** A whole-text change to one file, or a file operation. URIs are `file://` URIs. */
export type FileChange =
  | { kind: "edit"; uri: string; version: number | null; oldText: string; newText: string }
  | { kind: "create"; uri: string; text: string; overwrite?: boolean }
  | { kind: "delete"; uri: string }
  | { kind: "rename"; oldUri: string; newUri: string };

/** Who applies an edit, and the turn it belongs to. */
export interface ApplyEditOptions {
  /** The session making the edit: later news about it (see {@link Editor.takeNotices}) goes there. */
  sessionId?: string;
  /** The turn's signal: a cancel withdraws the request to the editor. */
  signal?: AbortSignal;
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

/** The choices of a permission prompt. */
export type PermissionOptionId = "allow_once" | "allow_always" | "reject";

/** A gated action to ask the user about. */
export interface PermissionRequest {
  sessionId: string;
  toolCall: { id: string; name: string; title: string; input: unknown };
  /** One line: what will happen (tool, path or command, +N/-M lines). */
  summary: string;
  /**
   * False when nothing of the action can be remembered (a sensitive location, a command run
   * through a shell...): the prompt then offers no "don't ask again".
   */
  rememberable?: boolean;
  /** Unified diff of a file change set. */
  diff?: string;
  /** Proposed final text per file, so a client can review (and trim) it hunk by hunk. */
  files?: { uri: string; oldText: string; newText: string }[];
}

/** The user's answer. `accepted` replaces the proposal's final text per file. */
export interface PermissionAnswer {
  optionId: PermissionOptionId;
  accepted?: { uri: string; text: string }[];
  /** Set when the client could not answer (MethodNotFound, null, timeout, cancel). */
  note?: string;
}

/** A question for the user. */
export interface Question {
  sessionId: string;
  question: string;
  choices?: string[];
  allowFreeText?: boolean;
}

/** Work-done progress of a long operation. */
export interface ProgressHandle {
  report(message: string, percentage?: number): void;
  done(message?: string): void;
}

/** What the core needs from the editor. */
export interface Editor {
  /** The open document at `uri`, or undefined when the editor does not have it open. */
  openDocument(uri: string): OpenDocument | undefined;
  /** Every open document (for search overlays). */
  openDocuments(): OpenDocument[];
  /** Whether the client can create/rename/delete files through applyEdit. */
  readonly supportsResourceOperations: boolean;
  /**
   * Applies changes to open documents (and file operations) as one edit. An answer of applied
   * counts as applied; each edited document's report so far comes with it (`reports`).
   */
  applyEdit(label: string, changes: FileChange[], options?: ApplyEditOptions): Promise<ApplyEditResult>;
  /** Whether the editor saves documents on request (`saveDocuments`). */
  readonly canSaveDocuments: boolean;
  /**
   * Writes the open documents at `uris` to disk, exactly those. Never throws: a document the
   * editor could not save (or no answer) is in `failed`, with the reason.
   */
  saveDocuments(uris: string[], signal: AbortSignal): Promise<SaveResult>;
  /**
   * What the editor learned since for `sessionId`, in words for the model, and forgets it: an
   * edit it said it applied that its report shows was not, one that landed after no answer...
   */
  takeNotices(sessionId: string): string[];
  requestPermission(request: PermissionRequest, signal: AbortSignal): Promise<PermissionAnswer>;
  askUser(question: Question, signal: AbortSignal): Promise<string | undefined>;
  /** Starts work-done progress, when the client shows it. */
  progress(title: string): ProgressHandle;
  /** A short message to the user (window/showMessage). */
  showMessage(type: "error" | "warning" | "info", message: string): void;
}
