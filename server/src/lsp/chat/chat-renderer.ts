/**
 * The chat file as one more rendering of the sessions' event stream: a turn that the chat
 * follows gets its answer streamed under `## Agent`, each finished tool call as one line, a
 * usage line, and a fresh `## You` heading when it ends.
 */
import type { SessionEvent, SessionEvents } from "../../editor/session-events.js";
import { phaseReportLine } from "../../protocol/updates.js";
import { AGENT_HEADING, toolLine, usageLine, YOU_HEADING } from "./chat-text.js";
import type { ChatWriter } from "./chat-writer.js";

/** A file that ends with a `## You` heading and nothing under it. */
const EMPTY_YOU_AT_END = new RegExp(`(^|\\n)${YOU_HEADING}\\n\\s*$`);

/** Follows the turns it is told to and writes them into the chat file. */
export class ChatRenderer {
  /** Sessions whose current turn is written, with their tool calls' titles. */
  private readonly followed = new Map<string, Map<string, string>>();
  /** Whether the last text written ended a line (a tool line must start on its own). */
  private atLineStart = true;
  private readonly unsubscribe: () => void;

  constructor(
    events: SessionEvents,
    private readonly writer: ChatWriter,
  ) {
    this.unsubscribe = events.subscribe((sessionId, event) => this.onEvent(sessionId, event));
  }

  /**
   * Writes the next turn of `sessionId` into the file. `prompt` is written under a `## You`
   * heading first, unless the prompt is already there (sent from the file itself).
   */
  async follow(sessionId: string, prompt?: string): Promise<void> {
    this.followed.set(sessionId, new Map());
    if (prompt === undefined) return this.write(`\n${AGENT_HEADING}\n\n`);
    // An empty `## You` at the end (the one left for the next prompt) takes these words.
    await this.writer.ensureExists();
    await this.writer.idle(); // the last turn's fresh heading may still be on its way
    const reuse = EMPTY_YOU_AT_END.test(await this.writer.text());
    return this.write(`${reuse ? "" : `\n${YOU_HEADING}\n\n`}${prompt.trim()}\n\n${AGENT_HEADING}\n\n`);
  }

  /** Resolves once everything emitted so far is in the file. */
  written(): Promise<void> {
    return this.writer.idle();
  }

  /** Whether a turn of `sessionId` is being written. */
  following(sessionId: string): boolean {
    return this.followed.has(sessionId);
  }

  /** Writes a line of its own (a note, an approval block), starting on a fresh line. */
  note(text: string): Promise<void> {
    return this.write(`${this.atLineStart ? "" : "\n"}${text}`);
  }

  /** Stops following the stream. */
  dispose(): void {
    this.unsubscribe();
  }

  private onEvent(sessionId: string, event: SessionEvent): void {
    const titles = this.followed.get(sessionId);
    if (!titles) return;
    // A subagent's activity is its parent call's; the chat shows the call and its result.
    if (event.kind !== "turn_end" && event.parentToolCallId) return;
    switch (event.kind) {
      case "text":
        this.fire(this.write(event.text));
        break;
      case "tool_call":
        titles.set(event.id, event.title);
        break;
      case "tool_call_update":
        if (event.status === "completed" || event.status === "failed") {
          const reason = event.status === "failed" ? firstLine(event.output) : undefined;
          this.fire(this.note(toolLine(titles.get(event.id) ?? "a tool", event.status, reason)));
        }
        break;
      case "working_message":
        this.fire(this.note(`\n> ${event.text}\n\n`));
        break;
      case "phase_report":
        this.fire(this.note(`\n**${phaseReportLine(event)}**\n\n`));
        break;
      case "completion":
        this.fire(this.note(`\n**Result:** ${event.result}${event.command ? `\n\nRun: \`${event.command}\`` : ""}\n`));
        break;
      case "task_spawned":
        this.fire(this.note(`\n_Started the task "${event.title}" (session ${event.sessionId})._\n`));
        break;
      case "usage":
        this.fire(this.note(`\n${usageLine(event)}`));
        break;
      case "compaction":
        this.fire(this.note(`\n${compactionLine(event)}\n`));
        break;
      case "error":
        this.fire(this.note(`\n**Error:** ${event.message}\n`));
        break;
      case "turn_end":
        this.followed.delete(sessionId);
        this.fire(this.note(`${endNote(event.stopReason, event.error)}\n${YOU_HEADING}\n\n`));
        break;
      default:
        break;
    }
  }

  /** A write the stream does not wait for: a failure is logged by the writer, and the session goes on. */
  private fire(written: Promise<void>): void {
    written.catch(() => undefined);
  }

  private write(text: string): Promise<void> {
    if (!text) return Promise.resolve();
    this.atLineStart = text.endsWith("\n");
    return this.writer.append(text);
  }
}

/** The chat's marker for a compaction. */
function compactionLine(event: Extract<SessionEvent, { kind: "compaction" }>): string {
  return `_── context compacted (checkpoint ${event.n}, ${event.trigger}): about ${event.tokensBefore} → ${event.tokensAfter} tokens; messages 1-${event.through} archived ──_`;
}

/** What the end of a turn adds before the next heading: nothing when it simply ended. */
function endNote(stopReason: string, error?: string): string {
  if (stopReason === "end_turn") return "";
  if (stopReason === "cancelled") return "\n_(cancelled)_\n";
  if (stopReason === "error") return `\n_(failed${error ? `: ${error}` : ""})_\n`;
  return `\n_(stopped: ${stopReason})_\n`;
}

function firstLine(text: string | undefined): string | undefined {
  const line = text?.trim().split("\n", 1)[0];
  return line ? (line.length > 120 ? `${line.slice(0, 119)}…` : line) : undefined;
}
