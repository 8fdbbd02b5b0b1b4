/**
 * The session the chat file talks to, named in the file by its `# Session <id>` heading. A server
 * that starts on a project whose chat file names a session reloads that session from its log
 * (history, checklist, mode and model), so an editor restart or `:lsp-restart` goes on where it
 * was; the file says so, and says that blocks that were waiting then wait no more (a request
 * lives only as long as the server that asked it).
 */
import type { Agent, SessionInfo } from "../../agent/agent.js";
import type { Logger } from "../../util/log.js";
import type { ChatDocument } from "./chat-document.js";
import type { ChatRenderer } from "./chat-renderer.js";
import { noteLine, sessionHeading } from "./chat-text.js";

/** Finds, resumes and starts the chat file's session. */
export class ChatSession {
  private id: string | undefined;
  /** Whether the file has a `# Session` heading (the next one then comes after a rule). */
  private headed = false;
  private resuming: Promise<void> | undefined;

  constructor(
    private readonly agent: () => Agent,
    private readonly doc: ChatDocument,
    private readonly renderer: ChatRenderer,
    private readonly log: Logger,
  ) {}

  /** Reads the file and resumes the session it names (once; later calls wait for it). */
  resume(): Promise<void> {
    this.resuming ??= this.resumeOnce().catch((err: Error) => this.log.error(`chat file: resuming its session: ${err.message}`));
    return this.resuming;
  }

  /** The chat's session: the one resumed or started last, or a new one (with its heading) when there is none. */
  async current(): Promise<string> {
    await this.resume();
    const agent = this.agent();
    if (this.id && agent.all().some((s) => s.id === this.id)) return this.id;
    return (await this.start({})).sessionId;
  }

  /** Starts a new session for the file and writes its heading. */
  async start(params: object): Promise<SessionInfo> {
    await this.resume();
    const info = this.agent().newSession(params);
    this.id = info.sessionId;
    await this.renderer.standalone(sessionHeading(info.sessionId, !this.headed));
    this.headed = true;
    return info;
  }

  private async resumeOnce(): Promise<void> {
    const loaded = await this.doc.load();
    if (!loaded.sessionId) return;
    this.headed = true;
    const id = loaded.sessionId;
    const lost = loaded.unanswered.length
      ? ` The ${loaded.unanswered.length === 1 ? "block" : "blocks"} ${loaded.unanswered.map((b) => `#${b}`).join(", ")} waited when it stopped and ${loaded.unanswered.length === 1 ? "waits" : "wait"} no more: the agent asks again if it still needs an answer.`
      : "";
    try {
      this.agent().loadSession(id);
    } catch (err) {
      this.log.warn(`chat file: session ${id} could not be loaded: ${(err as Error).message}`);
      await this.renderer.standalone(noteLine(`agent-lsp started again: session ${id} has no readable log here, so the next prompt starts a new session.${lost}`));
      return;
    }
    this.id = id;
    await this.renderer.standalone(noteLine(`agent-lsp started again: session ${id} goes on, reloaded from its log.${lost}`));
  }
}
