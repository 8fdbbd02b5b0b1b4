/**
 * Checkpoints: before each change set, the prior content of every file it touches (or the fact
 * that it did not exist) is saved under `<root>/.agent-lsp/checkpoints/<id>/` as a manifest and one
 * copy per file. Undo and restore read them back; a failed commit rolls back from them too.
 */
import { constants } from "node:fs";
import { copyFile, mkdir, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { asStateError, existingStateDir, readStateFile, removeStateEntry, writeStateFile } from "../util/state-folder.js";
import { encodeText } from "./encoding.js";
import { errnoCode, WorkspaceError } from "./errors.js";
import type { FileState } from "./file-state.js";
import type { ResolvedPath } from "./paths.js";
import { ensureStateDir } from "./state-dir.js";

/** Why a checkpoint was made. */
export type CheckpointKind = "change" | "restore" | "undo";

/** One file's state before the change. */
export interface CheckpointFile {
  /** Root-relative path (absolute when external). */
  path: string;
  /** Absolute path (the name the user knows). */
  abs: string;
  /** Where the bytes really are (symlinks resolved). */
  real: string;
  existed: boolean;
  /** Where the saved text came from: an open buffer may differ from the disk. */
  source: "buffer" | "disk" | "none";
  /** File name of the saved copy inside the checkpoint, when it existed. */
  copy?: string;
  mode?: number;
}

/** A checkpoint's manifest.json. */
export interface Checkpoint {
  id: string;
  sessionId: string;
  createdAt: string;
  kind: CheckpointKind;
  /** The tool or command that made the change. */
  tool: string;
  files: CheckpointFile[];
  /** Folders the change created (removed again by undo when empty). */
  createdDirs: string[];
  /** Set when /undo reverted this change. */
  undoneAt?: string;
}

/** A file about to change, with its current state. */
export interface TouchedFile {
  path: ResolvedPath;
  state: FileState;
}

let idCounter = 0;

/** A sortable, readable id: `20250101-120000-3` style, unique within this process. */
function newId(now: Date): string {
  idCounter += 1;
  const stamp = now.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  return `${stamp}-${process.pid.toString(36)}${idCounter}`;
}

/** The checkpoints of one project root. */
export class CheckpointStore {
  /** Checkpoints this store made (this server, since it started). */
  private readonly madeHere = new Set<string>();

  constructor(readonly root: string) {}

  /**
   * Whether this server made checkpoint `id`. Any other was read from the state folder, which a
   * repository can ship: restore.ts writes a file outside the project only from one made here.
   */
  madeByThisServer(id: string): boolean {
    return this.madeHere.has(id);
  }

  private dir(id: string): Promise<string> {
    return ensureStateDir(this.root, "checkpoints").then((base) => path.join(base, id));
  }

  /** Saves the current state of `files` and returns the new checkpoint. */
  async create(sessionId: string, tool: string, kind: CheckpointKind, files: TouchedFile[]): Promise<Checkpoint> {
    const now = new Date();
    const id = newId(now);
    let made = false;
    try {
      const dir = await this.dir(id);
      // A new folder of a new id: nothing there yet can be a link to follow.
      await mkdir(dir, { mode: 0o700 });
      made = true;
      this.madeHere.add(id);
      const entries = await Promise.all(files.map((f, i) => saveCopy(dir, i, f)));
      const checkpoint: Checkpoint = { id, sessionId, createdAt: now.toISOString(), kind, tool, files: entries, createdDirs: [] };
      await this.save(checkpoint);
      return checkpoint;
    } catch (err) {
      // A checkpoint that could not be saved whole (a full disk) is no way back: none is kept.
      if (made) await this.discard(id).catch(() => undefined);
      throw asStateError(err, `Could not save checkpoint ${id} before the change (nothing was changed)`);
    }
  }

  /** Rewrites a checkpoint's manifest (after the commit, or when it is undone). */
  async save(checkpoint: Checkpoint): Promise<void> {
    const dir = await this.dir(checkpoint.id);
    writeStateFile(path.join(dir, "manifest.json"), `${JSON.stringify(checkpoint, null, 2)}\n`);
  }

  /** Removes a checkpoint whose change never happened. */
  async discard(id: string): Promise<void> {
    removeStateEntry(await ensureStateDir(this.root, "checkpoints"), id);
  }

  /**
   * Absolute path of a saved copy (read it with readStateBytes: never through a link). The name is
   * one agent-lsp gives (a number): a manifest naming `../../.ssh/id_rsa` is damaged, not followed.
   */
  async copyPath(checkpoint: Checkpoint, file: CheckpointFile): Promise<string | undefined> {
    if (!file.copy) return undefined;
    if (!/^\d+$/.test(file.copy)) throw new WorkspaceError(`Checkpoint ${checkpoint.id} is damaged: its copy of ${file.path} is named "${file.copy}", not a number agent-lsp gives. Remove the folder ${await this.dir(checkpoint.id)}.`);
    return path.join(await this.dir(checkpoint.id), file.copy);
  }

  /**
   * The checkpoint `id`, or undefined when there is none by that id. A manifest that exists but
   * cannot be read or parsed is an error that says so, not "no such checkpoint"; so is a
   * checkpoint folder or manifest that is a link (a repository can ship one pointing elsewhere).
   */
  async get(id: string): Promise<Checkpoint | undefined> {
    if (!/^[\w.-]+$/.test(id) || id === "." || id === "..") return undefined;
    let file: string;
    let text: string;
    try {
      const dir = existingStateDir(this.root, "checkpoints", id);
      if (!dir) return undefined;
      file = path.join(dir, "manifest.json");
      text = readStateFile(file);
    } catch (err) {
      if (errnoCode(err) === "ENOENT") return undefined;
      throw new WorkspaceError(`Checkpoint ${id} cannot be read (${(err as Error).message}).`);
    }
    try {
      return JSON.parse(text) as Checkpoint;
    } catch (err) {
      throw new WorkspaceError(
        `Checkpoint ${id} is damaged: ${file} is not valid JSON (${(err as Error).message}). Fix it or remove the folder ${path.dirname(file)}.`,
      );
    }
  }

  /** Every checkpoint (of one session when given), oldest first. */
  async list(sessionId?: string): Promise<Checkpoint[]> {
    const base = await ensureStateDir(this.root, "checkpoints");
    const ids = (await readdir(base, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name);
    const all = await Promise.all(ids.map((id) => this.get(id)));
    return all
      .filter((c): c is Checkpoint => c !== undefined && (sessionId === undefined || c.sessionId === sessionId))
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || compareIds(a.id, b.id));
  }
}

/** Orders ids made in the same millisecond by their counter. */
function compareIds(a: string, b: string): number {
  return a.length - b.length || a.localeCompare(b);
}

/** Saves one file's current content into the checkpoint folder. */
async function saveCopy(dir: string, index: number, file: TouchedFile): Promise<CheckpointFile> {
  const { path: p, state } = file;
  const entry: CheckpointFile = {
    path: p.rel,
    abs: p.abs,
    real: p.real,
    existed: state.exists,
    source: state.source,
    mode: state.mode,
  };
  if (!state.exists) return entry;
  entry.copy = `${index}`;
  const target = path.join(dir, entry.copy);
  // A disk file is copied byte for byte; a buffer is saved as the text the user saw.
  // New names in the checkpoint's own new folder, created exclusively all the same.
  if (state.source === "disk") await copyFile(p.real, target, constants.COPYFILE_EXCL);
  else await writeFile(target, encodeText(state.text, state.bom), { flag: "wx", mode: 0o600 });
  return entry;
}
