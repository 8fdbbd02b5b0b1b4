/**
 * An in-memory Editor for unit tests. Documents are opened by the test (with unsaved text if it
 * likes); applyEdit applies the changes, refuses them, or lies (answers applied without changing
 * anything), as the test chooses; every call is recorded so a test can assert what was sent.
 */
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { ApplyEditOptions, ApplyEditResult, EditReport, FileChange, OpenDocument, SaveResult } from "../../server/src/editor/document-host.js";
import type { Editor } from "../../server/src/editor/editor.js";
import type { PermissionAnswer, PermissionRequest, ProgressHandle, Question } from "../../server/src/editor/session-ui.js";
import { pathToUri, uriToPath } from "../../server/src/workspace/paths.js";
import type { SessionUpdate } from "../../server/src/protocol/updates.js";
import type { SessionEvents } from "../../server/src/editor/session-events.js";

/** How the fake answers applyEdit. */
export type ApplyBehaviour =
  /** Applies, and the report confirms it. */
  | "apply"
  /** Answers applied: false. */
  | "refuse"
  /** Answers applied: true, changes nothing, and the report shows it (a client that skips). */
  | "lie"
  /** Applies without reporting back yet (a lazy client): the version is unknown. */
  | "lazy"
  /** Gives no answer (a timeout). */
  | "unanswered"
  /** Decides per call. */
  | ((changes: FileChange[]) => ApplyEditResult | "apply" | "lie");

/** An Editor whose documents live in memory. */
export class FakeEditor implements Editor {
  readonly docs = new Map<string, OpenDocument>();
  readonly applyCalls: { label: string; changes: FileChange[]; options: ApplyEditOptions }[] = [];
  readonly updates: { sessionId: string; update: SessionUpdate }[] = [];

  /** Records every update of a runtime's event stream in `updates`, as a front end would show them. */
  follow(events: SessionEvents): void {
    events.subscribe((sessionId, event) => {
      if (event.kind !== "turn_end") this.updates.push({ sessionId, update: event });
    });
  }
  readonly messages: { type: string; message: string }[] = [];
  behaviour: ApplyBehaviour = "apply";
  supportsResourceOperations: boolean;
  permission: PermissionAnswer = { optionId: "allow_once" };

  constructor(options: { resourceOperations?: boolean } = {}) {
    this.supportsResourceOperations = options.resourceOperations ?? false;
  }

  /** Opens a document (a path or a file URI) with `text`, which need not match the disk. */
  open(pathOrUri: string, text: string, version = 1): OpenDocument {
    const uri = pathOrUri.startsWith("file:") ? pathOrUri : pathToUri(path.resolve(pathOrUri));
    const doc = { uri, text, version };
    this.docs.set(uri, doc);
    return doc;
  }

  /** Closes a document. */
  close(pathOrUri: string): void {
    this.docs.delete(pathOrUri.startsWith("file:") ? pathOrUri : pathToUri(path.resolve(pathOrUri)));
  }

  /** The open document's text, for assertions. */
  textOf(pathOrUri: string): string | undefined {
    return this.docs.get(pathOrUri.startsWith("file:") ? pathOrUri : pathToUri(path.resolve(pathOrUri)))?.text;
  }

  async readDocument(uri: string): Promise<OpenDocument | undefined> {
    return this.openDocument(uri);
  }

  /** The open document now, for assertions and for the fake's own bookkeeping. */
  openDocument(uri: string): OpenDocument | undefined {
    const doc = this.docs.get(uri);
    return doc ? { ...doc } : undefined;
  }

  async openDocuments(): Promise<OpenDocument[]> {
    return [...this.docs.values()].map((d) => ({ ...d }));
  }

  private readonly changeListeners = new Set<(uri: string) => void>();

  onDidChange(listener: (uri: string) => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  /** Notices the next takeNotices hands out, by session. */
  readonly notices = new Map<string, string[]>();

  async applyEdit(label: string, changes: FileChange[], options: ApplyEditOptions = {}): Promise<ApplyEditResult> {
    this.applyCalls.push({ label, changes, options });
    const decided = typeof this.behaviour === "function" ? this.behaviour(changes) : this.behaviour;
    if (decided === "refuse") return { applied: false, reason: "the user rejected the edit" };
    if (decided === "unanswered") return { applied: false, unanswered: true, reason: "No answer within 30 s." };
    if (decided === "lie") return { applied: true, reports: reportAll(changes, "skipped") };
    if (typeof decided === "object") return decided;
    const stale = changes.find((c) => c.kind === "edit" && c.version !== null && this.docs.get(c.uri)?.version !== c.version);
    if (stale) return { applied: false, reason: "document version mismatch" };
    for (const change of changes) this.applyOne(change, decided === "lazy");
    return { applied: true, reports: reportAll(changes, decided === "lazy" ? "pending" : "confirmed") };
  }

  /** Whether the fake saves documents; `saveCalls` records each request. */
  canSaveDocuments = false;
  readonly saveCalls: string[][] = [];

  /** Writes each open document's text to its file, as an editor's :write would. */
  async saveDocuments(uris: string[]): Promise<SaveResult> {
    this.saveCalls.push(uris);
    const result: SaveResult = { saved: [], failed: [] };
    for (const uri of uris) {
      const doc = this.docs.get(uri);
      if (!doc) result.failed.push({ uri, reason: "not open" });
      else {
        writeFileSync(uriToPath(uri)!, doc.text);
        result.saved.push(uri);
      }
    }
    return result;
  }

  takeNotices(sessionId: string): string[] {
    const out = this.notices.get(sessionId) ?? [];
    this.notices.delete(sessionId);
    return out;
  }

  /**
   * Applies one change as a real client would: edits to buffers, file operations on disk. A lazy
   * client has not reported the edit's version yet.
   */
  private applyOne(change: FileChange, lazy = false): void {
    if (change.kind === "edit") {
      const doc = this.docs.get(change.uri);
      if (doc) this.docs.set(change.uri, { ...doc, text: change.newText, version: lazy || doc.version === null ? null : doc.version + 1 });
      else this.docs.set(change.uri, { uri: change.uri, text: change.newText, version: 1 });
      for (const listener of this.changeListeners) listener(change.uri);
      return;
    }
    if (change.kind === "create") {
      const file = uriToPath(change.uri)!;
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, change.text);
      this.docs.set(change.uri, { uri: change.uri, text: change.text, version: 1 });
      return;
    }
    if (change.kind === "delete") {
      rmSync(uriToPath(change.uri)!, { force: true });
      this.docs.delete(change.uri);
      return;
    }
    const from = uriToPath(change.oldUri)!;
    const to = uriToPath(change.newUri)!;
    mkdirSync(path.dirname(to), { recursive: true });
    renameSync(from, to);
    const doc = this.docs.get(change.oldUri);
    this.docs.delete(change.oldUri);
    if (doc) this.docs.set(change.newUri, { ...doc, uri: change.newUri, version: doc.version === null ? null : doc.version + 1 });
  }

  async requestPermission(_request: PermissionRequest, _signal: AbortSignal): Promise<PermissionAnswer> {
    return this.permission;
  }

  async askUser(_question: Question, _signal: AbortSignal): Promise<string | undefined> {
    return undefined;
  }


  progress(_title: string): ProgressHandle {
    return { report: () => undefined, done: () => undefined };
  }

  showMessage(type: "error" | "warning" | "info", message: string): void {
    this.messages.push({ type, message });
  }
}

/** The same report for every edited document of `changes`. */
function reportAll(changes: FileChange[], report: EditReport): Record<string, EditReport> {
  return Object.fromEntries(changes.flatMap((c) => (c.kind === "edit" ? [[c.uri, report]] : [])));
}
