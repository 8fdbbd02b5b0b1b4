/**
 * A scripted LSP client for tests: it keeps its own copies of the documents it opened, applies
 * (or refuses, or pretends to apply) workspace/applyEdit as a real editor would, answers prompts
 * as the test says, and records every agent/update.
 */
import { TextDocument } from "vscode-languageserver-textdocument";
import { existsSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import {
  ResponseError,
  type CancellationToken,
  type ClientCapabilities,
  type CreateFile,
  type DeleteFile,
  type ProtocolConnection,
  type Range,
  type RenameFile,
  type TextDocumentEdit,
  type WorkspaceEdit,
} from "vscode-languageserver/node.js";

/**
 * How the client answers workspace/applyEdit: apply it and report it at once; refuse it; say
 * applied and change nothing; apply it but report it only at `flush()`, like stock eglot (whose
 * version counts every buffer change and must match a versioned edit exactly); never answer;
 * or, like Vim's ALE, apply it without looking at the version, report the whole new text and
 * never answer.
 */
export type ApplyEditMode = "apply" | "refuse" | "lie" | "lazy" | "hang" | "ale";

/** What the client does when asked something. */
export interface ClientScript {
  applyEdit?: ApplyEditMode;
  /** Refuse an edit whose document version is not the buffer's (Helix does; "apply" alone does not check). */
  strictVersions?: boolean;
  /** Answer to window/showMessageRequest: a button title, null (dismissed), or "method-not-found". */
  showMessageRequest?: (params: { message: string; actions?: { title: string }[] }) => string | null | "method-not-found" | Promise<string | null>;
  /** Answer to agent/requestPermission (only when the capability is declared). */
  requestPermission?: (params: any) => unknown;
  askUser?: (params: any) => unknown;
  /** Answer to agent/saveDocuments; by default each listed open document is written to its file. */
  saveDocuments?: (params: { uris: string[] }) => unknown;
  /** Answer to agent/languageService (declare the capability too); by default MethodNotFound. */
  languageService?: (params: { method: string; params: any }) => unknown;
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
  /** Told of each document's new text (undefined when closed): a second language server follows the buffers. */
  onDocument: ((uri: string, text: string | undefined) => void) | undefined;
  /** Every document edit applied: the text before it and its edits (to check where edits land). */
  readonly appliedEdits: { uri: string; before: string; edits: { range: Range; newText: string }[] }[] = [];
  /** Changes a lazy client applied and has not sent yet, by document. */
  private readonly unreported = new Map<string, { range: Range; text: string }[]>();

  constructor(readonly connection: ProtocolConnection) {
    connection.onNotification("agent/update", (p: { sessionId: string; update: any }) => this.updates.push(p));
    connection.onNotification("window/showMessage", (p: { type: number; message: string }) => this.messages.push(p));
    connection.onNotification("window/logMessage", () => undefined);
    connection.onNotification("$/progress", (p) => this.requests.push({ method: "$/progress", params: p }));
    connection.onRequest("window/workDoneProgress/create", (p: { token: string | number }) => {
      this.requests.push({ method: "window/workDoneProgress/create", params: p });
      return null;
    });
    connection.onRequest("workspace/applyEdit", (p: { edit: WorkspaceEdit }, token: CancellationToken) => {
      this.requests.push({ method: "workspace/applyEdit", params: p });
      this.recordCancel("workspace/applyEdit", token);
      const mode = this.script.applyEdit ?? "apply";
      if (mode === "hang") return new Promise(() => undefined);
      if (mode === "ale") {
        this.applyEdit(p.edit);
        return new Promise(() => undefined);
      }
      return this.applyEdit(p.edit);
    });
    connection.onRequest("window/showMessageRequest", async (p: { message: string; actions?: { title: string }[] }, token: CancellationToken) => {
      this.requests.push({ method: "window/showMessageRequest", params: p });
      this.recordCancel("window/showMessageRequest", token);
      const answer = await (this.script.showMessageRequest?.(p) ?? null);
      if (answer === "method-not-found") throw new ResponseError(-32601, "Unhandled method window/showMessageRequest");
      return answer === null ? null : { title: answer };
    });
    connection.onRequest("agent/requestPermission", async (p: unknown, token: CancellationToken) => {
      this.requests.push({ method: "agent/requestPermission", params: p });
      this.recordCancel("agent/requestPermission", token);
      return this.script.requestPermission?.(p) ?? null;
    });
    connection.onRequest("agent/saveDocuments", async (p: { uris: string[] }) => {
      this.requests.push({ method: "agent/saveDocuments", params: p });
      return this.script.saveDocuments ? this.script.saveDocuments(p) : this.saveDocuments(p.uris);
    });
    connection.onRequest("agent/languageService", async (p: { method: string; params: any }, token: CancellationToken) => {
      this.requests.push({ method: "agent/languageService", params: p });
      this.recordCancel("agent/languageService", token);
      if (!this.script.languageService) throw new ResponseError(-32601, "Unhandled method agent/languageService");
      return this.script.languageService(p);
    });
    connection.onRequest("agent/askUser", async (p: unknown, token: CancellationToken) => {
      this.requests.push({ method: "agent/askUser", params: p });
      this.recordCancel("agent/askUser", token);
      return this.script.askUser?.(p) ?? null;
    });
  }

  /** Writes the listed open documents to disk, as an editor's :write does. */
  private saveDocuments(uris: string[]): { saved: string[]; failed: { uri: string; reason: string }[] } {
    const result = { saved: [] as string[], failed: [] as { uri: string; reason: string }[] };
    for (const uri of uris) {
      const doc = this.docs.get(uri);
      if (!doc) result.failed.push({ uri, reason: "not open" });
      else {
        writeFileSync(fileURLToPath(uri), doc.getText());
        result.saved.push(uri);
      }
    }
    return result;
  }

  /** Server requests withdrawn with $/cancelRequest, by method, in order. */
  cancelledRequests(): string[] {
    return this.requests.filter((r) => r.method === "$/cancelRequest").map((r) => r.params.method);
  }

  /** Sends what a lazy client applied but has not reported: one didChange per document. */
  flush(): void {
    for (const [uri, changes] of this.unreported) {
      void this.connection.sendNotification("textDocument/didChange", { textDocument: { uri, version: this.docs.get(uri)!.version }, contentChanges: changes });
    }
    this.unreported.clear();
  }

  private recordCancel(method: string, token: CancellationToken): void {
    token.onCancellationRequested(() => this.requests.push({ method: "$/cancelRequest", params: { method } }));
  }

  /** Opens a document (didOpen) with the given text. */
  open(uri: string, text: string, languageId = "plaintext"): void {
    const doc = TextDocument.create(uri, languageId, 1, text);
    this.docs.set(uri, doc);
    this.onDocument?.(uri, text);
    void this.connection.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId, version: 1, text } });
  }

  /** Closes a document (didClose). */
  close(uri: string): void {
    this.docs.delete(uri);
    this.onDocument?.(uri, undefined);
    void this.connection.sendNotification("textDocument/didClose", { textDocument: { uri } });
  }

  /**
   * Replaces a document's whole text (didChange), as typing would; a lazy client's unreported
   * changes go out first, in the same didChange, as eglot's idle timer sends them.
   */
  change(uri: string, text: string): void {
    const doc = this.docs.get(uri);
    if (!doc) throw new Error(`not open: ${uri}`);
    const version = doc.version + 1;
    const end = doc.positionAt(doc.getText().length);
    const change = { range: { start: { line: 0, character: 0 }, end }, text };
    const updated = TextDocument.update(doc, [change], version);
    this.docs.set(uri, updated);
    this.onDocument?.(uri, text);
    const contentChanges = [...(this.unreported.get(uri) ?? []), change];
    this.unreported.delete(uri);
    void this.connection.sendNotification("textDocument/didChange", { textDocument: { uri, version }, contentChanges });
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
    const stale = this.script.strictVersions && mode !== "ale" ? (edit.documentChanges ?? []).find((c) => "textDocument" in c && c.textDocument.version !== null && c.textDocument.version !== this.docs.get(c.textDocument.uri)?.version) : undefined;
    if (stale) return { applied: false, failureReason: "stale version" };
    for (const change of edit.documentChanges ?? []) {
      if ("textDocument" in change) this.applyDocumentEdit(change, mode === "lazy");
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

  private applyDocumentEdit(change: TextDocumentEdit, lazy: boolean): void {
    const doc = this.docs.get(change.textDocument.uri);
    if (!doc) return;
    const contentChanges = [...change.edits]
      .sort((a, b) => b.range.start.line - a.range.start.line || b.range.start.character - a.range.start.character)
      .map((e) => ({ range: e.range, text: "newText" in e ? e.newText : "" }));
    this.appliedEdits.push({ uri: doc.uri, before: doc.getText(), edits: contentChanges.map((c) => ({ range: c.range, newText: c.text })) });
    if (this.script.applyEdit === "ale") {
      // ALE sets the buffer's lines and reports the whole text (full sync) when it next lints.
      const updated = TextDocument.update(doc, contentChanges, doc.version + 1);
      this.change(doc.uri, updated.getText());
      return;
    }
    if (lazy) {
      // eglot: a versioned edit must match the buffer's counter, which counts every change.
      const wanted = change.textDocument.version;
      if (wanted !== null && wanted !== doc.version) throw new ResponseError(-32603, `Edits on ${doc.uri} require version ${wanted}, you have ${doc.version}`);
      const updated = TextDocument.update(doc, contentChanges, doc.version + contentChanges.length);
      this.docs.set(doc.uri, updated);
      this.unreported.set(doc.uri, [...(this.unreported.get(doc.uri) ?? []), ...contentChanges]);
      return;
    }
    const version = doc.version + 1;
    const updated = TextDocument.update(doc, contentChanges, version);
    this.docs.set(doc.uri, updated);
    this.onDocument?.(doc.uri, updated.getText());
    void this.connection.sendNotification("textDocument/didChange", { textDocument: { uri: doc.uri, version }, contentChanges });
  }
}
