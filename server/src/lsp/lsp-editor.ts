/**
 * LspEditor: the Editor seam over an LSP connection. Open documents come from text sync (with
 * the edits the editor has not reported back yet laid over them), edits go out as
 * workspace/applyEdit, prompts as agent/requestPermission (clients that declare it) or
 * window/showMessageRequest, and the stream as agent/update notifications.
 */
import type { ClientCapabilities, Connection } from "vscode-languageserver/node.js";
import { MessageType, ShowDocumentRequest, ShowMessageNotification } from "./lsp-library.js";
import type { TextDocument } from "vscode-languageserver-textdocument";
import type { ApplyEditOptions, ApplyEditResult, FileChange, OpenDocument, SaveResult } from "../editor/document-host.js";
import type { Editor } from "../editor/editor.js";
import type { EditorApprovals } from "../config/schema.js";
import type { PermissionAnswer, PermissionRequest, ProgressHandle, Question, SessionUI } from "../editor/session-ui.js";
import type { SessionUpdate } from "../protocol/updates.js";
import type { Logger } from "../util/log.js";
import { applyWorkspaceEdit, type ApplyEditSettings } from "./apply-edit.js";
import type { ObservableDocuments } from "./document-sync.js";
import { NoticeBox, settlementNews } from "./edit-notices.js";
import { EditTracker, type Settlement, type TrackedEdit } from "./edit-tracker.js";
import { askUserOverLsp, requestPermissionOverLsp, type OnLateAnswer, type PlainAnswer, type PromptChannel } from "./prompts.js";
import { ANY_CODE_ACTION_KEY, oneRow, type ClientProfile } from "./client-profile.js";
import { lateAnswerText, type PromptKind } from "./late-answers.js";
import { raceQuestion } from "./question-race.js";
import type { SessionEvents } from "../editor/session-events.js";
import { startProgress } from "./progress.js";
import { saveDocumentsOverLsp } from "./save-documents.js";
import type { LanguageService } from "../editor/language-service.js";
import { declaredLanguageServiceMethods, LspLanguageService } from "./language-service.js";
import { normalizeUri } from "./uris.js";
import { startWaitNotice, WAITING_FOR_EDIT, WAITING_FOR_USER, type WaitTexts } from "./wait-notice.js";

/** The Editor implementation for LSP clients. */
export class LspEditor implements Editor {
  capabilities: ClientCapabilities = {};
  /** What is known of the client (clientInfo, the agent protocol); set right after construction. */
  profile: ClientProfile = { name: "", agentProtocol: false, oneRowMessages: false, codeActionKey: ANY_CODE_ACTION_KEY };
  /** Where a late answer is also written (the chat file, when it is on), beside the message line. */
  lateAnswerNote: ((sessionId: string, text: string) => void) | undefined;
  /** Seconds a prompt may stay unanswered before it counts as No. */
  approvalTimeoutS = 600;
  /** Timing of workspace/applyEdit (apply_edit_timeout_s; the report window). */
  readonly applyEditSettings: ApplyEditSettings = { timeoutMs: 30_000, reportWindowMs: 1000 };
  /** How long the editor may keep a turn waiting before the turn says what it waits for. */
  waitNoticeMs = 1500;
  /**
   * The sessions' event stream, once the runtime is built: what the editor itself has to say
   * in a session (waiting for an answer, an edit found skipped) goes there like any update.
   */
  events: SessionEvents | undefined;
  /**
   * Where prompts go when the client cannot answer window/showMessageRequest (Helix 25.01):
   * blocks in the chat file, answered with code actions. Set when the chat file is on.
   */
  chatPrompts: Pick<SessionUI, "requestPermission" | "askUser"> | undefined;
  /** `[editor] approvals`: where a client without agent-lsp's own review is asked (see askInChat). */
  approvals: EditorApprovals = "auto";
  /** Milliseconds the editor's language servers have to answer (`[tools] language_service_timeout_s`). */
  languageServiceTimeoutMs = 5000;
  /** Built on first use from the capabilities (set once, right after construction). */
  private service: LanguageService | null | undefined;
  /** The client answered window/showMessageRequest with MethodNotFound: not asked again. */
  private noMessageRequest = false;
  private readonly tracker: EditTracker;
  private readonly notices = new NoticeBox();
  private readonly documents: ObservableDocuments["documents"];

  constructor(
    private readonly connection: Connection,
    synced: ObservableDocuments,
    private readonly log: Logger,
  ) {
    this.documents = synced.documents;
    this.tracker = new EditTracker((edit, settlement) => this.settledLate(edit, settlement));
    synced.observe((uri) => this.tracker.watchReport(uri));
    this.documents.onDidOpen(({ document }) => this.tracker.opened(document));
    this.documents.onDidClose(({ document }) => this.tracker.closed(document.uri));
  }

  get supportsResourceOperations(): boolean {
    const ops = this.capabilities.workspace?.workspaceEdit?.resourceOperations ?? [];
    return ["create", "delete", "rename"].every((op) => ops.includes(op as never));
  }

  async readDocument(uri: string): Promise<OpenDocument | undefined> {
    const doc = this.findDocument(uri);
    return doc && { uri: doc.uri, ...this.tracker.view(doc) };
  }

  async openDocuments(): Promise<OpenDocument[]> {
    return this.documents.all().map((d) => ({ uri: d.uri, ...this.tracker.view(d) }));
  }

  onDidChange(listener: (uri: string) => void): () => void {
    return this.documents.onDidChangeContent(({ document }) => listener(document.uri)).dispose;
  }

  async applyEdit(label: string, changes: FileChange[], options: ApplyEditOptions = {}): Promise<ApplyEditResult> {
    // Sent even to a client that declares `workspace.applyEdit: false`: the document is open in
    // it, so writing the disk is no way round, and Vim's ALE declares so yet applies each edit
    // (once it ran a code action) without answering; the editor's report of the document says
    // whether it landed (apply-edit.ts), and a client that really cannot still refuses or times out.
    return applyWorkspaceEdit(
      {
        connection: this.connection,
        documents: { find: (uri) => this.findDocument(uri), view: (doc) => this.tracker.view(doc) },
        tracker: this.tracker,
        settings: this.applyEditSettings,
        log: this.log,
        waitNotice: (sessionId) => this.waitNotice(sessionId, WAITING_FOR_EDIT),
      },
      label,
      changes,
      options,
    );
  }

  get canSaveDocuments(): boolean {
    return this.experimental("saveDocuments");
  }

  saveDocuments(uris: string[], signal: AbortSignal): Promise<SaveResult> {
    if (!this.canSaveDocuments) {
      return Promise.resolve({ saved: [], failed: uris.map((uri) => ({ uri, reason: "the editor cannot save documents on request" })) });
    }
    return saveDocumentsOverLsp(this.connection, uris, signal, this.applyEditSettings.timeoutMs);
  }

  /** The editor's language servers, when the client declares `experimental.agent.languageService`. */
  get languageService(): LanguageService | undefined {
    if (this.service === undefined) {
      const methods = declaredLanguageServiceMethods(this.experimentalValue("languageService"));
      this.service = methods.length ? new LspLanguageService(this.connection, methods, () => this.languageServiceTimeoutMs) : null;
    }
    return this.service ?? undefined;
  }

  takeNotices(sessionId: string): string[] {
    return this.notices.take(sessionId);
  }

  async requestPermission(request: PermissionRequest, signal: AbortSignal): Promise<PermissionAnswer> {
    const rich = this.experimental("requestPermission");
    if (!rich && this.chatPrompts && this.askInChat(true)) return this.chatPrompts.requestPermission(request, signal);
    const stop = this.waitNotice(request.sessionId, WAITING_FOR_USER);
    let answer: PlainAnswer<PermissionAnswer>;
    try {
      answer = await requestPermissionOverLsp(this.promptChannel(rich), request, signal, this.onLate(request.sessionId, "approval"));
    } finally {
      stop();
    }
    if (answer.refused) this.refused(answer.refused);
    if (!answer.unsupported || rich) return answer;
    this.noMessageRequest = true;
    return this.chatPrompts ? this.chatPrompts.requestPermission(request, signal) : answer;
  }

  async askUser(question: Question, signal: AbortSignal): Promise<string | undefined> {
    const rich = this.experimental("askUser");
    const hasChoices = Boolean(question.choices?.length);
    // A message prompt offers only buttons: a question without choices goes to the chat file.
    if (!rich && this.chatPrompts && this.askInChat(hasChoices)) return this.chatPrompts.askUser(question, signal);
    const stop = this.waitNotice(question.sessionId, WAITING_FOR_USER);
    let answer: PlainAnswer<{ answer?: string }>;
    try {
      // Choices and the user's own words: the buttons, and the chat file's block for the words.
      answer = !rich && this.chatPrompts && question.allowFreeText === true
        ? await this.askBothWays(question, this.chatPrompts, signal)
        : await askUserOverLsp(this.promptChannel(rich), question, signal, this.onLate(question.sessionId, "question"));
    } finally {
      stop();
    }
    if (answer.refused) this.refused(answer.refused);
    if (!answer.unsupported || rich) return answer.answer;
    this.noMessageRequest = true;
    return answer.answer ?? (this.chatPrompts ? this.chatPrompts.askUser(question, signal) : undefined);
  }

  /** The message box and the chat-file block at once (question-race.ts); a box clicked after the block answered is a late answer. */
  private async askBothWays(question: Question, chat: NonNullable<LspEditor["chatPrompts"]>, signal: AbortSignal): Promise<PlainAnswer<{ answer?: string }>> {
    let blockAnswered = false;
    const late = this.onLate(question.sessionId, "question");
    const result = await raceQuestion(
      {
        box: async (s) => {
          const answer = await askUserOverLsp(this.promptChannel(false), question, s, (chosen, withdrawn) => late(chosen, blockAnswered ? "answered" : withdrawn));
          if (answer.refused) this.refused(answer.refused);
          return answer;
        },
        block: async (s) => {
          const answer = await chat.askUser(question, s);
          blockAnswered ||= answer !== undefined;
          return answer;
        },
      },
      signal,
    );
    return { ...(result.answer !== undefined ? { answer: result.answer } : {}), ...(result.unsupported ? { unsupported: true } : {}) };
  }

  /**
   * Whether a prompt to a client without agent-lsp's own review goes to the chat file (`[editor]
   * approvals`): always for `chat_file` and `auto` (a message box shows no diff), and for
   * `message` when the client cannot answer a message prompt or it could not offer the answer
   * (`fitsMessage` false: a question without choices).
   */
  private askInChat(fitsMessage: boolean): boolean {
    return this.approvals !== "message" || this.noMessageRequest || !fitsMessage;
  }

  private promptChannel(rich: boolean): PromptChannel {
    const actionProperties = this.capabilities.window?.showMessage?.messageActionItem?.additionalPropertiesSupport === true;
    return { connection: this.connection, rich, actionProperties, timeoutMs: this.approvalTimeoutS * 1000 };
  }

  /** An answer that named another request: the user hears it was not taken, the log keeps it. */
  private refused(why: string): void {
    this.log.warn(why);
    this.showMessage("warning", why);
  }

  /**
   * Hears of a choice made in a message box after its request was withdrawn (the box stayed:
   * Helix ignores $/cancelRequest): the message line says nothing came of it, and so does the
   * chat file when it is on.
   */
  private onLate(sessionId: string, kind: PromptKind): OnLateAnswer {
    return (answer, withdrawn) => {
      const text = lateAnswerText({ kind, withdrawn, answer });
      this.log.info(`${kind} answered after it was withdrawn (${withdrawn}): ${answer}`);
      this.showMessage("warning", text);
      this.lateAnswerNote?.(sessionId, text);
    };
  }

  /** Sends one session update to the client (the front end subscribes this to the event stream). */
  sendUpdate(sessionId: string, update: SessionUpdate): void {
    this.notify("agent/update", { sessionId, update });
  }

  progress(title: string): ProgressHandle {
    return startProgress(this.connection, this.capabilities.window?.workDoneProgress === true, title, this.log);
  }

  showMessage(type: "error" | "warning" | "info", message: string): void {
    // The library's showErrorMessage() sends a *request* (showMessageRequest) that waits for a
    // button; a plain message is the window/showMessage notification.
    const kind = type === "error" ? MessageType.Error : type === "warning" ? MessageType.Warning : MessageType.Info;
    this.notify(ShowMessageNotification.type.method, { type: kind, message: this.profile.oneRowMessages ? oneRow(message) : message });
  }

  /** `window/showDocument` with `external: true`, to clients that declare it (a sign-in page, in the browser). */
  async openExternal(url: string): Promise<boolean> {
    if (this.capabilities.window?.showDocument?.support !== true) return false;
    try {
      const result = await this.connection.sendRequest(ShowDocumentRequest.type, { uri: url, external: true });
      return result?.success === true;
    } catch (err) {
      this.log.warn(`window/showDocument failed: ${(err as Error).message}`);
      return false;
    }
  }

  /** A report settled an edit after its tool returned: the session (model and user) hears of it. */
  private settledLate(edit: TrackedEdit, settlement: Settlement): void {
    const news = settlementNews(edit, settlement);
    this.log.info(`edit of ${edit.uri} (answer ${edit.answer}) settled late: ${settlement}`);
    if (!news) return;
    if (news.user) this.showMessage("warning", news.user);
    if (!edit.sessionId) return;
    this.notices.add(edit.sessionId, news.model);
    this.events?.emit(edit.sessionId, { kind: "status", text: news.model });
  }

  private waitNotice(sessionId: string | undefined, texts: WaitTexts): () => void {
    if (!sessionId) return () => undefined;
    return startWaitNotice((t) => this.events?.emit(sessionId, { kind: "status", text: t }), texts, this.waitNoticeMs);
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
    return Boolean(this.experimentalValue(name));
  }

  private experimentalValue(name: string): unknown {
    const exp = this.capabilities.experimental as { agent?: Record<string, unknown> } | undefined;
    return exp?.agent?.[name];
  }

  /** Finds an open document by URI, tolerating the different ways clients encode file URIs. */
  private findDocument(uri: string): TextDocument | undefined {
    const direct = this.documents.get(uri);
    if (direct) return direct;
    const wanted = normalizeUri(uri);
    return this.documents.all().find((d) => normalizeUri(d.uri) === wanted);
  }
}
