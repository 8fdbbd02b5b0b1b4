/**
 * Turns queued behind a waiting block. A turn started (a code action in another file, a prompt
 * in another session) while a block in the chat file waits for the user's answer does not run
 * beside it: its section would land between the waiting turn's block and the rest of that turn,
 * and its own approvals would pile up under the one the user is reading. It waits instead, said
 * so by a line in the transcript and the message line, and starts once every turn that was
 * waiting has ended; its `## You` section then comes after theirs. Turns queued together start
 * one after another, in the order they were queued: each waits for the one before it to end.
 */
import type { Agent } from "../../agent/agent.js";
import type { SessionEvents } from "../../editor/session-events.js";
import type { SessionUI } from "../../editor/session-ui.js";
import type { ChatPrompts } from "./chat-prompts.js";
import { noteLine } from "./chat-text.js";

/** What the queue watches and where it says what it does. */
export interface TurnQueueDeps {
  prompts: Pick<ChatPrompts, "waitingSessions" | "waitingOf" | "onSettled">;
  events: SessionEvents;
  agent: () => Agent;
  ui: Pick<SessionUI, "showMessage">;
  /** Writes a line of the server's own above the draft. */
  note(text: string): Promise<void>;
}

/** Holds turns back while another session's block waits. */
export class TurnQueue {
  /** Sessions whose turn was queued, in order, until that turn has ended (finished()). */
  private readonly line: string[] = [];
  /** Waiters to check again when a queued turn leaves the line. */
  private readonly checks = new Set<() => void>();

  constructor(private readonly deps: TurnQueueDeps) {}

  /** The turn of `sessionId` has ended (or failed to start): the next queued turn may go. */
  finished(sessionId: string): void {
    const at = this.line.indexOf(sessionId);
    if (at < 0) return;
    this.line.splice(at, 1);
    for (const check of [...this.checks]) check();
  }

  /**
   * Resolves when a turn of `sessionId` (shown as `title`) may start: at once when no other
   * session has a block waiting, else once every such session's turn has ended (`onQueued` is
   * called first, so the caller can answer its client). False when `signal` cancelled it while
   * it waited.
   */
  async wait(sessionId: string, title: string, signal: AbortSignal, onQueued: () => void): Promise<boolean> {
    let ahead = this.ahead(sessionId);
    if (!ahead.length) return true;
    this.line.push(sessionId);
    onQueued();
    const blocks = ahead.flatMap((id) => this.deps.prompts.waitingOf(id)).map((b) => `#${b.id}`);
    const after = blocks.length ? `the turn waiting on block ${blocks.join(", ")} ends` : "the turn queued before it has ended";
    const words = `"${title}" is queued: it starts when ${after}`;
    this.deps.ui.showMessage("info", `agent: ${words}.`);
    await this.deps.note(noteLine(words));
    while (ahead.length) {
      if (!(await this.ended(ahead, signal))) {
        this.finished(sessionId);
        await this.deps.note(noteLine(`"${title}" was cancelled before it started`));
        return false;
      }
      ahead = this.ahead(sessionId);
    }
    return true;
  }

  /** Other sessions with a block waiting, and the turns queued before this one's. */
  private ahead(sessionId: string): string[] {
    const at = this.line.indexOf(sessionId);
    const before = at < 0 ? this.line : this.line.slice(0, at);
    return [...new Set([...this.deps.prompts.waitingSessions(), ...before])].filter((id) => id !== sessionId);
  }

  /** Whether `sessionId` still holds the queue: queued and not ended, a block waits, or its turn runs. */
  private busy(sessionId: string): boolean {
    if (this.line.includes(sessionId) || this.deps.prompts.waitingOf(sessionId).length) return true;
    const session = this.deps.agent().all().find((s) => s.id === sessionId);
    return Boolean(session?.turn);
  }

  /** Resolves true once none of `sessions` is busy, false when `signal` aborts first. */
  private ended(sessions: string[], signal: AbortSignal): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      const stops: (() => void)[] = [];
      const done = (go: boolean) => {
        for (const stop of stops) stop();
        resolve(go);
      };
      const check = () => {
        if (!sessions.some((id) => this.busy(id))) done(true);
      };
      const onAbort = () => done(false);
      signal.addEventListener("abort", onAbort, { once: true });
      stops.push(() => signal.removeEventListener("abort", onAbort));
      // A turn's end is its last event, sent once the session is idle again.
      stops.push(
        this.deps.events.subscribe((id, event) => {
          if (event.kind === "turn_end" && sessions.includes(id)) check();
        }),
      );
      // A block asked before a turn (the refactor goal) ends without one.
      stops.push(this.deps.prompts.onSettled(check));
      this.checks.add(check);
      stops.push(() => this.checks.delete(check));
      if (signal.aborted) onAbort();
      else check();
    });
  }
}
