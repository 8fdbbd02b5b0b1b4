/**
 * Reading the project's instruction files (rules, skills, workflows): UTF-8 text or a clear
 * reason why not, never a throw, so one bad file costs only itself.
 */
import { readFileSync, realpathSync } from "node:fs";

/**
 * The kernel's realpath(3): one call, where Node's own resolves a path by an lstat per folder on
 * the way; refreshing the project's knowledge at every turn resolves each of its files.
 */
const realPath = realpathSync.native;

/** Each project root's real path, resolved once: a refresh checks every file against it. */
const projectReal = new Map<string, string>();
function realProject(project: string): string {
  let real = projectReal.get(project);
  if (real === undefined) projectReal.set(project, (real = realPath(project)));
  return real;
}
import path from "node:path";

/** A file read as text, or why it could not be. */
export type TextRead = { ok: true; text: string } | { ok: false; reason: string };

const UTF8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Reads `file` as UTF-8; undefined when it does not exist (the usual case for optional files).
 *
 * With `project` (the project's root), the file must really be inside the project: a link there
 * (the file, or a folder on the way) that leads out is refused with the reason, never read. A
 * cloned repository can ship `.agent-lsp/rules/x.md` or `AGENTS.md` as a link to `~/.ssh/id_rsa`,
 * and what these files hold goes to the model unasked (rules into every system prompt, a
 * workflow's steps as load_workflow's result). A link inside the project (`AGENTS.md` to
 * `CLAUDE.md`) is followed as before; the user's own files belong in `~/.config/agent-lsp`.
 */
export function readTextFile(file: string, project?: string): TextRead | undefined {
  let bytes: Buffer;
  try {
    const real = project === undefined ? file : realPath(file);
    if (project !== undefined && !isWithin(realProject(project), real)) {
      return { ok: false, reason: `${file} leads outside the project (to ${real}) through a symbolic link; it was left out: a repository can point a link at your files.` };
    }
    bytes = readFileSync(real);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR" || code === "EISDIR") return undefined;
    return { ok: false, reason: `${file} could not be read: ${(err as Error).message}` };
  }
  try {
    return { ok: true, text: UTF8.decode(bytes).replace(/^\uFEFF/, "") };
  } catch {
    return { ok: false, reason: `${file} is not UTF-8 text; it was left out.` };
  }
}

/**
 * Whether the folder `dir` is really inside the project (links on the way followed): a folder of
 * instruction files the repository ships as a link out is not listed.
 */
export function folderInProject(dir: string, project: string): boolean {
  try {
    return isWithin(realProject(project), realPath(dir));
  } catch {
    return false; // missing: nothing to list
  }
}

/** Whether the real path `real` is the real folder `base` or below it. */
function isWithin(base: string, real: string): boolean {
  const rel = path.relative(base, real);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

/** A rough token count (four characters a token): budgets need an estimate, not a tokenizer. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
