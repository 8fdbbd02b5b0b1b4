/**
 * The chat file as one more rendering of the sessions' event stream. Each turn the chat follows
 * gets a section of its own, added above the draft heading when the turn starts: its words under
 * `## You`, the answer under `## Agent` (each finished tool call as one line, a usage line, how it
 * ended). Sections grow in place, so two turns at once (a chat prompt and a code action) each
 * write into their own, in the order they started. The model's words are escaped where a line
 * would read as one of the server's headings, so no text it writes can pose as a block.
 */
import type { SessionEvent, SessionEvents } from "../../editor/session-events.js";
import { phaseReportLine } from "../../protocol/updates.js";
import type { ChatDocument } from "./chat-document.js";
import { PIECE } from "./chat-load.js";
import { escapeText, mayBeHeading, noteLine, sectionHead, toolLine, usageLine } from "./chat-text.js";

/** One turn's part of the file. */
interface Section {
  sessionId: string;
  /** Its pieces, in order. */
  pieces: string[];
  /** The piece new text goes to, while the section's last piece is one of its own text. */
  body: string | undefined;
  /** The start of a line of the model's text, held until it can be told from a heading. */
  held: string;
  atLineStart: boolean;
  titles: Map<string, string>;
}

/** Follows the turns it is told to and writes them into the chat file. */
export class ChatRenderer {
  private readonly followed = new Map<string, Section>();
  /** The last section of each session, followed or not (a command's answer ends it). */
  private readonly last = new Map<string, Section>();
  private nextPiece = 0;
  private readonly unsubscribe: () => void;

  constructor(
    events: SessionEvents,
    private readonly doc: ChatDocument,
  ) {
    this.unsubscribe = events.subscribe((sessionId, event) => void this.onEvent(sessionId, event));
  }

  /** Starts a section for the next turn of `sessionId`, showing `prompt` as the user's words. */
  async follow(sessionId: string, prompt: string): Promise<void> {
    await this.section(sessionId, sectionHead(prompt));
  }

  /** Resolves once everything rendered so far is in the file. */
  written(): Promise<void> {
    return this.doc.idle();
  }

  /** Whether a turn of `sessionId` is being written. */
  following(sessionId: string): boolean {
    return this.followed.has(sessionId);
  }

  /**
   * Adds pieces at the end of `sessionId`'s section (a new one, headed `## Agent`, when the
   * session's turn is not followed): an approval or question block. Later text goes after them.
   */
  async place(sessionId: string, pieces: { key: string; owner: "server" | "user"; text: string }[]): Promise<void> {
    const section = this.followed.get(sessionId) ?? (await this.section(sessionId, "## Agent\n\n", false));
    this.flushHeld(section);
    const layout = await this.doc.pieces();
    const before = this.after(section, layout.keys());
    for (const piece of pieces) {
      layout.insert(piece, before);
      section.pieces.push(piece.key);
    }
    section.body = undefined;
    section.atLineStart = true;
    this.doc.changed();
  }

  /** Adds a line of the server's own above the draft, outside any section (a note, a session heading). */
  async standalone(text: string): Promise<void> {
    const layout = await this.doc.pieces();
    layout.insert({ key: `note-${this.nextPiece++}`, owner: "server", text }, PIECE.heading);
    this.doc.changed();
  }

  /** Ends the last section of `sessionId` with `text` (a command's answer) and stops following it. */
  async finish(sessionId: string, text: string): Promise<void> {
    const section = this.followed.get(sessionId) ?? this.last.get(sessionId);
    if (!section) return;
    this.followed.delete(sessionId);
    await this.own(section, text);
  }

  /** Stops following the stream. */
  dispose(): void {
    this.unsubscribe();
  }

  /** A new section above the draft heading, with `head` as its first text. */
  private async section(sessionId: string, head: string, follow = true): Promise<Section> {
    const layout = await this.doc.pieces();
    const key = `s${this.nextPiece++}`;
    layout.insert({ key, owner: "server", text: head }, PIECE.heading);
    const section: Section = { sessionId, pieces: [key], body: key, held: "", atLineStart: true, titles: new Map() };
    if (follow) this.followed.set(sessionId, section);
    this.last.set(sessionId, section);
    this.doc.changed();
    return section;
  }

  private async onEvent(sessionId: string, event: SessionEvent): Promise<void> {
    const section = this.followed.get(sessionId);
    if (!section) return;
    // A subagent's activity is its parent call's; the chat shows the call and its result.
    if (event.kind !== "turn_end" && event.parentToolCallId) return;
    switch (event.kind) {
      case "text":
        return this.model(section, event.text);
      case "tool_call":
        section.titles.set(event.id, event.title);
        return;
      case "tool_call_update":
        if (event.status === "completed" || event.status === "failed") {
          const reason = event.status === "failed" ? firstLine(event.output) : undefined;
          return this.own(section, toolLine(section.titles.get(event.id) ?? "a tool", event.status, reason));
        }
        return;
      case "working_message":
        return this.own(section, `\n> ${escapeText(event.text)}\n\n`);
      case "phase_report":
        return this.own(section, `\n**${phaseReportLine(event)}**\n\n`);
      case "completion":
        return this.own(section, `\n**Result:** ${escapeText(event.result)}${event.command ? `\n\nRun: \`${event.command}\`` : ""}\n`);
      case "task_spawned":
        return this.own(section, `\n_Started the task "${event.title}" (session ${event.sessionId})._\n`);
      case "usage":
        return this.own(section, `\n${usageLine(event)}`);
      case "compaction":
        return this.own(section, `\n${compactionLine(event)}\n`);
      case "error":
        return this.own(section, `\n**Error:** ${escapeText(event.message)}\n`);
      case "turn_end":
        this.followed.delete(sessionId);
        return this.own(section, `${endNote(event.stopReason, event.error)}\n`);
      default:
        return;
    }
  }

  /** The model's words: escaped line by line, a line's start held back until it is clear. */
  private async model(section: Section, text: string): Promise<void> {
    let rest = section.held + text;
    section.held = "";
    let out = "";
    while (rest) {
      const nl = rest.indexOf("\n");
      const line = nl < 0 ? rest : rest.slice(0, nl + 1);
      if (section.atLineStart && nl < 0 && mayBeHeading(line)) {
        section.held = line;
        break;
      }
      out += section.atLineStart ? escapeText(line) : line;
      section.atLineStart = nl >= 0;
      rest = nl < 0 ? "" : rest.slice(nl + 1);
    }
    if (out) await this.write(section, out);
  }

  /** The server's own lines, starting on a fresh line. */
  private async own(section: Section, text: string): Promise<void> {
    this.flushHeld(section);
    const line = `${section.atLineStart ? "" : "\n"}${text}`;
    section.atLineStart = text.endsWith("\n");
    await this.write(section, line);
  }

  /** Writes a held line start as it is (escaped if it is a heading already). */
  private flushHeld(section: Section): void {
    if (!section.held) return;
    const held = escapeText(section.held);
    section.held = "";
    void this.write(section, held);
    section.atLineStart = false;
  }

  private async write(section: Section, text: string): Promise<void> {
    const layout = await this.doc.pieces();
    if (!section.body) {
      const key = `s${this.nextPiece++}`;
      layout.insert({ key, owner: "server", text: "" }, this.after(section, layout.keys()));
      section.pieces.push(key);
      section.body = key;
    }
    layout.append(section.body, text);
    this.doc.changed();
  }

  /** The key of the piece right after the section's last one (the draft heading at the latest). */
  private after(section: Section, keys: string[]): string {
    return keys[keys.indexOf(section.pieces.at(-1)!) + 1] ?? PIECE.heading;
  }
}

/** The chat's marker for a compaction. */
function compactionLine(event: Extract<SessionEvent, { kind: "compaction" }>): string {
  return `_── context compacted (checkpoint ${event.n}, ${event.trigger}): about ${event.tokensBefore} → ${event.tokensAfter} tokens; messages 1-${event.through} archived ──_`;
}

/** What the end of a turn adds: nothing but a blank line when it simply ended. */
function endNote(stopReason: string, error?: string): string {
  if (stopReason === "end_turn") return "";
  if (stopReason === "cancelled") return `\n${noteLine("cancelled").trimEnd()}\n`;
  if (stopReason === "error") return `\n${noteLine(`failed${error ? `: ${error}` : ""}`).trimEnd()}\n`;
  return `\n${noteLine(`stopped: ${stopReason}`).trimEnd()}\n`;
}

function firstLine(text: string | undefined): string | undefined {
  const line = text?.trim().split("\n", 1)[0];
  return line ? (line.length > 120 ? `${line.slice(0, 119)}…` : line) : undefined;
}
