/**
 * The `.agent-lsp/` folders the Workspace keeps inside the project root (checkpoints, the write
 * journal). The state folder's one `.gitignore` (util/state-folder.ts) keeps them out of git.
 */
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { ensureStateFolder, STATE_DIR } from "../util/state-folder.js";

export { STATE_DIR };

/** Folders below the state folder that belong to the Workspace (the agent must not write there). */
const INTERNAL_DIRS = ["checkpoints", "journal"] as const;

/** Folders already made by this process (each commit would otherwise make them again). */
const ensured = new Set<string>();

/** Creates `<root>/.agent-lsp/<name>/` (and the state folder with its `.gitignore`); returns its path. */
export async function ensureStateDir(root: string, name: (typeof INTERNAL_DIRS)[number]): Promise<string> {
  const dir = path.join(root, STATE_DIR, name);
  if (ensured.has(dir) && existsSync(dir)) return dir;
  ensureStateFolder(root);
  mkdirSync(dir, { recursive: true });
  ensured.add(dir);
  return dir;
}

/** True when `abs` lies inside one of the Workspace's own folders. */
export function isInternalPath(root: string, abs: string): boolean {
  const rel = path.relative(path.join(root, STATE_DIR), abs).split(path.sep);
  return rel[0] !== ".." && !path.isAbsolute(rel.join(path.sep)) && (INTERNAL_DIRS as readonly string[]).includes(rel[0] ?? "");
}
