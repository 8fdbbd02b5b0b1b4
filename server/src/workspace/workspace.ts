/**
 * The Workspace seam: the only way anything reads or changes files. Reads return the editor's
 * buffer when the document is open (unsaved text included), else the disk. Changes arrive as
 * change sets and are applied all-or-nothing: checked, shown to the gate, checkpointed, sent to
 * the editor for open documents and written atomically for the rest (see apply.ts).
 */
import { readFile, realpath } from "node:fs/promises";
import type { DocumentHost } from "../editor/document-host.js";
import { applyChangeSet, type WorkspaceCore } from "./apply.js";
import type { ApplyOptions, ApplyResult, ChangeSet } from "./change-set.js";
import { CheckpointStore, type Checkpoint } from "./checkpoints.js";
import { describeFsError, WorkspaceError } from "./errors.js";
import { loadFileState, type FileState } from "./file-state.js";
import { cleanupTempFiles } from "./journal.js";
import { resolveAgainstRoot, type ResolvedPath } from "./paths.js";
import { ReadStamps } from "./read-stamps.js";
import { restoreTo, sessionCheckpoints, undoLast, type RestoreResult } from "./restore.js";
import { UnsavedEdits } from "./unsaved-edits.js";

/** Text read for the agent. */
export interface ReadResult extends Omit<FileState, "exists" | "source"> {
  path: ResolvedPath;
  /** The text, without a BOM (`bom` says whether the file has one). */
  text: string;
  /** Where the text came from: the editor's buffer or the file on disk. */
  source: "buffer" | "disk";
  /** The buffer's version when it came from the editor. */
  version?: number;
}

/** Options of a Workspace. */
export interface WorkspaceOptions {
  /**
   * Let change sets write outside the root (still asked of the gate as `external_path`). Off until
   * the policy gate decides about external paths; a symlink out of the root is never written.
   */
  allowExternalWrites?: boolean;
}

/** A project root and the document host that has its files open. */
export class Workspace implements WorkspaceCore {
  private realRootPromise: Promise<string> | undefined;
  private recovery: Promise<unknown> | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  /** What each session last saw of each file (stale-read protection). */
  readonly stamps = new ReadStamps();
  readonly checkpoints: CheckpointStore;
  readonly unsaved = new UnsavedEdits();
  readonly allowExternalWrites: boolean;

  /**
   * @param root absolute path of the project root (LSP workspace folder or session cwd)
   * @param editor who has documents open
   */
  constructor(
    readonly root: string,
    readonly documents: DocumentHost,
    options: WorkspaceOptions = {},
  ) {
    this.checkpoints = new CheckpointStore(root);
    this.allowExternalWrites = options.allowExternalWrites ?? false;
  }

  /**
   * Removes temp files a crashed earlier process left mid-write (from the journal). Runs once,
   * on first use of the Workspace; the server may also await it at start.
   */
  recover(): Promise<unknown> {
    this.recovery ??= cleanupTempFiles(this.root).catch(() => []);
    return this.recovery;
  }

  /** Resolves a path the model gave (relative to the root, absolute, or a file URI). */
  async resolve(input: string): Promise<ResolvedPath> {
    await this.recover();
    this.realRootPromise ??= realpath(this.root).catch(() => this.root);
    return resolveAgainstRoot(this.root, await this.realRootPromise, input);
  }

  /**
   * The text of a file: the open buffer when there is one, else the disk (UTF-8, BOM removed).
   * Throws a WorkspaceError for a missing file or a directory.
   */
  async readText(input: string | ResolvedPath): Promise<ReadResult> {
    const resolved = typeof input === "string" ? await this.resolve(input) : input;
    const read = await this.readTextIfExists(resolved);
    if (!read) throw new WorkspaceError(`${resolved.rel} does not exist.`);
    return read;
  }

  /** Like {@link readText}, but undefined when nothing is at the path. */
  async readTextIfExists(input: string | ResolvedPath): Promise<ReadResult | undefined> {
    const resolved = typeof input === "string" ? await this.resolve(input) : input;
    const state = await loadFileState(this.documents, resolved);
    if (!state.exists || state.source === "none") return undefined;
    const { exists: _exists, ...rest } = state;
    return { ...rest, source: state.source, path: resolved };
  }

  /** The raw bytes on disk, or the open buffer's text encoded as UTF-8. */
  async readBytes(input: string | ResolvedPath): Promise<{ path: ResolvedPath; bytes: Buffer; source: "buffer" | "disk" }> {
    const resolved = typeof input === "string" ? await this.resolve(input) : input;
    const doc = await this.documents.readDocument(resolved.uri);
    if (doc) return { path: resolved, bytes: Buffer.from(doc.text, "utf8"), source: "buffer" };
    try {
      return { path: resolved, bytes: await readFile(resolved.real), source: "disk" };
    } catch (err) {
      throw describeFsError(err, resolved.rel);
    }
  }

  /** Records that `sessionId` has now seen `read` (read_file calls this; edits check it). */
  markRead(sessionId: string, read: ReadResult): void {
    this.stamps.record(sessionId, read.path.real, read);
  }

  /**
   * Applies a change set all-or-nothing: checks every path (external writes refused unless
   * allowed; never through a symlink out of the root), refuses files changed since the session
   * read them, asks `opts.authorize` with the diff (a denial throws; an `accepted` list replaces
   * the proposal), saves a checkpoint, then applies open documents through one editor applyEdit
   * (an answer of applied counts; a document the editor then reports without the edit fails the
   * change) and the rest by atomic writes. Throws a WorkspaceError, with every file as it was,
   * when anything fails.
   */
  apply(set: ChangeSet, opts: ApplyOptions): Promise<ApplyResult> {
    return applyChangeSet(this, set, opts);
  }

  /**
   * The open documents this Workspace changed through the editor whose buffer is still not what
   * the disk has (the agent's changes a command would not see).
   */
  unsavedEdits(): Promise<ResolvedPath[]> {
    return this.unsaved.pending(this.documents);
  }

  /** Reverts the session's last change set; undefined when there is nothing to undo. */
  undo(sessionId: string): Promise<RestoreResult | undefined> {
    return undoLast(this, sessionId);
  }

  /** Returns every file the session changed since checkpoint `id` to its state then. */
  restore(sessionId: string, id: string): Promise<RestoreResult> {
    return restoreTo(this, sessionId, id);
  }

  /** The session's checkpoints, oldest first. */
  listCheckpoints(sessionId: string): Promise<Checkpoint[]> {
    return sessionCheckpoints(this, sessionId);
  }

  /** Runs `fn` after every change already under way, so change sets never interleave. */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }
}
