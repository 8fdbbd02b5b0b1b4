/**
 * The event stream of every session: what a turn streams (text, thoughts, tool calls, plans,
 * usage, status, errors) and how it ended. The core emits; any number of subscribers follow it:
 * a front end translating it onto its wire protocol, the headless CLI printing it, the
 * code-action summary, tests. Emitting never waits for a subscriber, and a subscriber that throws
 * is reported without stopping the others or the turn.
 */
import type { SessionUpdate, TurnEnd } from "../protocol/updates.js";

/** One event of one session. */
export type SessionEvent = SessionUpdate | TurnEnd;

/** The full old and new text of a file a tool call changed (absolute path; "" for a side that does not exist). */
export interface ChangedText {
  path: string;
  oldText: string;
  newText: string;
}

/**
 * What comes with an event but is not part of its wire form: the full texts of the files a
 * finished tool call changed, for front ends whose protocol shows changes as whole texts (ACP's
 * `diff` content); the event itself carries unified diffs. Held only while the event is handed out.
 */
export interface EventDetail {
  texts?: ChangedText[];
}

/** Follows events: every session's, or one session's when subscribed with its id. */
export type SessionEventListener = (sessionId: string, event: SessionEvent, detail?: EventDetail) => void;

/** The stream. One per runtime, shared by every front end on it. */
export class SessionEvents {
  private listeners: { listener: SessionEventListener; sessionId?: string }[] = [];

  /** @param onListenerError told when a subscriber throws (stderr by default) */
  constructor(private readonly onListenerError: (err: unknown) => void = (err) => process.stderr.write(`agent-lsp: an event subscriber failed: ${String(err)}\n`)) {}

  /** Follows every session's events, or only `sessionId`'s. Returns the way to stop. */
  subscribe(listener: SessionEventListener, sessionId?: string): () => void {
    const entry = sessionId === undefined ? { listener } : { listener, sessionId };
    this.listeners = [...this.listeners, entry];
    return () => {
      this.listeners = this.listeners.filter((l) => l !== entry);
    };
  }

  /** Hands one event (and its detail) to every subscriber of its session, in subscription order. */
  emit(sessionId: string, event: SessionEvent, detail?: EventDetail): void {
    // The list is replaced, never changed in place: a subscriber that (un)subscribes meanwhile
    // neither skips nor repeats anyone in this round.
    for (const { listener, sessionId: only } of this.listeners) {
      if (only !== undefined && only !== sessionId) continue;
      try {
        listener(sessionId, event, detail);
      } catch (err) {
        this.onListenerError(err);
      }
    }
  }

  /** An emitter bound to one session (for tools and the gate). */
  for(sessionId: string): (event: SessionEvent) => void {
    return (event) => this.emit(sessionId, event);
  }
}
