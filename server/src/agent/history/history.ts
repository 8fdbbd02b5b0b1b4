/**
 * The conversation log's records (`.agent-lsp/conversations/<id>.jsonl`, written by
 * history-log.ts), and reading a log back into what a loaded session needs.
 */
import type { Message } from "../../vocabulary/messages.js";
import type { PlanEntry } from "../../protocol/updates.js";
import type { FailedPrompt } from "../session.js";
import { checkpointMessage } from "../compaction/checkpoint.js";
import { conversationsDir, historyFile } from "./history-log.js";
import { readStateFile } from "../../util/state-folder.js";

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

/**
 * Reads a session log back: the working context (the last checkpoint and the messages after it),
 * never the archived messages, so a long session's memory does not grow with its archive.
 * Lines that cannot be read are counted and skipped. Throws when there is no such session.
 */
export function readHistory(root: string, sessionId: string): LoadedHistory {
  const file = historyFile(root, sessionId);
  let text: string;
  try {
    text = readStateFile(file);
  } catch (err) {
    // A link planted where the log belongs is refused with its reason, not called missing.
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
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
