/**
 * The project's state folder `.agent-lsp/`: agent-lsp's own files (logs, conversations,
 * checkpoints, the write journal, process logs) beside the project settings a team may share
 * (config, approvals, rules, skills, workflows). Whoever writes into it first creates it with
 * one `.gitignore` that keeps everything but those settings out of git, so `git add -A` never
 * publishes a transcript or a log.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

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

/** State folders already made by this process (each write would otherwise check again). */
const ensured = new Set<string>();

/** `<root>/.agent-lsp`. */
export function stateFolder(root: string): string {
  return path.join(root, STATE_DIR);
}

/**
 * Creates `<root>/.agent-lsp/` with its `.gitignore` when missing, and returns its path. Call it
 * before writing anything there. A `.gitignore` already in the folder (the user's own) is kept.
 */
export function ensureStateFolder(root: string): string {
  const dir = stateFolder(root);
  if (ensured.has(dir) && existsSync(dir)) return dir;
  mkdirSync(dir, { recursive: true });
  try {
    writeFileSync(path.join(dir, ".gitignore"), STATE_GITIGNORE, { flag: "wx" });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
  ensured.add(dir);
  return dir;
}
