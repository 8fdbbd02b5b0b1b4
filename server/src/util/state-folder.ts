/**
 * The project's state folder `.agent-lsp/`, and the one way agent-lsp writes or removes anything
 * in it (logs, conversations, checkpoints, the write journal, process logs, memory, the chat
 * file, approvals). It sits beside the project settings a team may share (config, approvals,
 * rules, skills, workflows); whoever writes into it first creates it with one `.gitignore` that
 * keeps everything but those settings out of git.
 *
 * A cloned repository decides what `.agent-lsp/` holds before agent-lsp first runs there: it can
 * ship `logs` as a symlink to `~/.bashrc`, or `journal` as one to `~/.docker`. So every folder on
 * the way is checked with lstat (a link is refused, never followed, never deleted through), the
 * deepest one's real path must be where it belongs, and files are opened with O_NOFOLLOW (and
 * O_EXCL when new). A refusal is one StateFolderError naming the path and what to do.
 *
 * A checkout agent-lsp cannot write (a read-only mount, no permission) keeps its state in the
 * user's state folder instead: `~/.local/state/agent-lsp/projects/<name>-<hash>/`.
 */
import { createHash } from "node:crypto";
import {
  accessSync,
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeFileSync,
  writeSync,
  type Stats,
} from "node:fs";
import path from "node:path";
import { userStateDir } from "./user-dirs.js";

/** Name of the per-project state folder. */
export const STATE_DIR = ".agent-lsp";

/** What a team may commit from the state folder: files, and folders (trailing slash). */
const SHARED_STATE = ["config.toml", "approvals.toml", "rules/", "skills/", "workflows/"] as const;

/**
 * The state folder's `.gitignore`. Patterns are anchored (`/*`) so only the folder's direct
 * entries are ignored and a shared folder, once let through, keeps everything inside it.
 */
const STATE_GITIGNORE = [
  "# agent-lsp's state (logs, conversations, checkpoints ...) stays out of git.",
  "# Only the project settings a team shares are let through. agent-lsp never rewrites this file.",
  "/*",
  ...SHARED_STATE.map((entry) => `!/${entry}`),
  "",
].join("\n");

/** O_NOFOLLOW where the platform has it (not on Windows, which has no such links to follow here). */
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/** A state path agent-lsp will not use: a link, a file where a folder belongs, a place outside. */
export class StateFolderError extends Error {
  override readonly name = "StateFolderError";
  constructor(
    /** The path refused. */
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

/** Where a project's state is written, once decided for this process. */
const locations = new Map<string, string>();
/** State folders whose `.gitignore` (or `project` note) this process has made or found. */
const marked = new Set<string>();

/** `<root>/.agent-lsp`: where the project's settings are read (config.toml, approvals.toml, rules...). */
export function stateFolder(root: string): string {
  return path.join(root, STATE_DIR);
}

/**
 * The folder agent-lsp writes the state of `root` to: `<root>/.agent-lsp`, or, when the checkout
 * cannot be written, the project's folder in the user's state folder. Nothing is created.
 * Throws StateFolderError when `.agent-lsp` is a link or a file.
 */
export function stateLocation(root: string, env: NodeJS.ProcessEnv = process.env): string {
  const key = path.resolve(root);
  const known = locations.get(key);
  if (known) return known;
  const dir = stateFolder(key);
  const st = lstatOrUndefined(dir);
  if (st) checkFolder(dir, st, "the state folder");
  const where = writable(st ? dir : key) ? dir : fallbackFolder(key, env);
  locations.set(key, where);
  return where;
}

/** True when the state of `root` lives in the user's state folder (the checkout cannot be written). */
export function stateIsElsewhere(root: string, env: NodeJS.ProcessEnv = process.env): boolean {
  return stateLocation(root, env) !== stateFolder(path.resolve(root));
}

/**
 * Creates the state folder of `root` when missing (the project's with its `.gitignore`; a user's
 * own `.gitignore` there is kept) and returns its path. Call it before writing anything there.
 */
export function ensureStateFolder(root: string, env: NodeJS.ProcessEnv = process.env): string {
  const dir = stateLocation(root, env);
  const project = dir === stateFolder(path.resolve(root));
  const base = project ? path.resolve(root) : userStateDir(env);
  if (!project) mkdirSync(base, { recursive: true, mode: 0o700 });
  makeChecked(base, path.relative(base, dir).split(path.sep), project ? 0o777 : 0o700);
  if (!marked.has(dir)) {
    // The .gitignore keeps the project's state out of git; the note says whose state a folder
    // in the user's state folder is.
    if (project) writeNew(path.join(dir, ".gitignore"), STATE_GITIGNORE, 0o644);
    else writeNew(path.join(dir, "project"), `${path.resolve(root)}\n`, 0o600);
    marked.add(dir);
  }
  return dir;
}

/** Creates `<state>/<names...>` folder by folder, each checked; returns its path. */
export function ensureStateDir(root: string, ...names: string[]): string {
  const base = ensureStateFolder(root);
  makeChecked(base, names, 0o700);
  return path.join(base, ...names);
}

/**
 * `<state>/<names...>` for reading: its path when it exists as a real folder, undefined when it
 * does not exist. Throws StateFolderError when it, or a folder on the way, is a link or a file.
 */
export function existingStateDir(root: string, ...names: string[]): string | undefined {
  const base = stateLocation(root);
  let dir = base;
  for (const name of ["", ...names]) {
    dir = name ? path.join(dir, name) : dir;
    const st = lstatOrUndefined(dir);
    if (!st) return undefined;
    checkFolder(dir, st, names.join("/") || "the state folder");
  }
  checkReal(base, dir);
  return dir;
}

/** How a state file is opened: appended to, created new (never over anything), or rewritten in place. */
export type StateOpen = "append" | "new" | "truncate";

/** Opens `file`, in a folder made by {@link ensureStateDir}, without following a link; returns the fd. */
export function openStateFile(file: string, how: StateOpen, mode = 0o600): number {
  const flags = { append: constants.O_APPEND, new: constants.O_EXCL, truncate: constants.O_TRUNC }[how];
  return openRegularFile(file, flags | constants.O_CREAT | constants.O_WRONLY, "write there", mode);
}

/**
 * Opens a state file for reading without following a link: a repository can plant one where a
 * conversation log belongs, pointing at another project's log or a credential. A missing file
 * throws ENOENT as usual; a link or anything but a regular file is refused with the reason.
 */
export function openStateFileForReading(file: string): number {
  return openRegularFile(file, constants.O_RDONLY, "read it");
}

/** Opens `file` with `flags` and O_NOFOLLOW; a link or anything but a regular file is refused. */
function openRegularFile(file: string, flags: number, doing: string, mode?: number): number {
  let fd: number;
  try {
    fd = openSync(file, flags | NOFOLLOW, mode);
  } catch (err) {
    throw refusal(file, err);
  }
  if (!fstatSync(fd).isFile()) {
    closeSync(fd);
    throw new StateFolderError(file, `${file} is not a regular file; agent-lsp does not ${doing}. Remove it.`);
  }
  return fd;
}

/** A whole state file's text, read without following a link ({@link openStateFileForReading}). */
export function readStateFile(file: string): string {
  return readStateBytes(file).toString("utf8");
}

/** A whole state file's bytes (a checkpoint's saved copy), read without following a link. */
export function readStateBytes(file: string): Buffer {
  const fd = openStateFileForReading(file);
  try {
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Refuses a state file that is a link or not a regular file; a missing one is fine (made later, never through a link). */
export function refuseLink(file: string): void {
  const st = lstatOrUndefined(file);
  if (!st) return;
  if (st.isSymbolicLink()) throw linkRefusal(file, "file");
  if (!st.isFile()) throw new StateFolderError(file, `${file} is not a regular file; agent-lsp does not write there. Remove it.`);
}

/** Writes a whole state file: a new temp file beside it, then a rename over it (never through a link). */
export function writeStateFile(file: string, data: string | Uint8Array, mode = 0o600): void {
  const temp = `${file}.${process.pid}.${Date.now().toString(36)}.tmp`;
  const fd = openStateFile(temp, "new", mode);
  try {
    writeAll(fd, typeof data === "string" ? Buffer.from(data) : data);
    closeSync(fd);
    renameSync(temp, file);
  } catch (err) {
    closeQuietly(fd);
    unlinkQuietly(temp);
    throw err;
  }
}

/**
 * Removes `<dir>/<name>` (a file, or a folder and what it holds) where `dir` came from
 * {@link ensureStateDir} or {@link existingStateDir}: a link is removed as a link, never followed.
 */
export function removeStateEntry(dir: string, name: string): void {
  if (name.includes("/") || name.includes(path.sep) || name === ".." || name === ".") throw new StateFolderError(name, `${name}: not an entry name`);
  rmSync(path.join(dir, name), { recursive: true, force: true });
}

/** Why a write failed, in words a user can act on; undefined for an error that is not such a fault. */
function faultWords(code: string | undefined): string | undefined {
  if (code === "ENOSPC" || code === "EDQUOT") return `the disk is full (${code}). Free some space, then try again.`;
  if (code === "EROFS") return "the file system is read-only (EROFS).";
  if (code === "EACCES" || code === "EPERM") return `permission denied (${code}).`;
  return undefined;
}

/**
 * A failed state write as a StateFolderError that says what failed and why (`doing: the disk is
 * full...`): a full disk, a read-only file system, no permission. A StateFolderError passes
 * through; any other error is returned as it is.
 */
export function asStateError(err: unknown, doing: string): unknown {
  if (err instanceof StateFolderError) return err;
  const e = err as NodeJS.ErrnoException;
  const words = faultWords(e.code);
  if (!words) return err;
  const at = e.path && !doing.includes(e.path) ? ` (${e.path})` : "";
  return new StateFolderError(e.path ?? "", `${doing}${at}: ${words}`);
}

/** The message of {@link asStateError}'s result, for a caller that only reports. */
export function stateWriteProblem(err: unknown, doing = "agent-lsp could not write its state"): string {
  return (asStateError(err, doing) as Error).message;
}

/** Forgets where each project's state was decided to go (tests that remount a checkout). */
export function resetStateLocations(): void {
  locations.clear();
  marked.clear();
}

/**
 * Creates `base/names...` one folder at a time: an existing entry must be a real folder (not a
 * link, not a file); the result's real path must be base's real path joined with the names.
 */
function makeChecked(base: string, names: readonly string[], mode: number): void {
  let dir = base;
  for (const name of names.filter(Boolean)) {
    dir = path.join(dir, name);
    const st = lstatOrUndefined(dir);
    if (st) {
      checkFolder(dir, st, name);
      continue;
    }
    try {
      mkdirSync(dir, { mode });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      checkFolder(dir, lstatSync(dir), name); // made by someone else meanwhile: check it as found
    }
  }
  checkReal(base, dir);
}

/** Refuses a link or a non-folder where a state folder belongs. */
function checkFolder(dir: string, st: Stats, what: string): void {
  if (st.isSymbolicLink()) throw linkRefusal(dir);
  if (!st.isDirectory()) {
    throw new StateFolderError(dir, `${dir} is a file, not a folder: agent-lsp keeps ${what === "the state folder" ? "its state" : `its ${what}`} there. Remove or rename that file, then try again.`);
  }
}

/** Refuses a folder whose real path is not base's real path joined with the same names. */
function checkReal(base: string, dir: string): void {
  const want = path.join(realpathSync(base), path.relative(base, dir));
  const real = realpathSync(dir);
  if (real !== want) throw new StateFolderError(dir, `${dir} leads to ${real}, outside where agent-lsp keeps its state; agent-lsp does not write there. Remove it.`);
}

function linkRefusal(p: string, kind: "file" | "folder" = "folder"): StateFolderError {
  let target = "";
  try {
    target = ` (to ${readlinkSync(p)})`;
  } catch {
    // The link vanished meanwhile: the refusal stands without its target.
  }
  return new StateFolderError(
    p,
    `${p} is a symbolic link${target}. agent-lsp never reads, writes or deletes through a link in its state folder (a repository can point one at your files). Remove the link; agent-lsp then makes a real ${kind} there.`,
  );
}

/** ELOOP from O_NOFOLLOW means the file is a link; EEXIST from O_EXCL may be one too. */
function refusal(file: string, err: unknown): unknown {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === "ELOOP" || (code === "EEXIST" && lstatOrUndefined(file)?.isSymbolicLink())) return linkRefusal(file, "file");
  if (code === "EISDIR") return new StateFolderError(file, `${file} is a folder where agent-lsp keeps a file. Remove or rename it, then try again.`);
  return err;
}

/** Creates a file that must not exist yet; one that does (the user's own) is kept. */
function writeNew(file: string, text: string, mode: number): void {
  try {
    writeFileSync(file, text, { flag: "wx", mode });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
}

/** True unless the path cannot be written for good (read-only file system, no permission). */
function writable(p: string): boolean {
  try {
    accessSync(p, constants.W_OK);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return !(code === "EROFS" || code === "EACCES" || code === "EPERM");
  }
}

/** The project's folder in the user's state folder: its name and a hash of its real path. */
function fallbackFolder(root: string, env: NodeJS.ProcessEnv): string {
  let real = root;
  try {
    real = realpathSync(root);
  } catch {
    // A root that cannot be resolved is named as given.
  }
  const hash = createHash("sha256").update(real).digest("hex").slice(0, 16);
  const name = path.basename(real).replace(/[^\w.-]/g, "_") || "root";
  return path.join(userStateDir(env), "projects", `${name}-${hash}`);
}

function lstatOrUndefined(p: string): Stats | undefined {
  try {
    return lstatSync(p);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
}

/** Writes every byte (writeSync may write fewer than asked). */
export function writeAll(fd: number, data: Uint8Array): void {
  for (let off = 0; off < data.length; ) off += writeSync(fd, data, off);
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Closed already.
  }
}

function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Already gone, or never made.
  }
}
