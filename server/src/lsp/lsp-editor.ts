/**
 * LspEditor: the Editor seam over an LSP connection. Open documents come from text sync, edits
 * go out as workspace/applyEdit, prompts as agent/requestPermission (clients that declare it) or
 * window/showMessageRequest, and the stream as agent/update notifications.
 */
import { MessageType, ShowMessageNotification, type ClientCapabilities, type Connection, type TextDocuments, type WorkspaceEdit } from "vscode-languageserver/node.js";
import type { TextDocument } from "vscode-languageserver-textdocument";
import type {
  ApplyEditResult,
  Editor,
  FileChange,
  OpenDocument,
  PermissionAnswer,
  PermissionRequest,
  ProgressHandle,
  Question,
} from "../editor/editor.js";
import type { SessionUpdate } from "../protocol/updates.js";
import type { Logger } from "../util/log.js";
import { normalizeUri } from "./uris.js";
import { askUserOverLsp, requestPermissionOverLsp } from "./prompts.js";
import { startProgress } from "./progress.js";
import { computeTextEdits } from "./text-edits.js";
import { breather } from "../util/breathe.js";

/** The Editor implementation for LSP clients. */
export class LspEditor implements Editor {
  capabilities: ClientCapabilities = {};
  /** Seconds a prompt may stay unanswered before it counts as No. */
  approvalTimeoutS = 600;

  constructor(
    private readonly connection: Connection,
    private readonly documents: TextDocuments<TextDocument>,
    private readonly log: Logger,
  ) {}

  get supportsResourceOperations(): boolean {
    const ops = this.capabilities.workspace?.workspaceEdit?.resourceOperations ?? [];
    return ["create", "delete", "rename"].every((op) => ops.includes(op as never));
  }

  openDocument(uri: string): OpenDocument | undefined {
    const doc = this.findDocument(uri);
    return doc && { uri: doc.uri, text: doc.getText(), version: doc.version };
  }

  openDocuments(): OpenDocument[] {
    return this.documents.all().map((d) => ({ uri: d.uri, text: d.getText(), version: d.version }));
  }

  async applyEdit(label: string, changes: FileChange[]): Promise<ApplyEditResult> {
    if (this.capabilities.workspace?.applyEdit === false) {
      return { applied: false, reason: "The editor does not accept workspace/applyEdit." };
    }
    const edit = await this.toWorkspaceEdit(changes);
    try {
      const res = await this.connection.workspace.applyEdit({ label, edit });
      if (res.applied) return { applied: true };
      return { applied: false, reason: res.failureReason ? `The editor refused the edit: ${res.failureReason}` : "The editor refused the edit." };
    } catch (err) {
      return { applied: false, reason: `The editor could not apply the edit: ${(err as Error).message}` };
    }
  }

  waitForText(uri: string, text: string, timeoutMs: number): Promise<boolean> {
    const matches = () => this.findDocument(uri)?.getText() === text;
    if (matches()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const sub = this.documents.onDidChangeContent(() => {
        if (!matches()) return;
        clearTimeout(timer);
        sub.dispose();
        resolve(true);
      });
      const timer = setTimeout(() => {
        sub.dispose();
        resolve(matches());
      }, timeoutMs);
    });
  }

  requestPermission(request: PermissionRequest, signal: AbortSignal): Promise<PermissionAnswer> {
    return requestPermissionOverLsp(this.connection, this.experimental("requestPermission"), request, signal, this.approvalTimeoutS * 1000);
  }

  askUser(question: Question, signal: AbortSignal): Promise<string | undefined> {
    return askUserOverLsp(this.connection, this.experimental("askUser"), question, signal, this.approvalTimeoutS * 1000);
  }

  update(sessionId: string, update: SessionUpdate): void {
    this.notify("agent/update", { sessionId, update });
  }

  progress(title: string): ProgressHandle {
    return startProgress(this.connection, this.capabilities.window?.workDoneProgress === true, title, this.log);
  }

  showMessage(type: "error" | "warning" | "info", message: string): void {
    // The library's showErrorMessage() sends a *request* (showMessageRequest) that waits for a
    // button; a plain message is the window/showMessage notification.
    const kind = type === "error" ? MessageType.Error : type === "warning" ? MessageType.Warning : MessageType.Info;
    this.notify(ShowMessageNotification.type.method, { type: kind, message });
  }

  /**
   * Sends a notification without making the turn wait for it. A failed write (the editor went
   * away) is logged: left unhandled, the rejection would take the whole server down.
   */
  private notify(method: string, params: object): void {
    const unsent = (err: Error) => this.log.warn(`${method} not sent: ${err.message}`);
    try {
      // The library throws at once on a closed connection and rejects on a failed write.
      this.connection.sendNotification(method, params).catch(unsent);
    } catch (err) {
      unsent(err as Error);
    }
  }

  private experimental(name: string): boolean {
    const exp = this.capabilities.experimental as { agent?: Record<string, unknown> } | undefined;
    return Boolean(exp?.agent?.[name]);
  }

  /** Finds an open document by URI, tolerating the different ways clients encode file URIs. */
  private findDocument(uri: string): TextDocument | undefined {
    const direct = this.documents.get(uri);
    if (direct) return direct;
    const wanted = normalizeUri(uri);
    return this.documents.all().find((d) => normalizeUri(d.uri) === wanted);
  }

  /** The edit for `changes`; the event loop gets a turn between large diffs of several files. */
  private async toWorkspaceEdit(changes: FileChange[]): Promise<WorkspaceEdit> {
    const documentChanges: NonNullable<WorkspaceEdit["documentChanges"]> = [];
    const pause = breather(10);
    for (const change of changes) {
      if (change.kind === "edit") {
        await pause();
        const doc = this.findDocument(change.uri);
        documentChanges.push({
          textDocument: { uri: doc?.uri ?? change.uri, version: change.version },
          edits: computeTextEdits(change.oldText, change.newText),
        });
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
    return { documentChanges };
  }
}
