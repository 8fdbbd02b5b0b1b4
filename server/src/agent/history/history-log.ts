/**
 * Writing the conversation log: `.agent-lsp/conversations/<id>.jsonl` in the project's state
 * folder. Every message is appended as one numbered line and written before the turn goes on, so
 * a server killed at any moment loses nothing it had already said; a write that fails (a full
 * disk) is a StateFolderError that ends the turn. A message of megabytes (a model's large
 * `create`) is encoded in pieces and written by one writev off the event loop, so other requests
 * are answered meanwhile; the turn still waits for it. The records are in history.ts.
 */
import { closeSync, fstatSync, ftruncateSync, openSync, readSync, writev } from "node:fs";
import { promisify } from "node:util";
import path from "node:path";
import type { Message } from "../../vocabulary/messages.js";
import type { PlanEntry } from "../../protocol/updates.js";
import { breather } from "../../util/breathe.js";
import { jsonPieces, stringChars } from "../../util/json-pieces.js";
import { asStateError, ensureStateDir, existingStateDir, openStateFile, stateLocation, writeAll } from "../../util/state-folder.js";
import type { CompactionRecord, HistoryRecord, SessionHeader, SettingsRecord } from "./history.js";

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

/**
 * A record with more string data than this (a model's `create` of a large file) is encoded a
 * piece at a time and written off the event loop (see {@link HistoryLog.appendAsync}).
 */
const LARGE_RECORD_CHARS = 1 << 20;

const writevAsync = promisify(writev);

/** Appends to one session's log. */
export class HistoryLog {
  private fd: number | undefined;
  private seq = 0;
  private pendingNewline = false;
  /** While a large record is being written: the records written meanwhile, to go after it. */
  private held: Buffer[] | undefined;
  /** The large record being written, if any (the next one waits for it). */
  private large: Promise<void> = Promise.resolve();
  /** Large records not yet written; a close waits for them (their write holds the descriptor). */
  private largePending = 0;
  private closeWhenWritten = false;

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

  /**
   * Appends one message like {@link append}, but a large one (megabytes of tool input) is encoded
   * in pieces with the event loop getting turns between them, and written by one call on the
   * I/O threads: other requests are answered meanwhile. Resolves with its number once its bytes
   * are the kernel's (as {@link append} returns); records written meanwhile go after it.
   */
  async appendAsync(message: Message): Promise<number> {
    if (stringChars(message, LARGE_RECORD_CHARS) <= LARGE_RECORD_CHARS) return this.append(message);
    const seq = (this.seq += 1);
    const record: HistoryRecord = { type: "message", seq, time: new Date().toISOString(), message };
    // From now on other records wait, so they land after this one, as they were written.
    this.held ??= [];
    this.largePending += 1;
    const write = this.large.then(() => this.writeLarge(record)).finally(() => {
      if (--this.largePending === 0) this.release();
    });
    this.large = write.catch(() => undefined);
    await write;
    return seq;
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
    this.closeWhenWritten = this.largePending > 0;
    if (this.closeWhenWritten) return;
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  /**
   * Appends one record. A failure (a full disk, a read-only file system, a link where the log
   * belongs) is thrown as a StateFolderError that says so: the turn that wrote it ends with it.
   */
  private write(record: HistoryRecord): void {
    const bytes = Buffer.from(`${JSON.stringify(record)}\n`);
    // Behind a large record being written: after it, never inside it.
    if (this.held) this.held.push(bytes);
    else this.writeNow(bytes);
  }

  /** Writes one record's line (a newline first after a torn line). */
  private writeNow(bytes: Buffer): void {
    // A synchronous write per record: once it returns the bytes are the kernel's, and a
    // SIGKILL of this process cannot lose them.
    try {
      this.fd ??= openStateFile(this.file, "append");
      writeAll(this.fd, this.pendingNewline ? Buffer.concat([Buffer.from("\n"), bytes]) : bytes);
      this.pendingNewline = false;
    } catch (err) {
      // Part of the record may be on disk: the next one starts on a line of its own.
      this.pendingNewline = true;
      throw asStateError(err, `Could not write the conversation log ${this.file}`);
    }
  }

  /**
   * Writes a large record: encoded in 1 MB pieces (a turn for the event loop every few ms), then
   * handed to the kernel in one writev from the I/O threads. A write that fails is cut back off
   * the log, so no torn line is left behind it.
   */
  private async writeLarge(record: HistoryRecord): Promise<void> {
    const pieces: Buffer[] = [];
    const pause = breather(5);
    for (const text of jsonPieces(record)) {
      pieces.push(Buffer.from(text));
      await pause();
    }
    pieces.push(Buffer.from("\n"));
    await this.writeAllAsync(pieces);
  }

  /** After the last large record: writes the records held meanwhile, and closes if asked to. */
  private release(): void {
    const held = this.held ?? [];
    this.held = undefined;
    try {
      for (const bytes of held) this.writeNow(bytes);
    } finally {
      if (this.closeWhenWritten) this.close();
    }
  }

  /** Appends `pieces` by writev (as many calls as the kernel needs); on failure, truncates back. */
  private async writeAllAsync(pieces: Buffer[]): Promise<void> {
    let fd: number;
    let size: number;
    try {
      fd = this.fd ??= openStateFile(this.file, "append");
      size = fstatSync(fd).size;
    } catch (err) {
      throw asStateError(err, `Could not write the conversation log ${this.file}`);
    }
    if (this.pendingNewline) pieces.unshift(Buffer.from("\n"));
    try {
      for (let left = pieces; left.length; ) {
        const { bytesWritten } = await writevAsync(fd, left);
        left = rest(left, bytesWritten);
      }
      this.pendingNewline = false;
    } catch (err) {
      try {
        ftruncateSync(fd, size);
      } catch {
        // Part of the record stays: the next one starts on a line of its own.
        this.pendingNewline = true;
      }
      throw asStateError(err, `Could not write the conversation log ${this.file}`);
    }
  }
}

/** What is left of `buffers` after the first `written` bytes of them. */
function rest(buffers: Buffer[], written: number): Buffer[] {
  let i = 0;
  while (i < buffers.length && written >= buffers[i]!.length) written -= buffers[i++]!.length;
  if (i === buffers.length) return [];
  return [buffers[i]!.subarray(written), ...buffers.slice(i + 1)];
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
