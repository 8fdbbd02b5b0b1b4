/**
 * A scripted LSP client for tests: it keeps its own copies of the documents it opened, applies
 * (or refuses, or pretends to apply) workspace/applyEdit as a real editor would, answers prompts
 * as the test says, and records every agent/update.
 */
import { TextDocument } from "vscode-languageserver-textdocument";
import { existsSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { ClientCapabilities, CreateFile, DeleteFile, ProtocolConnection, RenameFile, TextDocumentEdit, WorkspaceEdit } from "vscode-languageserver/node.js";

/** How the client answers workspace/applyEdit. */
export type ApplyEditMode = "apply" | "refuse" | "lie";

/** What the client does when asked something. */
export interface ClientScript {
  applyEdit?: ApplyEditMode;
  /** Answer to window/showMessageRequest: a button title, null (dismissed), or "method-not-found". */
  showMessageRequest?: (params: { message: string; actions?: { title: string }[] }) => string | null | "method-not-found" | Promise<string | null>;
  /** Answer to agent/requestPermission (only when the capability is declared). */
  requestPermission?: (params: any) => unknown;
  askUser?: (params: any) => unknown;
}

/** Default client capabilities: a modern editor with applyEdit and resource operations. */
export function defaultCapabilities(extra: Partial<ClientCapabilities> = {}): ClientCapabilities {
  return {
    workspace: { applyEdit: true, workspaceEdit: { documentChanges: true, resourceOperations: ["create", "rename", "delete"] } },
    window: { workDoneProgress: true },
    ...extra,
  };
}

/** The client side of a test connection. */
export class TestLspClient {
  readonly docs = new Map<string, TextDocument>();
  readonly updates: { sessionId: string; update: any }[] = [];
  readonly requests: { method: string; params: any }[] = [];
  readonly messages: { type: number; message: string }[] = [];
  script: ClientScript = {};

  constructor(readonly connection: ProtocolConnection) {
    connection.onNotification("agent/update", (p: { sessionId: string; update: any }) => this.updates.push(p));
    connection.onNotification("window/showMessage", (p: { type: number; message: string }) => this.messages.push(p));
    connection.onNotification("window/logMessage", () => undefined);
    connection.onNotification("$/progress", (p) => this.requests.push({ method: "$/progress", params: p }));
    connection.onRequest("window/workDoneProgress/create", (p: { token: string | number }) => {
      this.requests.push({ method: "window/workDoneProgress/create", params: p });
      return null;
    });
    connection.onRequest("workspace/applyEdit", (p: { edit: WorkspaceEdit }) => {
      this.requests.push({ method: "workspace/applyEdit", params: p });
      return this.applyEdit(p.edit);
    });
    connection.onRequest("window/showMessageRequest", async (p: { message: string; actions?: { title: string }[] }) => {
      this.requests.push({ method: "window/showMessageRequest", params: p });
      const answer = await (this.script.showMessageRequest?.(p) ?? null);
      if (answer === "method-not-found") throw new (await import("vscode-languageserver/node.js")).ResponseError(-32601, "Unhandled method window/showMessageRequest");
      return answer === null ? null : { title: answer };
    });
    connection.onRequest("agent/requestPermission", async (p: unknown) => {
      this.requests.push({ method: "agent/requestPermission", params: p });
      return this.script.requestPermission?.(p) ?? null;
    });
    connection.onRequest("agent/askUser", async (p: unknown) => {
      this.requests.push({ method: "agent/askUser", params: p });
      return this.script.askUser?.(p) ?? null;
    });
  }

  /** Opens a document (didOpen) with the given text. */
  open(uri: string, text: string, languageId = "plaintext"): void {
    const doc = TextDocument.create(uri, languageId, 1, text);
    this.docs.set(uri, doc);
    void this.connection.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId, version: 1, text } });
  }

  /** Closes a document (didClose). */
  close(uri: string): void {
    this.docs.delete(uri);
    void this.connection.sendNotification("textDocument/didClose", { textDocument: { uri } });
  }

  /** Replaces a document's whole text (didChange), as typing would. */
  change(uri: string, text: string): void {
    const doc = this.docs.get(uri);
    if (!doc) throw new Error(`not open: ${uri}`);
    const version = doc.version + 1;
    const end = doc.positionAt(doc.getText().length);
    const updated = TextDocument.update(doc, [{ range: { start: { line: 0, character: 0 }, end }, text }], version);
    this.docs.set(uri, updated);
    void this.connection.sendNotification("textDocument/didChange", {
      textDocument: { uri, version },
      contentChanges: [{ range: { start: { line: 0, character: 0 }, end }, text }],
    });
  }

  /** The client's text of a document. */
  text(uri: string): string | undefined {
    return this.docs.get(uri)?.getText();
  }

  /** Updates of one kind, in order. */
  updatesOf(kind: string): any[] {
    return this.updates.filter((u) => u.update.kind === kind).map((u) => u.update);
  }

  /** The streamed answer text. */
  answerText(): string {
    return this.updatesOf("text").map((u) => u.text).join("");
  }

  private applyEdit(edit: WorkspaceEdit): { applied: boolean; failureReason?: string } {
    const mode = this.script.applyEdit ?? "apply";
    if (mode === "refuse") return { applied: false, failureReason: "the user said no" };
    if (mode === "lie") return { applied: true };
    for (const change of edit.documentChanges ?? []) {
      if ("textDocument" in change) this.applyDocumentEdit(change);
      else this.applyFileOperation(change);
    }
    return { applied: true };
  }

  /** Creates, renames or deletes a file on disk, as an editor with resource operations does. */
  private applyFileOperation(op: CreateFile | RenameFile | DeleteFile): void {
    if (op.kind === "create") {
      const file = fileURLToPath(op.uri);
      if (!existsSync(file) || op.options?.overwrite) writeFileSync(file, "");
    } else if (op.kind === "rename") {
      renameSync(fileURLToPath(op.oldUri), fileURLToPath(op.newUri));
      const doc = this.docs.get(op.oldUri);
      if (doc) {
        // Editors close the buffer under its old name and open it under the new one.
        this.close(op.oldUri);
        this.open(op.newUri, doc.getText(), doc.languageId);
      }
    } else {
      rmSync(fileURLToPath(op.uri), { force: true });
      if (this.docs.has(op.uri)) this.close(op.uri);
    }
  }

  private applyDocumentEdit(change: TextDocumentEdit): void {
    const doc = this.docs.get(change.textDocument.uri);
    if (!doc) return;
    const version = doc.version + 1;
    const contentChanges = [...change.edits]
      .sort((a, b) => b.range.start.line - a.range.start.line || b.range.start.character - a.range.start.character)
      .map((e) => ({ range: e.range, text: "newText" in e ? e.newText : "" }));
    const updated = TextDocument.update(doc, contentChanges, version);
    this.docs.set(doc.uri, updated);
    void this.connection.sendNotification("textDocument/didChange", { textDocument: { uri: doc.uri, version }, contentChanges });
  }
}
