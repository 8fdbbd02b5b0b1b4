/**
 * The `.agent-lsp/` folders the Workspace keeps inside the project root (checkpoints, the write
 * journal). Each gets a `.gitignore` of `*` so they never show up in `git status`.
 */
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";

/** Name of the per-project state folder. */
export const STATE_DIR = ".agent-lsp";

/** Folders below the state folder that belong to the Workspace (the agent must not write there). */
export const INTERNAL_DIRS = ["checkpoints", "journal"] as const;

/** Folders already made by this process (each commit would otherwise make them again). */
const ensured = new Set<string>();

/** Creates `<root>/.agent-lsp/<name>/` with its `.gitignore`, and returns its path. */
export async function ensureStateDir(root: string, name: (typeof INTERNAL_DIRS)[number]): Promise<string> {
  const dir = path.join(root, STATE_DIR, name);
  if (ensured.has(dir) && existsSync(dir)) return dir;
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, ".gitignore"), "*\n", { flag: "wx" }).catch(() => undefined);
  ensured.add(dir);
  return dir;
}

/** True when `abs` lies inside one of the Workspace's own folders. */
export function isInternalPath(root: string, abs: string): boolean {
  const rel = path.relative(path.join(root, STATE_DIR), abs).split(path.sep);
  return rel[0] !== ".." && !path.isAbsolute(rel.join(path.sep)) && (INTERNAL_DIRS as readonly string[]).includes(rel[0] ?? "");
}
