/**
 * The chat file as a document with two owners (chat-layout.ts): the server changes its record,
 * and this module brings the buffer to it. While the editor has the file open, every change goes
 * in as workspace/applyEdit, at most one per interval, each versioned and answered before the
 * next, cut to whole lines inside the server's pieces: text the user types (the draft at the end
 * included) is never under an edit. Each buffer change the editor reports is followed piece by
 * piece; a change to the server's text (an undo, a stray edit) is put back from the record. The
 * open file is never written on disk: when the editor takes no edit, the status says so and the
 * text waits in the record. Closed, the file is written whole on disk.
 */
import { pathToFileURL } from "node:url";
import type { DocumentHost } from "../../editor/document-host.js";
import type { Logger } from "../../util/log.js";
import { normalizeUri } from "../uris.js";
import { chatFilePath, readChatDisk, writeChatDisk } from "./chat-disk.js";
import { ChatLayout, type PieceInit } from "./chat-layout.js";
import { ANY_CODE_ACTION_KEY } from "../client-profile.js";
import { loadChat, PIECE, type LoadedChat } from "./chat-load.js";
import { CHAT_FILE } from "./chat-text.js";
import { rangeEdits } from "./line-ranges.js";

/** The pieces of a file read empty, before the server added any. */
const FRESH_KEYS = [PIECE.preamble, PIECE.heading, PIECE.draft].join();

/** Fewest milliseconds between two edits of the open chat buffer (about 10 a second). */
const CHAT_EDIT_INTERVAL_MS = 100;

/** The longest the editor may take no edit before the status says so. */
const STUCK_AFTER_MS = 10_000;

/** What the document needs around it. */
export interface ChatDocumentDeps {
  root: string;
  host: Pick<DocumentHost, "readDocument" | "applyEdit" | "onDidChange">;
  log: Logger;
  /** Tells the user something about the file (the editor stopped taking edits, text put back). */
  notify(message: string): void;
  intervalMs?: number;
  /** How long the editor may take no edit before the user is told (apply_edit_timeout_s, at most 10 s). */
  stuckAfterMs?: () => number;
  /** How the user opens the code-action menu, for a new file's preamble (client-profile.ts). */
  actionKey?: () => string;
}

/** The chat file's record and its way into the buffer or onto the disk. */
export class ChatDocument {
  readonly path: string;
  readonly uri: string;
  private layout: ChatLayout | undefined;
  private loading: Promise<LoadedChat> | undefined;
  /** The text the layout describes (the buffer's or the disk's as last seen), and where it was seen. */
  private seen = "";
  private seenIn: "buffer" | "disk" = "disk";
  /** The file was empty or missing when read, and nothing has been written to it since. */
  private fresh = false;
  private dirty = false;
  /** The last write failed (with `failure`): the next change tries again. */
  private failed = false;
  private failure: Error | undefined;
  private flushing: Promise<void> | undefined;
  private lastWrite = 0;
  /** Since when edits have been waiting without the editor taking one. */
  private waitingSince: number | undefined;
  private saidStuck = false;
  private readonly repairListeners: ((keys: string[]) => void)[] = [];
  private readonly syncedListeners: (() => void)[] = [];
  private readonly stopListening: () => void;

  constructor(private readonly deps: ChatDocumentDeps) {
    // In the state folder, wherever that is (a read-only checkout keeps it in the user's).
    this.path = chatFilePath(deps.root);
    this.uri = pathToFileURL(this.path).href;
    this.stopListening = deps.host.onDidChange((uri) => {
      // Before the first read there is nothing to follow: the read takes the text as it is then.
      if (normalizeUri(uri) === normalizeUri(this.uri) && this.layout) void this.observe();
    });
  }

  /** Reads the file once (buffer or disk) into the layout; resolves with what it held. */
  load(): Promise<LoadedChat> {
    this.loading ??= (async () => {
      const open = await this.deps.host.readDocument(this.uri);
      const text = open ? open.text : await readChatDisk(this.path);
      const loaded = loadChat(text, this.actionKey());
      this.layout = new ChatLayout(loaded.pieces);
      this.seen = text;
      this.seenIn = open ? "buffer" : "disk";
      this.fresh = !text.trim();
      return loaded;
    })();
    return this.loading;
  }

  private actionKey(): string {
    return this.deps.actionKey?.() ?? ANY_CODE_ACTION_KEY;
  }

  /** The layout, once loaded. */
  async pieces(): Promise<ChatLayout> {
    await this.load();
    return this.layout!;
  }

  /** Calls `listener` with the server pieces the user changed, each time some are found. */
  onRepair(listener: (keys: string[]) => void): void {
    this.repairListeners.push(listener);
  }

  /** Calls `listener` each time the file has the whole record (a write landed). */
  onSynced(listener: () => void): void {
    this.syncedListeners.push(listener);
  }

  /** Follows the file's latest changes now (before reading what the user wrote). */
  async refresh(): Promise<void> {
    await this.load();
    const open = await this.deps.host.readDocument(this.uri);
    if (open) this.sync(open.text, "buffer");
    else this.sync(await readChatDisk(this.path), "disk");
  }

  /** The record changed: brings the file to it soon. */
  changed(): void {
    this.dirty = true;
    this.failed = false;
    if (this.flushing) return;
    this.flushing = this.flushLoop().finally(() => {
      this.flushing = undefined;
      // A change that came after the loop's last look, or a write that failed and waits for the next change.
      if (this.dirty && !this.failed) this.changed();
    });
  }

  /**
   * Resolves once the file has the record as it is now (or the editor takes no edit for long);
   * rejects with the reason when the last write failed (a link where the file belongs, a full disk).
   */
  async idle(): Promise<void> {
    await this.load();
    // An editor that takes no edit does not hold up whoever waits: the status has said so.
    while (this.flushing && !this.saidStuck) await Promise.race([this.flushing, sleep(200)]);
    if (this.failed && this.failure) throw this.failure;
  }

  /** The piece at 0-based `line` of the buffer as it is now, after following its latest changes. */
  async pieceAtLine(line: number): Promise<string | undefined> {
    await this.refresh();
    const text = this.seen;
    let offset = 0;
    for (let i = 0; i < line; i++) {
      const next = text.indexOf("\n", offset);
      if (next < 0) return undefined;
      offset = next + 1;
    }
    return this.layout!.pieceAt(offset);
  }

  /** Stops following the editor's changes. */
  dispose(): void {
    this.stopListening();
  }

  /** The editor reported a change of the open file. */
  private async observe(): Promise<void> {
    const open = await this.deps.host.readDocument(this.uri);
    if (open) this.sync(open.text, "buffer");
  }

  /**
   * Follows the layout to `text` (read from `from`); schedules a repair when the user changed
   * the server's text. A text from the other place (the file was just opened, or closed without
   * saving) is a new start, not the user's change: it is brought back to the record quietly.
   */
  private sync(text: string, from: "buffer" | "disk"): void {
    const layout = this.layout!;
    const moved = from !== this.seenIn;
    this.seenIn = from;
    if (text === this.seen) return;
    this.seen = text;
    // The file was missing when it was first read and has appeared since (written by hand, or
    // by git): it is read as at start, not taken for a change to what the server has not written.
    if (this.fresh && layout.keys().join() === FRESH_KEYS) {
      this.layout = new ChatLayout(loadChat(text, this.actionKey()).pieces);
      this.fresh = !text.trim();
      return;
    }
    if (!layout.align(text)) layout.track(text);
    const damaged = layout.damaged();
    if (!damaged.length) return;
    if (!moved) for (const listener of this.repairListeners) listener(damaged);
    this.changed();
  }

  /** The file's text now: the buffer when open, else the disk. */
  text(): Promise<string> {
    return this.readText();
  }

  private async readText(): Promise<string> {
    const open = await this.deps.host.readDocument(this.uri);
    return open ? open.text : readChatDisk(this.path);
  }

  private async flushLoop(): Promise<void> {
    await this.load();
    while (this.dirty) {
      const interval = this.deps.intervalMs ?? CHAT_EDIT_INTERVAL_MS;
      const wait = this.lastWrite + interval - Date.now();
      if (wait > 0) await sleep(wait);
      this.lastWrite = Date.now();
      this.dirty = false;
      let done: boolean;
      try {
        done = await this.writeOnce();
        this.failed = false;
        this.failure = undefined;
      } catch (err) {
        // The disk or the editor failed us: said in the log and to whoever waits, tried again at the next change.
        this.deps.log.error(`chat file: ${(err as Error).message}`);
        this.dirty = true;
        this.failed = true;
        this.failure = err as Error;
        return;
      }
      if (!done) {
        this.dirty = true;
        this.noteWaiting();
      } else {
        this.waitingSince = undefined;
        this.saidStuck = false;
        if (this.layout!.inSync()) for (const listener of this.syncedListeners) listener();
      }
    }
  }

  /** One step toward the record; false when the editor did not take it (to be tried again). */
  private async writeOnce(): Promise<boolean> {
    const open = await this.deps.host.readDocument(this.uri);
    if (!open) {
      this.sync(await readChatDisk(this.path), "disk");
      const layout = this.layout!;
      if (layout.inSync()) return true;
      const text = layout.desired();
      layout.markSent();
      this.fresh = false;
      writeChatDisk(this.deps.root, this.path, text);
      layout.landed();
      this.sync(text, "disk");
      return true;
    }
    // Our last edit is not reported back yet: its version is unknown, and an edit now could
    // land at the wrong place if the user typed meanwhile. Wait for the report.
    if (open.version === null) return false;
    this.sync(open.text, "buffer");
    const layout = this.layout!;
    const edits = layout.edits();
    if (!edits.length) return true;
    const newText = layout.desired();
    layout.markSent();
    this.fresh = false; // from here the buffer may have the server's text
    const result = await this.deps.host.applyEdit(
      "agent chat",
      [{ kind: "edit", uri: open.uri, version: open.version, oldText: open.text, newText, edits: rangeEdits(open.text, edits) }],
      { quiet: true },
    );
    if (!result.applied) {
      // The editor may have taken it after all (reported without answering, as Vim's ALE does).
      await this.refresh();
      if (this.layout!.inSync()) {
        this.layout!.landed();
        return true;
      }
      this.deps.log.debug(`chat file edit not applied (${result.reason ?? "no reason"}); trying again`);
      return false;
    }
    layout.landed();
    this.sync(newText, "buffer");
    // Taken; what the record gained meanwhile goes in the next edit.
    if (!layout.inSync()) this.dirty = true;
    return true;
  }

  /** Says once when the editor has taken no edit for a while; the text waits in the record. */
  private noteWaiting(): void {
    this.waitingSince ??= Date.now();
    const after = Math.min(this.deps.stuckAfterMs?.() ?? STUCK_AFTER_MS, STUCK_AFTER_MS);
    if (this.saidStuck || Date.now() - this.waitingSince < after) return;
    this.saidStuck = true;
    this.deps.log.warn(`chat file: the editor took no edit of ${CHAT_FILE} for ${after / 1000} s; still trying`);
    this.deps.notify(`agent-lsp: the editor is not taking edits of ${CHAT_FILE}; the answer is kept and shows once it does (it is in the session's log too)`);
  }
}

/** A piece as the renderer adds it. */
export type { PieceInit };

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
