/**
 * The chat file of one connection (`.agent-lsp/chat.md`): its document (the server's transcript
 * and the user's draft), the rendering of the event stream into it, its waiting approval and
 * question blocks, and the session it talks to. Turned on for clients that declare no agent
 * protocol (Helix, stock eglot, Vim with ALE) or with `[editor] chat_file = true`.
 */
import { relative } from "node:path";
import type { ClientCapabilities, Connection } from "vscode-languageserver/node.js";
import { ErrorCodes, ResponseError } from "../lsp-library.js";
import type { Agent } from "../../agent/agent.js";
import type { SafetyMode } from "../../config/schema.js";
import type { DocumentHost } from "../../editor/document-host.js";
import type { SessionEvents } from "../../editor/session-events.js";
import type { SessionUI } from "../../editor/session-ui.js";
import type { Logger } from "../../util/log.js";
import { uriToPath } from "../../workspace/paths.js";
import { ANY_CODE_ACTION_KEY } from "../client-profile.js";
import { normalizeUri } from "../uris.js";
import { ChatDocument } from "./chat-document.js";
import { PIECE } from "./chat-load.js";
import { ChatPrompts, type PendingBlock } from "./chat-prompts.js";
import { ChatRenderer } from "./chat-renderer.js";
import { ChatSession } from "./chat-session.js";
import { CHAT_FILE, escapeText, noteLine, quotedSelection } from "./chat-text.js";
import { TurnQueue } from "./turn-queue.js";

/** What the chat file is built from. */
export interface ChatFileDeps {
  root: string;
  connection: Connection;
  host: Pick<DocumentHost, "readDocument" | "applyEdit" | "onDidChange">;
  ui: Pick<SessionUI, "showMessage">;
  capabilities: () => ClientCapabilities;
  events: SessionEvents;
  agent: () => Agent;
  log: Logger;
  /** Seconds a block may wait for its answer (approval_timeout_s). */
  timeoutS: () => number;
  /** Milliseconds between two edits of the open file (tests shorten it). */
  intervalMs?: number;
  /** How long the editor may take no edit of the file before the user is told. */
  stuckAfterMs?: () => number;
  /** How the user opens the code-action menu, as the file's hints say it (client-profile.ts). */
  actionKey?: () => string;
}

/** The messages that tell the user a block waits. */
const WAITING: Record<PendingBlock["kind"], string> = {
  approval: `agent-lsp: approval needed (see ${CHAT_FILE})`,
  question: `agent-lsp: a question for you (see ${CHAT_FILE})`,
};

/** What is said when the user's change to the transcript is put back. */
const REPAIRED = `agent-lsp put back its text above: the transcript is the agent's record, write under the last "## You"`;

/** One connection's chat file. */
export class ChatFile {
  /** Whether the mode is on (set from the client's capabilities and the config). */
  enabled = false;
  readonly doc: ChatDocument;
  readonly renderer: ChatRenderer;
  readonly prompts: ChatPrompts;
  readonly session: ChatSession;
  private readonly queue: TurnQueue;
  private noShowDocument = false;
  /** A repair was said since the file was last in step: not said again until it is. */
  private repairSaid = false;

  constructor(private readonly deps: ChatFileDeps) {
    this.doc = new ChatDocument({
      root: deps.root,
      host: deps.host,
      log: deps.log,
      notify: (m) => deps.ui.showMessage("warning", m),
      ...(deps.intervalMs ? { intervalMs: deps.intervalMs } : {}),
      ...(deps.stuckAfterMs ? { stuckAfterMs: deps.stuckAfterMs } : {}),
      actionKey: () => this.actionKey(),
    });
    this.renderer = new ChatRenderer(deps.events, this.doc);
    this.session = new ChatSession(deps.agent, this.doc, this.renderer, deps.log);
    this.prompts = new ChatPrompts(
      {
        place: (sessionId, pieces) => this.renderer.place(sessionId, pieces),
        written: async (key) => (await this.doc.pieces()).text(key),
        settle: async (answerKey, tailKey, tail) => {
          const layout = await this.doc.pieces();
          layout.freeze(answerKey);
          layout.set(tailKey, tail);
          this.doc.changed();
        },
        announce: (sessionId, kind) => this.announce(sessionId, kind),
      },
      () => deps.timeoutS() * 1000,
      () => this.actionKey(),
    );
    this.queue = new TurnQueue({ prompts: this.prompts, events: deps.events, agent: deps.agent, ui: deps.ui, note: (text) => this.renderer.standalone(text) });
    this.doc.onRepair(() => void this.repaired());
    this.doc.onSynced(() => (this.repairSaid = false));
  }

  private actionKey(): string {
    return this.deps.actionKey?.() ?? ANY_CODE_ACTION_KEY;
  }

  /** Whether `uri` is this chat file. */
  isChat(uri: string): boolean {
    return normalizeUri(uri) === normalizeUri(this.doc.uri);
  }

  /** Starts following the file: reads it and resumes the session it names. */
  start(): Promise<void> {
    return this.session.resume();
  }

  /** The session the chat file talks to; started (with its heading) on first use. */
  sessionId(): Promise<string> {
    return this.session.current();
  }

  /** Starts a new session for the file and writes its heading. */
  newSession(params: object = {}): Promise<{ sessionId: string }> {
    return this.session.start(params);
  }

  /** What is written under the last `## You`, read from the buffer as it is now. */
  async draft(): Promise<string> {
    await this.doc.refresh();
    return (await this.doc.pieces()).text(PIECE.draft);
  }

  /**
   * Starts the section of a turn of `sessionId` with `prompt` as the user's words. When the
   * prompt is the draft (`draft`, as it was read), the draft is emptied of it.
   */
  async follow(sessionId: string, prompt: string, draft?: string): Promise<void> {
    await this.renderer.follow(sessionId, prompt);
    if (draft !== undefined) (await this.doc.pieces()).change(PIECE.draft, (have) => withoutSent(have, draft));
    this.doc.changed();
  }

  /**
   * Holds a turn of `sessionId` back while another session's block waits for an answer
   * (turn-queue.ts); false when it was cancelled meanwhile. `onQueued` is called when it waits.
   */
  queueTurn(sessionId: string, title: string, signal: AbortSignal, onQueued: () => void): Promise<boolean> {
    return this.queue.wait(sessionId, title, signal, onQueued);
  }

  /** The turn of `sessionId` ended, or failed to start: a turn queued after it may start. */
  turnEnded(sessionId: string): void {
    this.queue.finished(sessionId);
  }

  /** Resolves once everything rendered so far is in the file. */
  written(): Promise<void> {
    return this.doc.idle();
  }

  /** Adds the selection of `uri` to the draft as `path:lines` and a quote. */
  async addSelection(uri: string, range: { start: { line: number }; end: { line: number; character: number } }): Promise<string> {
    const text = (await this.deps.host.readDocument(uri))?.text ?? "";
    const lines = text.split("\n");
    // A selection that ends at column 0 of a line does not include that line.
    const last = range.end.character === 0 && range.end.line > range.start.line ? range.end.line - 1 : range.end.line;
    const quoted = lines.slice(range.start.line, last + 1).join("\n");
    const filePath = uriToPath(uri);
    const rel = filePath ? relative(this.deps.root, filePath) : uri;
    const quote = quotedSelection(rel, range.start.line + 1, last + 1, quoted);
    await this.session.resume();
    (await this.doc.pieces()).change(PIECE.draft, (have) => `${have}${have === "" || have.endsWith("\n") ? "" : "\n"}${have.endsWith("\n\n") || have === "\n" ? "" : "\n"}${quote}`);
    this.doc.changed();
    await this.doc.idle();
    return rel;
  }

  /**
   * Runs a slash command written as the prompt (`/undo`, `/restore <id>`, an MCP prompt) in the
   * chat's session, in the background: its section shows the command and its answer (an MCP
   * prompt's whole turn). Answers at once, as a client may call synchronously.
   */
  async draftCommand(text: string, draft: string): Promise<{ sessionId: string; status: "started" }> {
    const sessionId = await this.sessionId();
    const agent = this.deps.agent();
    agent.assertIdle(sessionId);
    const [name, ...args] = text.split(/\s+/);
    await this.follow(sessionId, text, draft);
    void agent.command(sessionId, name!, args).then(
      async ({ message }) => {
        await this.renderer.finish(sessionId, message ? `${escapeText(message.trim())}\n\n` : "\n");
        if (message) this.deps.ui.showMessage("info", `agent ${name}: ${message}`);
      },
      async (err: Error) => {
        await this.renderer.finish(sessionId, `**Error:** ${escapeText(err.message)}\n\n`);
        this.deps.ui.showMessage("error", `agent ${name}: ${err.message}`);
      },
    );
    return { sessionId, status: "started" };
  }

  /** Sets the safety mode of the chat's session. */
  async setMode(mode: SafetyMode): Promise<{ mode: SafetyMode }> {
    const result = this.deps.agent().setMode(await this.sessionId(), mode);
    this.deps.ui.showMessage("info", `agent: safety mode ${mode}`);
    return result;
  }

  /** Runs a slash command in the chat's session; its message goes to the message line. */
  async slashCommand(name: string, args: string[]): Promise<{ message: string }> {
    const result = await this.deps.agent().command(await this.sessionId(), name, args);
    this.deps.ui.showMessage("info", `agent /${name}: ${result.message}`);
    return result;
  }

  /** Opens the chat file in the editor, where the client supports window/showDocument. */
  async show(): Promise<boolean> {
    await this.session.resume();
    this.doc.changed(); // a new file is written now, so there is something to open
    await this.doc.idle();
    // Helix 25.01 serves window/showDocument without declaring it: only an explicit "no", or a
    // MethodNotFound once, stops us from asking.
    if (this.deps.capabilities().window?.showDocument?.support === false || this.noShowDocument) return false;
    try {
      const result = (await this.deps.connection.sendRequest("window/showDocument", { uri: this.doc.uri, takeFocus: true })) as { success?: boolean } | null;
      return result?.success === true;
    } catch (err) {
      if (err instanceof ResponseError && err.code === ErrorCodes.MethodNotFound) this.noShowDocument = true;
      this.deps.log.warn(`window/showDocument ${CHAT_FILE}: ${(err as Error).message}`);
      return false;
    }
  }

  /**
   * Tells the user a block waits: the message line, the session's progress, and the file itself
   * when the editor does not have it open. An open one is not shown again: that would take the
   * user away from the buffer they are typing in (Helix 25.01 and 25.07 open a shown document in
   * the current view, or with takeFocus false in a new split that takes the focus all the same).
   */
  private announce(sessionId: string, kind: PendingBlock["kind"]): void {
    this.deps.ui.showMessage("warning", WAITING[kind]);
    this.deps.events.emit(sessionId, { kind: "status", text: WAITING[kind] });
    // The file may not be writable (a full disk, a link refused): the prompt still stands.
    void this.deps.host
      .readDocument(this.doc.uri)
      .then((open) => (open ? undefined : this.show()))
      .catch((err: Error) => this.deps.log.warn(`chat file: ${err.message}`));
  }

  /** The user changed the transcript: it is put back (chat-document.ts); said once until the file is in step again. */
  private async repaired(): Promise<void> {
    if (this.repairSaid) return;
    this.repairSaid = true;
    this.deps.ui.showMessage("warning", `${REPAIRED}.`);
    await this.renderer.standalone(noteLine(REPAIRED));
  }

  /** Stops following the event stream and the editor. */
  dispose(): void {
    this.renderer.dispose();
    this.doc.dispose();
  }
}

/** The draft once the prompt sent from it (`sent`, as it was read) is taken out; what was typed after it stays. */
export function withoutSent(have: string, sent: string): string {
  if (have.startsWith(sent)) return `\n${have.slice(sent.length).replace(/^\n+/, "")}`;
  const prompt = sent.trim();
  const at = prompt ? have.indexOf(prompt) : -1;
  return at < 0 ? have : `${have.slice(0, at)}${have.slice(at + prompt.length)}`.replace(/^\n*/, "\n");
}
