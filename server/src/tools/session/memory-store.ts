/**
 * The memory stores: plain files the agent keeps across sessions and the user can read and edit.
 * `project/...` lives in the project's `.agent-lsp/memory/`, `user/...` in the user's data folder
 * (`$XDG_DATA_HOME/agent-lsp/memory/`, else `~/.local/share/agent-lsp/memory/`). Paths are
 * confined to those folders: `..`, absolute paths and symlinks that lead out are refused.
 */
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { userDataDir } from "../../config/user-dirs.js";
import { ensureStateDir, stateLocation } from "../../util/state-folder.js";

/** The two stores. */
export const MEMORY_STORES = ["project", "user"] as const;
export type MemoryStore = (typeof MEMORY_STORES)[number];

/** A memory path resolved inside its store. */
export interface MemoryPath {
  store: MemoryStore;
  /** The store's folder. */
  dir: string;
  /** Path inside the store ("" for the store itself), with `/` separators. */
  rel: string;
  /** Absolute path on disk. */
  abs: string;
  /** How the model names it: `project/notes.md`. */
  shown: string;
}

/** The folders of the stores for a project. */
export function memoryDirs(root: string, env: NodeJS.ProcessEnv = process.env): Record<MemoryStore, string> {
  return { project: path.join(stateLocation(root), "memory"), user: path.join(userDataDir(env), "memory") };
}

/** A memory path that cannot be used; the message says why and what would work. */
export class MemoryPathError extends Error {}

/**
 * Resolves a path as the model writes it (`project/notes.md`, `/memories/user/prefs.md`) inside
 * its store, or throws MemoryPathError. `undefined` is returned for the root of all stores (`/memories`).
 */
export function resolveMemoryPath(input: string, dirs: Record<MemoryStore, string>): MemoryPath | undefined {
  const cleaned = input.trim().replace(/^\/?memories(?=\/|$)/, "").replace(/^\/+/, "");
  if (cleaned === "") return undefined;
  if (input.includes("\\") || input.includes("\0")) throw new MemoryPathError(`"${input}": use / between names.`);
  if (path.isAbsolute(cleaned) || /^[A-Za-z]:/.test(cleaned) || (input.startsWith("/") && !input.startsWith("/memories"))) {
    throw new MemoryPathError(`"${input}" is an absolute path; memory paths start with project/ or user/ (or /memories/project/...).`);
  }
  const parts = cleaned.split("/").filter((p) => p !== "" && p !== ".");
  if (parts.includes("..")) throw new MemoryPathError(`"${input}": ".." is not allowed in memory paths.`);
  const store = parts[0] as MemoryStore;
  if (!MEMORY_STORES.includes(store)) throw new MemoryPathError(`"${input}": memory paths start with project/ or user/ (the project's store or yours).`);
  const rel = parts.slice(1).join("/");
  const dir = dirs[store];
  // The project's store is agent-lsp's state, in a folder the repository may have shipped: a
  // link there (or on the way to it) is refused, never followed.
  if (store === "project") assertRealStore(dir, input);
  const abs = path.join(dir, ...parts.slice(1));
  assertInside(abs, dir, input);
  return { store, dir, rel, abs, shown: rel ? `${store}/${rel}` : store };
}

/** Refuses a path whose nearest existing ancestor resolves (through symlinks) outside the store. */
function assertInside(abs: string, dir: string, input: string): void {
  if (!existsSync(dir)) return; // nothing there yet: nothing can lead out
  const realDir = realpathSync(dir);
  let probe = abs;
  while (!existsSync(probe) && probe !== dir) probe = path.dirname(probe);
  // A dangling symlink "exists" for lstat only: refuse it too, it points somewhere we do not know.
  if (!existsSync(probe) && isSymlink(probe)) throw new MemoryPathError(`"${input}" is a symlink; memory paths stay inside the store.`);
  const real = realpathSync(probe);
  if (real !== realDir && !real.startsWith(realDir + path.sep)) throw new MemoryPathError(`"${input}" leads out of the memory store (through a symlink); refused.`);
  if (!existsSync(abs) && isSymlink(abs)) throw new MemoryPathError(`"${input}" is a dangling symlink; refused.`);
}

function isSymlink(p: string): boolean {
  try {
    return lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * Refuses a project store that is a link or a file (the state folder above it was checked when
 * memoryDirs found it).
 */
function assertRealStore(dir: string, input: string): void {
  if (isSymlink(dir)) throw new MemoryPathError(`"${input}": ${dir} is a symbolic link; agent-lsp does not follow links in its state folder. Remove the link.`);
  if (existsSync(dir) && !statSync(dir).isDirectory()) throw new MemoryPathError(`"${input}": ${dir} is a file, not a folder. Remove or rename it.`);
}

/** Makes sure a store's folder exists (the project's through the state folder's checks). */
export function ensureStore(target: MemoryPath, root: string): void {
  if (target.store === "project") ensureStateDir(root, "memory");
  else mkdirSync(target.dir, { recursive: true, mode: 0o700 });
}

/** Every file of a store, as paths inside it, sorted. */
export function listStore(dir: string, sub = ""): string[] {
  let entries;
  try {
    entries = readdirSync(path.join(dir, sub), { withFileTypes: true });
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const e of entries) {
    const rel = sub ? `${sub}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...listStore(dir, rel));
    else if (e.isFile()) out.push(rel);
  }
  return out.sort();
}

/**
 * Every file of one of the stores. The project's store is read only when it is a real folder:
 * one the repository shipped as a link (to ~/.ssh...) lists nothing, so its files never reach
 * the model (the memory index goes into every system prompt).
 */
export function storeFiles(dirs: Record<MemoryStore, string>, store: MemoryStore): string[] {
  if (store === "project" && isSymlink(dirs.project)) return [];
  return listStore(dirs[store]);
}

/** What a missing path's store holds, for the error that names what exists. */
export function existingNames(dirs: Record<MemoryStore, string>, store?: MemoryStore): string {
  const stores = store ? [store] : [...MEMORY_STORES];
  const names = stores.flatMap((s) => storeFiles(dirs, s).map((f) => `${s}/${f}`));
  return names.length ? `Memory files: ${names.join(", ")}.` : "The memory is empty.";
}

/**
 * The memory index for the system prompt: each file's path and first line, project first, within
 * `budget` characters ("" when there is nothing or the budget is 0).
 */
export function memoryIndex(dirs: Record<MemoryStore, string>, budget: number): string {
  if (budget <= 0) return "";
  const lines: string[] = [];
  let used = 0;
  let left = 0;
  for (const store of MEMORY_STORES) {
    for (const rel of storeFiles(dirs, store)) {
      const line = `- ${store}/${rel}: ${firstLine(path.join(dirs[store], rel))}`;
      if (used + line.length + 1 > budget) left += 1;
      else {
        lines.push(line);
        used += line.length + 1;
      }
    }
  }
  if (!lines.length && !left) return "";
  if (left) lines.push(`- (${left} more file(s); view project or user with the memory tool)`);
  return lines.join("\n");
}

function firstLine(file: string): string {
  try {
    if (statSync(file).size === 0) return "(empty)";
    const head = readFileSync(file, "utf8").slice(0, 400);
    const line = head.split("\n").find((l) => l.trim()) ?? "";
    return line.length > 120 ? `${line.slice(0, 117)}...` : line.trim();
  } catch {
    return "(unreadable)";
  }
}
