/**
 * The conversation log: `.agent-lsp/conversations/<id>.jsonl` under the project root. Every
 * message is appended as one numbered line and written before the turn goes on, so a server
 * killed at any moment loses nothing it had already said.
 */
import { closeSync, fstatSync, openSync, readFileSync, readSync } from "node:fs";
import path from "node:path";
import type { Message } from "../../vocabulary/messages.js";
import type { PlanEntry } from "../../protocol/updates.js";
import type { FailedPrompt } from "../session.js";
import { asStateError, ensureStateDir, existingStateDir, openStateFile, stateLocation, writeAll } from "../../util/state-folder.js";
import { checkpointMessage } from "../compaction/checkpoint.js";

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
  /** The session was started by spawn_task. */
  spawned?: boolean;
  /** Model routes set (a model) or returned to their default (null), by purpose. */
  routes?: Record<string, string | null>;
}

/** The session's checklist as it now stands (each record replaces the one before). */
export interface ChecklistRecord {
  type: "checklist";
  time: string;
  entries: PlanEntry[];
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

/** Who asked for a compaction. */
export type CompactionTrigger = "auto" | "model" | "user" | "provider";

/**
 * A compaction: every message numbered up to `through` (not archived by an earlier one) left the
 * working context for the checkpoint built from `summary`. Nothing is deleted: those messages stay
 * in the log above this line, and this record is what marks them as archived by compaction `n`.
 */
export interface CompactionRecord {
  type: "compaction";
  /** 1 for the session's first compaction, then 2, 3... */
  n: number;
  time: string;
  /** The last message number it archived. */
  through: number;
  summary: string;
  focus?: string;
  trigger: CompactionTrigger;
  /** Estimated tokens of the working context before and after. */
  tokensBefore: number;
  tokensAfter: number;
  /** How many messages it archived. */
  archived: number;
}

/** Any line of a log. */
export type HistoryRecord = SessionHeader | MessageRecord | SettingsRecord | FailedRecord | RewindRecord | CompactionRecord | ChecklistRecord;

/** What a log holds when read back. */
export interface LoadedHistory {
  header: SessionHeader;
  /** The messages the model sees (failed prompts and archived messages left out; the checkpoint first after a compaction). */
  messages: Message[];
  /** The log number of each of `messages` (undefined for a checkpoint). */
  seqs: (number | undefined)[];
  /** The last compaction, when there was one. */
  compaction?: CompactionRecord;
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
  /** The checklist as last recorded. */
  checklist: PlanEntry[];
  /** The session was started by spawn_task. */
  spawned: boolean;
  /** The model routes set for the session, by purpose. */
  routes: Record<string, string>;
  /** Lines that could not be read (a torn last line after a crash, a corrupt record). */
  skipped: number;
  /** Their line numbers (1-based), for the report. */
  skippedLines: number[];
}

/** Folder of a project's conversation logs (in its state folder, wherever that is). */
export function conversationsDir(root: string): string {
  return path.join(stateLocation(root), "conversations");
}

/** The conversations folder (or one below it), made when missing, never through a link. */
function conversationFolder(root: string, ...names: string[]): string {
  try {
    return ensureStateDir(root, "conversations", ...names);
  } catch (err) {
    throw asStateError(err, "Could not make the conversations folder");
  }
}

/** Appends to one session's log. */
export class HistoryLog {
  private fd: number | undefined;
  private seq = 0;
  private pendingNewline = false;

  constructor(readonly file: string) {}

  /**
   * Creates a new log with its header. `subfolder` keeps logs that are not sessions of their own
   * (a subagent's) out of the listing.
   */
  static create(root: string, header: SessionHeader, subfolder = ""): HistoryLog {
    let log: HistoryLog;
    try {
      const dir = conversationFolder(root, ...subfolder.split("/"));
      log = new HistoryLog(path.join(dir, `${header.sessionId}.jsonl`));
      log.fd = openStateFile(log.file, "new");
    } catch (err) {
      throw asStateError(err, "Could not create the conversation log");
    }
    log.write(header);
    return log;
  }

  /**
   * A log of its own beside `parent`'s, in a folder named `folder` (a skill sub-turn's, kept out
   * of the session list); created on its first record.
   */
  static beside(root: string, parent: HistoryLog, folder: string, name: string): HistoryLog {
    const rel = path.relative(conversationsDir(root), path.dirname(parent.file)).split(path.sep);
    const dir = conversationFolder(root, ...rel, folder);
    return new HistoryLog(path.join(dir, `${name}.jsonl`));
  }

  /** Opens an existing log to append after `count` messages. */
  static reopen(root: string, sessionId: string, count: number): HistoryLog {
    const log = new HistoryLog(path.join(conversationFolder(root), `${sessionId}.jsonl`));
    log.seq = count;
    // A log cut mid-line (power loss, a full disk) must not swallow the next record into its
    // torn last line: start the next record on a line of its own.
    log.pendingNewline = !endsWithNewline(log.file);
    return log;
  }

  /** The number of the last message appended. */
  get lastSeq(): number {
    return this.seq;
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

  /** Records a compaction (see CompactionRecord). */
  compaction(record: Omit<CompactionRecord, "type" | "time">): CompactionRecord {
    const full: CompactionRecord = { type: "compaction", time: new Date().toISOString(), ...record };
    this.write(full);
    return full;
  }

  /** Records a mode or model change. */
  settings(change: Omit<SettingsRecord, "type" | "time">): void {
    this.write({ type: "settings", time: new Date().toISOString(), ...change });
  }

  /** Records the checklist as it now stands. */
  checklist(entries: PlanEntry[]): void {
    this.write({ type: "checklist", time: new Date().toISOString(), entries });
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  /**
   * Appends one record. A failure (a full disk, a read-only file system, a link where the log
   * belongs) is thrown as a StateFolderError that says so: the turn that wrote it ends with it.
   */
  private write(record: HistoryRecord): void {
    // A synchronous write per record: once it returns the bytes are the kernel's, and a
    // SIGKILL of this process cannot lose them.
    try {
      this.fd ??= openStateFile(this.file, "append");
      writeAll(this.fd, Buffer.from(`${this.pendingNewline ? "\n" : ""}${JSON.stringify(record)}\n`));
      this.pendingNewline = false;
    } catch (err) {
      // Part of the record may be on disk: the next one starts on a line of its own.
      this.pendingNewline = true;
      throw asStateError(err, "Could not write the conversation log");
    }
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

/** The log file of a session; throws when the id cannot name one. */
export function historyFile(root: string, sessionId: string): string {
  if (!/^[A-Za-z0-9_-]+$/.test(sessionId)) throw new Error(`No session "${sessionId}".`);
  // A link where the folder belongs is refused, never read through.
  return path.join(existingStateDir(root, "conversations") ?? conversationsDir(root), `${sessionId}.jsonl`);
}

/**
 * Reads a session log back: the working context (the last checkpoint and the messages after it),
 * never the archived messages, so a long session's memory does not grow with its archive.
 * Lines that cannot be read are counted and skipped. Throws when there is no such session.
 */
export function readHistory(root: string, sessionId: string): LoadedHistory {
  const file = historyFile(root, sessionId);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    throw new Error(`No session "${sessionId}" in ${conversationsDir(root)}.`);
  }
  const state = new LoadState();
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) state.take(lines[i]!, i + 1);
  if (!state.header) throw new Error(`Session log ${file} has no header line.`);
  return state.result(state.header);
}

/** Folds a log's records, line by line, into what a loaded session needs. */
class LoadState {
  header: SessionHeader | undefined;
  private records: MessageRecord[] = [];
  private readonly failed = new Map<number, string>();
  private mode = "";
  private model = "";
  private readonly activated = new Set<string>();
  private compaction: CompactionRecord | undefined;
  private checklist: PlanEntry[] = [];
  private spawned = false;
  private readonly routes: Record<string, string> = {};
  private lastSeq = 0;
  private readonly skippedLines: number[] = [];

  take(line: string, lineNo: number): void {
    if (!line.trim()) return;
    const rec = parseRecord(line);
    if (!rec) {
      this.skippedLines.push(lineNo);
      return;
    }
    if (rec.type === "session") {
      this.header = rec;
      this.mode = rec.mode;
      this.model = rec.model;
    } else if (rec.type === "message") {
      this.records.push(rec);
      this.lastSeq = Math.max(this.lastSeq, rec.seq);
    } else if (rec.type === "failed") this.failed.set(rec.seq, rec.error);
    // A rewind takes its prompt and what followed out of the working history.
    else if (rec.type === "rewind") this.records = this.records.filter((r) => r.seq < rec.seq);
    else if (rec.type === "compaction") {
      this.compaction = rec;
      // Drop what it archived now: memory stays the size of the working context.
      this.records = this.records.filter((r) => r.seq > rec.through);
    } else if (rec.type === "checklist") this.checklist = Array.isArray(rec.entries) ? rec.entries : this.checklist;
    else if (rec.type === "settings") {
      this.spawned ||= rec.spawned === true;
      for (const [purpose, model] of Object.entries(rec.routes ?? {})) {
        if (typeof model === "string") this.routes[purpose] = model;
        else delete this.routes[purpose];
      }
      this.mode = rec.mode ?? this.mode;
      for (const name of rec.activated ?? []) this.activated.add(name);
      this.model = rec.model ?? this.model;
    }
  }

  result(header: SessionHeader): LoadedHistory {
    const c = this.compaction;
    const start = c ? [checkpointMessage(c.n, c.summary, c.through)] : [];
    const split = splitFailed(this.records, this.failed, start);
    return {
      header,
      ...split,
      ...(c ? { compaction: c } : {}),
      lastSeq: this.lastSeq,
      lastPromptSeq: [...this.records].reverse().find((r) => r.message.role === "user")?.seq,
      mode: this.mode,
      model: this.model,
      activatedTools: [...this.activated],
      checklist: this.checklist,
      spawned: this.spawned,
      routes: this.routes,
      skipped: this.skippedLines.length,
      skippedLines: this.skippedLines,
    };
  }
}

const RECORD_TYPES = new Set(["session", "message", "settings", "failed", "rewind", "compaction", "checklist"]);

/** One line as a record, or undefined when it is not one (torn, corrupt, or of a shape we cannot use). */
function parseRecord(line: string): HistoryRecord | undefined {
  let rec: HistoryRecord;
  try {
    rec = JSON.parse(line) as HistoryRecord;
  } catch {
    return undefined;
  }
  if (typeof rec !== "object" || rec === null || !RECORD_TYPES.has(rec.type)) return undefined;
  if (rec.type === "message") {
    const m = rec.message as Partial<Message> | undefined;
    if (!Number.isInteger(rec.seq) || !m || typeof m.role !== "string" || !Array.isArray(m.content)) return undefined;
  }
  if (rec.type === "compaction" && (!Number.isInteger(rec.through) || typeof rec.summary !== "string")) return undefined;
  if ((rec.type === "rewind" || rec.type === "failed") && !Number.isInteger(rec.seq)) return undefined;
  return rec;
}

/** Separates the prompts marked failed from the messages the model sees. */
function splitFailed(
  records: MessageRecord[],
  failed: Map<number, string>,
  start: Message[],
): { messages: Message[]; seqs: (number | undefined)[]; failedPrompts: FailedPrompt[] } {
  const messages: Message[] = [...start];
  const seqs: (number | undefined)[] = start.map(() => undefined);
  const failedPrompts: FailedPrompt[] = [];
  for (const rec of records) {
    const error = failed.get(rec.seq);
    if (error !== undefined && rec.message.role === "user") failedPrompts.push({ at: messages.length, content: rec.message.content, error, seq: rec.seq });
    else {
      messages.push(rec.message);
      seqs.push(rec.seq);
    }
  }
  return { messages, seqs, failedPrompts };
}
