/**
 * Appends to the chat file. While the editor has it open, text goes in as workspace/applyEdit at
 * the end of the buffer's current text (so whatever the user typed meanwhile stays), batched to
 * at most one edit per interval, each answered before the next is sent; while it is closed, the
 * text is appended on disk. An edit the editor refuses (the user typed between our read and its
 * arrival: a stale version) is tried again with the text read afresh.
 */
import { closeSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { DocumentHost } from "../../editor/document-host.js";
import type { Logger } from "../../util/log.js";
import { asStateError, ensureStateFolder, openStateFile, refuseLink, stateFolder, stateLocation, writeAll } from "../../util/state-folder.js";
import { CHAT_FILE, CHAT_PREAMBLE } from "./chat-text.js";

/** The folder of the chat file: the state folder, or the project's `.agent-lsp` when that is unusable (refused on write). */
function chatFolder(root: string): string {
  try {
    return stateLocation(root);
  } catch {
    return stateFolder(root);
  }
}

/** Fewest milliseconds between two edits of the open chat buffer (about 10 a second). */
const CHAT_EDIT_INTERVAL_MS = 100;

/**
 * Attempts at one batch (about 10 s) before the text is written on disk instead: an editor that
 * never reports its buffer again must not keep the answer in memory forever.
 */
const MAX_REFUSALS = 100;

/** The chat file's place and its appender. */
export class ChatWriter {
  readonly path: string;
  readonly uri: string;
  private pending = "";
  private flushing: Promise<void> | undefined;
  private lastWrite = 0;

  constructor(
    private readonly root: string,
    private readonly host: Pick<DocumentHost, "readDocument" | "applyEdit">,
    private readonly log: Logger,
    private readonly intervalMs = CHAT_EDIT_INTERVAL_MS,
  ) {
    // In the state folder, wherever that is (a read-only checkout keeps it in the user's). A
    // state folder that cannot be used is refused at the first write, with its reason.
    this.path = path.join(chatFolder(root), path.basename(CHAT_FILE));
    this.uri = pathToFileURL(this.path).href;
  }

  /**
   * Creates the file with its preamble when it does not exist (or is empty). A link where it
   * belongs is refused: the editor would open, and save, the link's target.
   */
  async ensureExists(): Promise<void> {
    stateLocation(this.root); // throws for a state folder that is a link or a file
    refuseLink(this.path);
    const open = await this.host.readDocument(this.uri);
    if (open) return;
    const existing = await readFile(this.path, "utf8").catch(() => "");
    if (existing) return;
    this.appendOnDisk(CHAT_PREAMBLE);
  }

  /** The file's current text: the buffer when open, else the disk ("" when missing). */
  async text(): Promise<string> {
    const open = await this.host.readDocument(this.uri);
    return open ? open.text : readFile(this.path, "utf8").catch(() => "");
  }

  /** Queues `text` to be appended; the returned promise settles once it is written. */
  append(text: string): Promise<void> {
    this.pending += text;
    this.flushing ??= this.flushLoop().finally(() => (this.flushing = undefined));
    return this.flushing;
  }

  /** Resolves once everything queued so far is written. */
  async idle(): Promise<void> {
    while (this.flushing) await this.flushing;
  }

  private async flushLoop(): Promise<void> {
    let refusals = 0;
    while (this.pending) {
      // At most one edit per interval: what streams in meanwhile joins this batch.
      const wait = this.lastWrite + this.intervalMs - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      this.lastWrite = Date.now();
      const batch = this.pending;
      this.pending = "";
      let written = false;
      try {
        written = await this.writeBatch(batch, refusals >= MAX_REFUSALS);
      } catch (err) {
        this.log.error(`chat file: ${(err as Error).message}`);
        throw err;
      }
      if (written) refusals = 0;
      else {
        refusals++;
        this.pending = batch + this.pending;
      }
    }
  }

  /** Writes one batch; false when the editor refused it (to be tried again). */
  private async writeBatch(batch: string, toDisk: boolean): Promise<boolean> {
    const open = toDisk ? undefined : await this.host.readDocument(this.uri);
    if (toDisk) this.log.warn(`chat file: the editor took no edit for ${MAX_REFUSALS} tries; appending on disk`);
    // Our last edit is not reported back yet: an edit now could only be unversioned, and would
    // land at the wrong place if the user typed meanwhile. Wait for the report.
    if (open && open.version === null) return false;
    if (!open) {
      refuseLink(this.path);
      const existing = await readFile(this.path, "utf8").catch(() => "");
      this.appendOnDisk(existing ? batch : CHAT_PREAMBLE + batch);
      return true;
    }
    const result = await this.host.applyEdit("agent chat", [
      { kind: "edit", uri: open.uri, version: open.version, oldText: open.text, newText: open.text + batch },
    ]);
    if (!result.applied) this.log.debug(`chat file edit not applied (${result.reason ?? "no reason"}); trying again`);
    return result.applied;
  }

  /** Appends on disk, never through a link; a full disk or a read-only folder is said so. */
  private appendOnDisk(text: string): void {
    try {
      ensureStateFolder(this.root);
      const fd = openStateFile(this.path, "append", 0o644);
      try {
        writeAll(fd, Buffer.from(text));
      } finally {
        closeSync(fd);
      }
    } catch (err) {
      throw asStateError(err, `Could not write the chat file ${this.path}`);
    }
  }
}
