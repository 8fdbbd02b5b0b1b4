/**
 * The chat file of one connection: its writer, its rendering of the event stream, its waiting
 * approval and question blocks, and the session the file talks to. Turned on for clients that
 * declare no agent protocol (Helix) or with `[editor] chat_file = true`.
 */
import { relative } from "node:path";
import { ErrorCodes, ResponseError, type ClientCapabilities, type Connection } from "vscode-languageserver/node.js";
import type { Agent } from "../../agent/agent.js";
import type { SafetyMode } from "../../config/schema.js";
import type { DocumentHost } from "../../editor/document-host.js";
import type { SessionEvents } from "../../editor/session-events.js";
import type { SessionUI } from "../../editor/session-ui.js";
import type { Logger } from "../../util/log.js";
import { uriToPath } from "../../workspace/paths.js";
import { normalizeUri } from "../uris.js";
import { ChatPrompts, type PendingBlock } from "./chat-prompts.js";
import { ChatRenderer } from "./chat-renderer.js";
import { CHAT_FILE, quotedSelection, sessionHeading } from "./chat-text.js";
import { ChatWriter } from "./chat-writer.js";

/** What the chat file is built from. */
export interface ChatFileDeps {
  root: string;
  connection: Connection;
  host: Pick<DocumentHost, "readDocument" | "applyEdit">;
  ui: Pick<SessionUI, "showMessage">;
  capabilities: () => ClientCapabilities;
  events: SessionEvents;
  agent: () => Agent;
  log: Logger;
  /** Seconds a block may wait for its answer (approval_timeout_s). */
  timeoutS: () => number;
}

/** The messages that tell the user a block waits. */
const WAITING: Record<PendingBlock["kind"], string> = {
  approval: `agent-lsp: approval needed (see ${CHAT_FILE})`,
  question: `agent-lsp: a question for you (see ${CHAT_FILE})`,
};

/** One connection's chat file. */
export class ChatFile {
  /** Whether the mode is on (set from the client's capabilities and the config). */
  enabled = false;
  readonly writer: ChatWriter;
  readonly renderer: ChatRenderer;
  readonly prompts: ChatPrompts;
  private session: string | undefined;
  private noShowDocument = false;

  constructor(private readonly deps: ChatFileDeps) {
    this.writer = new ChatWriter(deps.root, deps.host, deps.log);
    this.renderer = new ChatRenderer(deps.events, this.writer);
    this.prompts = new ChatPrompts(
      { write: (text) => this.renderer.note(text), announce: (sessionId, kind) => this.announce(sessionId, kind) },
      () => deps.timeoutS() * 1000,
    );
  }

  /** Whether `uri` is this chat file. */
  isChat(uri: string): boolean {
    return normalizeUri(uri) === normalizeUri(this.writer.uri);
  }

  /** The session the chat file talks to; started on first use. */
  sessionId(): string {
    const agent = this.deps.agent();
    if (this.session && agent.all().some((s) => s.id === this.session)) return this.session;
    this.session = agent.newSession({}).sessionId;
    return this.session;
  }

  /** Starts a new session for the file and opens its block. */
  async newSession(params: object = {}): Promise<{ sessionId: string }> {
    const info = this.deps.agent().newSession(params);
    this.session = info.sessionId;
    await this.writer.ensureExists();
    await this.renderer.note(sessionHeading(info.sessionId));
    return info;
  }

  /** Appends the selection of `uri` as `path:lines` and a quote under a `## You` heading. */
  async addSelection(uri: string, range: { start: { line: number }; end: { line: number; character: number } }): Promise<string> {
    const text = (await this.deps.host.readDocument(uri))?.text ?? "";
    const lines = text.split("\n");
    // A selection that ends at column 0 of a line does not include that line.
    const last = range.end.character === 0 && range.end.line > range.start.line ? range.end.line - 1 : range.end.line;
    const quoted = lines.slice(range.start.line, last + 1).join("\n");
    const filePath = uriToPath(uri);
    const rel = filePath ? relative(this.deps.root, filePath) : uri;
    await this.writer.ensureExists();
    await this.renderer.note(`\n${quotedSelection(rel, range.start.line + 1, last + 1, quoted)}`);
    await this.writer.idle();
    return rel;
  }

  /** Sets the safety mode of the chat's session. */
  setMode(mode: SafetyMode): { mode: SafetyMode } {
    const result = this.deps.agent().setMode(this.sessionId(), mode);
    this.deps.ui.showMessage("info", `agent: safety mode ${mode}`);
    return result;
  }

  /** Runs a slash command in the chat's session; its message goes to the message line. */
  async slashCommand(name: string, args: string[]): Promise<{ message: string }> {
    const result = await this.deps.agent().command(this.sessionId(), name, args);
    this.deps.ui.showMessage("info", `agent /${name}: ${result.message}`);
    return result;
  }

  /** Opens the chat file in the editor, where the client supports window/showDocument. */
  async show(): Promise<boolean> {
    await this.writer.ensureExists();
    // Helix 25.01 serves window/showDocument without declaring it: only an explicit "no", or a
    // MethodNotFound once, stops us from asking.
    if (this.deps.capabilities().window?.showDocument?.support === false || this.noShowDocument) return false;
    try {
      const result = (await this.deps.connection.sendRequest("window/showDocument", { uri: this.writer.uri, takeFocus: true })) as { success?: boolean } | null;
      return result?.success === true;
    } catch (err) {
      if (err instanceof ResponseError && err.code === ErrorCodes.MethodNotFound) this.noShowDocument = true;
      this.deps.log.warn(`window/showDocument ${CHAT_FILE}: ${(err as Error).message}`);
      return false;
    }
  }

  /** Tells the user a block waits: the status line, the session's progress, and the file itself. */
  private announce(sessionId: string, kind: PendingBlock["kind"]): void {
    this.deps.ui.showMessage("warning", WAITING[kind]);
    this.deps.events.emit(sessionId, { kind: "status", text: WAITING[kind] });
    // The file may not be writable (a full disk, a link refused): the prompt still stands.
    this.show().catch((err: Error) => this.deps.log.warn(`chat file: ${err.message}`));
  }

  /** Stops following the event stream. */
  dispose(): void {
    this.renderer.dispose();
  }
}
