/**
 * The `.agent-lsp/` folders the Workspace keeps (checkpoints, the write journal), made and checked
 * by util/state-folder.ts like every other state path. The state folder's one `.gitignore` keeps
 * them out of git.
 */
import path from "node:path";
import { ensureStateDir as ensureCheckedDir, STATE_DIR } from "../util/state-folder.js";

export { STATE_DIR };

/** Folders below the state folder that belong to the Workspace (the agent must not write there). */
const INTERNAL_DIRS = ["checkpoints", "journal"] as const;

/** Creates the state folder's `<name>/` (never through a link); returns its path. */
export async function ensureStateDir(root: string, name: (typeof INTERNAL_DIRS)[number]): Promise<string> {
  return ensureCheckedDir(root, name);
}

/** True when `abs` lies inside one of the Workspace's own folders. */
export function isInternalPath(root: string, abs: string): boolean {
  const rel = path.relative(path.join(root, STATE_DIR), abs).split(path.sep);
  return rel[0] !== ".." && !path.isAbsolute(rel.join(path.sep)) && (INTERNAL_DIRS as readonly string[]).includes(rel[0] ?? "");
}
