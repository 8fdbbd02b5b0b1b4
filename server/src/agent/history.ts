/**
 * The conversation log: `.agent-lsp/conversations/<id>.jsonl` under the project root. Every
 * message is appended as one numbered line and written before the turn goes on, so a server
 * killed at any moment loses nothing it had already said.
 */
import { closeSync, fstatSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, statSync, writeSync } from "node:fs";
import path from "node:path";
import type { Message } from "../vocabulary/messages.js";
import type { FailedPrompt } from "./session.js";
import { ensureStateFolder, stateFolder } from "../util/state-folder.js";

/** The first line of every log. */
export interface SessionHeader {
  type: "session";
  sessionId: string;
  created: string;
  cwd: string;
  mode: string;
  model: string;
}

/** A message line. */
export interface MessageRecord {
  type: "message";
  seq: number;
  time: string;
  message: Message;
}

/** A settings change (mode, model, activated tools) recorded so a resumed session comes back as it was left. */
export interface SettingsRecord {
  type: "settings";
  time: string;
  mode?: string;
  model?: string;
  /** Deferred tools activated (added to those activated before). */
  activated?: string[];
}

/** Marks message `seq` (a prompt) as failed: its turn ended before the model answered it. */
export interface FailedRecord {
  type: "failed";
  seq: number;
  time: string;
  error: string;
}

/**
 * Edit and re-send (`agent/prompt` with `replaceLast`): message `seq` (a prompt) and every message
 * logged before this record after it leave the working history. Their lines stay in the log.
 */
export interface RewindRecord {
  type: "rewind";
  seq: number;
  time: string;
}

type Record_ = SessionHeader | MessageRecord | SettingsRecord | FailedRecord | RewindRecord;

/** What a log holds when read back. */
export interface LoadedHistory {
  header: SessionHeader;
  /** The messages the model sees (failed prompts left out). */
  messages: Message[];
  /** Prompts whose turn failed before the model answered, with where they stood. */
  failedPrompts: FailedPrompt[];
  /** The last message number in the log (failed and rewound ones included), to append after. */
  lastSeq: number;
  /** The log number of the last prompt still in the working history or failed, if any. */
  lastPromptSeq: number | undefined;
  mode: string;
  model: string;
  /** Deferred tools the session had activated. */
  activatedTools: string[];
  /** Lines that could not be read (a torn last line after a crash). */
  skipped: number;
}

/** Folder of a project's conversation logs. */
function conversationsDir(root: string): string {
  return path.join(stateFolder(root), "conversations");
}

/** Appends to one session's log. */
export class HistoryLog {
  private fd: number | undefined;
  private seq = 0;
  private pendingNewline = false;

  constructor(readonly file: string) {}

  /** Creates a new log with its header. */
  static create(root: string, header: SessionHeader): HistoryLog {
    ensureStateFolder(root);
    const dir = conversationsDir(root);
    mkdirSync(dir, { recursive: true });
    const log = new HistoryLog(path.join(dir, `${header.sessionId}.jsonl`));
    log.write(header);
    return log;
  }

  /** Opens an existing log to append after `count` messages. */
  static reopen(root: string, sessionId: string, count: number): HistoryLog {
    const log = new HistoryLog(path.join(conversationsDir(root), `${sessionId}.jsonl`));
    log.seq = count;
    // A log cut mid-line (power loss, a full disk) must not swallow the next record into its
    // torn last line: start the next record on a line of its own.
    log.pendingNewline = !endsWithNewline(log.file);
    return log;
  }

  /** Appends one message; returns its number. */
  append(message: Message): number {
    this.seq += 1;
    this.write({ type: "message", seq: this.seq, time: new Date().toISOString(), message });
    return this.seq;
  }

  /** Marks the prompt logged as `seq` as failed (see Session.retractPrompt). */
  markFailed(seq: number, error: string): void {
    this.write({ type: "failed", seq, time: new Date().toISOString(), error });
  }

  /** Records that the prompt logged as `seq` and all after it were rewound (see Session.rewindLastExchange). */
  rewind(seq: number): void {
    this.write({ type: "rewind", seq, time: new Date().toISOString() });
  }

  /** Records a mode or model change. */
  settings(change: { mode?: string; model?: string; activated?: string[] }): void {
    this.write({ type: "settings", time: new Date().toISOString(), ...change });
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  private write(record: Record_): void {
    // A synchronous write per record: once it returns the bytes are the kernel's, and a
    // SIGKILL of this process cannot lose them.
    this.fd ??= openSync(this.file, "a", 0o600);
    writeSync(this.fd, `${this.pendingNewline ? "\n" : ""}${JSON.stringify(record)}\n`);
    this.pendingNewline = false;
  }
}

/** Whether a non-empty file's last byte is a newline (an empty or missing file counts as ending in one). */
function endsWithNewline(file: string): boolean {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch {
    return true; // no file yet: the first write creates it
  }
  try {
    const size = fstatSync(fd).size;
    if (size === 0) return true;
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    return last[0] === 0x0a;
  } finally {
    closeSync(fd);
  }
}

/** Reads a session log back. Throws when there is no such session. */
export function readHistory(root: string, sessionId: string): LoadedHistory {
  if (!/^[A-Za-z0-9_-]+$/.test(sessionId)) throw new Error(`No session "${sessionId}".`);
  const file = path.join(conversationsDir(root), `${sessionId}.jsonl`);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    throw new Error(`No session "${sessionId}" in ${conversationsDir(root)}.`);
  }
  let header: SessionHeader | undefined;
  let records: MessageRecord[] = [];
  let lastSeq = 0;
  const failed = new Map<number, string>();
  let mode = "";
  let model = "";
  const activated = new Set<string>();
  let skipped = 0;
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    let rec: Record_;
    try {
      rec = JSON.parse(line) as Record_;
    } catch {
      skipped += 1;
      continue;
    }
    if (rec.type === "session") {
      header = rec;
      mode = rec.mode;
      model = rec.model;
    } else if (rec.type === "message") {
      records.push(rec);
      lastSeq = Math.max(lastSeq, rec.seq);
    } else if (rec.type === "failed") failed.set(rec.seq, rec.error);
    else if (rec.type === "rewind") records = rewound(records, rec.seq);
    else if (rec.type === "settings") {
      mode = rec.mode ?? mode;
      for (const name of rec.activated ?? []) activated.add(name);
      model = rec.model ?? model;
    }
  }
  if (!header) throw new Error(`Session log ${file} has no header line.`);
  const lastPromptSeq = [...records].reverse().find((r) => r.message.role === "user")?.seq;
  return { header, ...splitFailed(records, failed), lastSeq, lastPromptSeq, mode, model, activatedTools: [...activated], skipped };
}

/** The records a rewind of `seq` leaves: those logged before that prompt. */
function rewound(records: MessageRecord[], seq: number): MessageRecord[] {
  return records.filter((r) => r.seq < seq);
}

/** Separates the prompts marked failed from the messages the model sees. */
function splitFailed(records: MessageRecord[], failed: Map<number, string>): { messages: Message[]; failedPrompts: FailedPrompt[] } {
  const messages: Message[] = [];
  const failedPrompts: FailedPrompt[] = [];
  for (const rec of records) {
    const error = failed.get(rec.seq);
    if (error !== undefined && rec.message.role === "user") failedPrompts.push({ at: messages.length, content: rec.message.content, error, seq: rec.seq });
    else messages.push(rec.message);
  }
  return { messages, failedPrompts };
}

/** A session as listed for the user. */
export interface SessionSummary {
  sessionId: string;
  title: string;
  updatedAt: string;
}

/** Lists the sessions of a project, newest first. */
export function listHistories(root: string): SessionSummary[] {
  const dir = conversationsDir(root);
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith(".jsonl"));
  } catch (err) {
    // No folder yet is no sessions; a folder that cannot be read is a problem to report, not "none".
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw new Error(`Cannot list the saved sessions in ${dir}: ${(err as Error).message}`);
  }
  const out: SessionSummary[] = [];
  for (const name of names) {
    const file = path.join(dir, name);
    const sessionId = name.slice(0, -".jsonl".length);
    const summary = summarize(file, sessionId);
    if (summary) out.push(summary);
  }
  return out.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
}

/** One log's summary; undefined when the file went away while listing (another server deleted it). */
function summarize(file: string, sessionId: string): SessionSummary | undefined {
  try {
    return { sessionId, title: readTitle(file), updatedAt: statSync(file).mtime.toISOString() };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new Error(`Cannot read the saved session ${file}: ${(err as Error).message}`);
  }
}

/** The first line of the first user text, as a title. */
function readTitle(file: string): string {
  // Only the head is needed: the first user message comes right after the header.
  const head = readHead(file, 64 * 1024);
  for (const line of head.split("\n")) {
    try {
      const rec = JSON.parse(line) as Record_;
      if (rec.type === "message" && rec.message.role === "user") {
        const text = rec.message.content.find((b) => b.type === "text");
        if (text && text.type === "text") return titleOf(text.text);
      }
    } catch {
      /* a partial line at the end of the head: keep looking */
    }
  }
  return "(empty session)";
}

function readHead(file: string, bytes: number): string {
  const fd = openSync(file, "r");
  try {
    const buf = Buffer.alloc(bytes);
    const n = readSync(fd, buf, 0, bytes, 0);
    return buf.subarray(0, n).toString("utf8");
  } finally {
    closeSync(fd);
  }
}

/** A one-line title from a prompt. */
function titleOf(text: string): string {
  const first = text.trim().split("\n")[0] ?? "";
  return first.length > 80 ? `${first.slice(0, 77)}...` : first || "(empty prompt)";
}
