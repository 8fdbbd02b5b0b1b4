/**
 * What the sandbox's filesystem looks like for a project, worked out from the disk before each
 * launch (a handful of stats): the folders that stay writable (the project, and its repository's
 * git folders where they lie elsewhere, as in a worktree), the places inside them that stay
 * read-only (agent-lsp's state folder, git hooks and config: a command must not plant code that
 * runs later outside the sandbox), and the places hidden altogether. Every path is the real one:
 * mounts follow no symlink a command could swap.
 */
import { accessSync, constants, existsSync, lstatSync, mkdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { ensureStateFolder, STATE_DIR } from "../../util/state-folder.js";

/** The mounts of one launch. */
export interface Layout {
  /** Folders a command may write in (besides its private /tmp). */
  writable: string[];
  /** Places inside `writable` that stay read-only. */
  readOnly: string[];
  /** Folders and files covered by an empty, unreadable one. */
  hiddenDirs: string[];
  hiddenFiles: string[];
  /**
   * Hidden folders that hold a writable one (a project in agent-lsp's own state folder, as
   * `<state>/no-project` is): emptied first, so that only the writable folder comes back inside.
   */
  hiddenAround: string[];
  /** Folders replaced by an empty private one the command may write in (the user's runtime folder). */
  emptied: string[];
}

/**
 * Machine secrets hidden from every command besides the user's sensitive places: readable by
 * root, and CI runs commands as root.
 */
/** The private temporary folder every command gets (bwrap-args.ts). */
const TMP = "/tmp";

const SYSTEM_SECRETS = ["/etc/shadow", "/etc/shadow-", "/etc/gshadow", "/etc/gshadow-", "/etc/sudoers", "/etc/ssh/ssh_host_rsa_key", "/etc/ssh/ssh_host_ecdsa_key", "/etc/ssh/ssh_host_ed25519_key"];

/**
 * The layout for commands of the project at `root`, hiding `hidden` and emptying `emptied`
 * (absolute paths).
 */
export function sandboxLayout(root: string, hidden: readonly string[], emptied: readonly string[] = []): Layout {
  const project = realOrSelf(root);
  const writable = [project];
  const readOnly: string[] = [];
  const state = stateFolderOf(root);
  if (state) readOnly.push(state);
  for (const git of gitFolders(root)) {
    if (!writable.some((w) => isInside(w, git.dir))) writable.push(git.dir);
    readOnly.push(...git.protectedPaths);
  }
  const hiddenDirs: string[] = [];
  const hiddenFiles: string[] = [];
  const hiddenAround: string[] = [];
  const fresh = unique(emptied.flatMap((dir) => (isDirectory(dir) ? [realOrSelf(dir)] : [])));
  const isRoot = process.getuid?.() === 0;
  for (const place of [...hidden, ...SYSTEM_SECRETS]) {
    const real = realIfExists(place);
    if (!real) continue;
    if (writable.some((w) => isInside(real, w))) hiddenAround.push(real);
    // The private /tmp and the emptied folders start empty: nothing there to cover.
    else if ([TMP, ...fresh].some((dir) => isInside(dir, real))) continue;
    else if (isRoot || openToUs(real)) (isDirectory(real) ? hiddenDirs : hiddenFiles).push(real);
  }
  return { writable, readOnly: unique(readOnly), hiddenDirs: unique(hiddenDirs), hiddenFiles: unique(hiddenFiles), hiddenAround: unique(hiddenAround), emptied: fresh };
}

/**
 * The state folder `.agent-lsp/`, created when missing so it can be mounted read-only (a command
 * must not be the one to create it); undefined when it is no folder: a read-only checkout (no
 * command can write there either), or a link or file agent-lsp refuses to use (its target, if
 * outside the project, is read-only like everything else).
 */
function stateFolderOf(root: string): string | undefined {
  try {
    ensureStateFolder(root);
  } catch {
    // Said by agent-lsp's own writes there; the folder is judged as it is below.
  }
  const dir = path.join(root, STATE_DIR);
  return lstatSync(dir, { throwIfNoEntry: false })?.isDirectory() ? realOrSelf(dir) : undefined;
}

/** A repository folder commands may write in, and what inside it stays read-only. */
interface GitFolder {
  dir: string;
  protectedPaths: string[];
}

/**
 * The git folders of the repository holding `root`: `.git` in the project or a folder above it,
 * or, where `.git` is a file (a worktree, a submodule), the folder it names and the common folder
 * behind that. Hooks and config stay read-only in each; a missing hooks folder is made (git's
 * own layout) so that it can be.
 */
function gitFolders(root: string): GitFolder[] {
  const dotGit = findDotGit(root);
  if (!dotGit) return [];
  if (isDirectory(dotGit)) return [repositoryFolder(dotGit)];
  const gitDir = pointedGitDir(dotGit);
  if (!gitDir) return [];
  const common = commonDir(gitDir);
  const own: GitFolder = { dir: gitDir, protectedPaths: existing([path.join(gitDir, "config"), path.join(gitDir, "config.worktree"), path.join(gitDir, "hooks")]) };
  return common && common !== gitDir ? [own, repositoryFolder(common)] : [repositoryFolder(gitDir)];
}

function repositoryFolder(dir: string): GitFolder {
  const hooks = path.join(dir, "hooks");
  if (!existsSync(hooks)) {
    try {
      mkdirSync(hooks);
    } catch {
      // A read-only repository: nothing can write a hook there anyway.
    }
  }
  return { dir, protectedPaths: existing([hooks, path.join(dir, "config")]) };
}

/** `.git` in `root` or the nearest folder above it, by its real path. */
function findDotGit(root: string): string | undefined {
  for (let dir = realOrSelf(root); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, ".git");
    if (existsSync(candidate)) return realOrSelf(candidate);
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** The folder a `.git` file names (`gitdir: PATH`, relative to the file's folder). */
function pointedGitDir(file: string): string | undefined {
  const match = /^gitdir:\s*(.+)$/m.exec(readText(file) ?? "");
  return match ? realIfExists(path.resolve(path.dirname(file), match[1]!.trim())) : undefined;
}

/** The repository's common folder a worktree's git folder names in `commondir`. */
function commonDir(gitDir: string): string | undefined {
  const named = readText(path.join(gitDir, "commondir"))?.trim();
  return named ? realIfExists(path.resolve(gitDir, named)) : undefined;
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

function existing(paths: string[]): string[] {
  return paths.flatMap((p) => {
    const real = realIfExists(p);
    return real ? [real] : [];
  });
}

/**
 * Whether this user (not root) can read `p`, write it (a socket is used by writing), or search it
 * if a folder. A command runs as the same user on a read-only disk, so a place closed to the user
 * (/etc/shadow, another user's home) is closed to it already and needs no cover: each cover is a
 * mount that every command waits for.
 */
function openToUs(p: string): boolean {
  const can = (mode: number) => {
    try {
      accessSync(p, mode);
      return true;
    } catch {
      return false;
    }
  };
  return can(constants.R_OK) || can(constants.W_OK) || (isDirectory(p) && can(constants.X_OK));
}

/** The real path of `p`, or undefined when nothing is there (checked first: a thrown error costs more than the stat). */
function realIfExists(p: string): string | undefined {
  try {
    return statSync(p, { throwIfNoEntry: false }) ? realpathSync.native(p) : undefined;
  } catch {
    return undefined;
  }
}

function realOrSelf(p: string): string {
  return realIfExists(p) ?? path.resolve(p);
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return lstatSync(p, { throwIfNoEntry: false })?.isDirectory() ?? false;
  }
}

/** Whether `p` is `dir` or inside it. */
export function isInside(dir: string, p: string): boolean {
  const rel = path.relative(dir, p);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

function unique(paths: string[]): string[] {
  return [...new Set(paths)];
}
