/**
 * The project root agent-lsp works in. A folder that holds far more than one project is never
 * one: the filesystem root, the user's home, or a system folder. There agent-lsp would create
 * its state folder (`.agent-lsp/`: logs, conversations) and the agent would work over the whole
 * machine or home; and a stray `.agent-lsp` left in `/` or `~` would then make every file on the
 * machine look like part of one project to an editor plugin. With no usable root, agent-lsp
 * works in a folder of the user's state folder (`<state>/no-project`) and says why.
 */
import { mkdirSync, realpathSync } from "node:fs";
import path from "node:path";
import { homeOf, userStateDir } from "../config/user-dirs.js";

/** The folder of the user's state folder agent-lsp works in when it was given no usable root. */
export const NO_PROJECT_DIR = "no-project";

/** Folders that are the system's, with everything inside them. */
const SYSTEM_TREES = ["/bin", "/boot", "/dev", "/etc", "/lib", "/lib32", "/lib64", "/libx32", "/proc", "/run", "/sbin", "/sys", "/usr"];
/** Folders of a system tree where people do keep projects (a folder inside them is one). */
const PROJECT_TREES = ["/usr/local", "/usr/src"];
/** Folders that hold others' folders: not a project themselves (a folder inside them may be). */
const SHARED_FOLDERS = ["/home", "/media", "/mnt", "/opt", "/root", "/srv", "/tmp", "/var", "/var/tmp", "/Users", "/Volumes", ...PROJECT_TREES];

/** The root agent-lsp works in, and why the folder asked for was not used (when it was not). */
export interface ProjectRoot {
  root: string;
  /** Set when `asked` is no project folder: what it is, for the message the front end shows. */
  refused?: string;
}

function real(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return path.resolve(dir);
  }
}

function inside(dir: string, tree: string): boolean {
  return dir === tree || dir.startsWith(tree.endsWith(path.sep) ? tree : tree + path.sep);
}

/**
 * What `dir` is when it is no project folder ("the filesystem root", "your home folder", "a
 * system folder"), else undefined.
 */
export function notAProject(dir: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const candidates = [path.resolve(dir), real(dir)];
  const home = homeOf(env);
  const homes = [path.resolve(home), real(home)];
  for (const d of candidates) {
    if (path.parse(d).root === d) return "the filesystem root";
    if (homes.includes(d)) return "your home folder";
    if (SHARED_FOLDERS.includes(d)) return "a system folder";
    if (SYSTEM_TREES.some((tree) => inside(d, tree)) && !PROJECT_TREES.some((tree) => inside(d, tree))) return "a system folder";
  }
  return undefined;
}

/**
 * The root to work in for the folder an editor (or the current directory) names: that folder,
 * or, when it is no project folder, `<state>/no-project` (created) with the reason.
 */
export function projectRoot(asked: string, env: NodeJS.ProcessEnv = process.env): ProjectRoot {
  const what = notAProject(asked, env);
  if (!what) return { root: asked };
  const root = path.join(userStateDir(env), NO_PROJECT_DIR);
  mkdirSync(root, { recursive: true });
  return { root, refused: `${asked} is ${what}, not a project folder: agent-lsp works in ${root} instead, where no file of yours is. Open a folder of your project (one with .git) to work on it.` };
}
