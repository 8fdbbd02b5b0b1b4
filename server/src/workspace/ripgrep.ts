/**
 * Running ripgrep (`rg`, Debian's `ripgrep`; never downloaded) to list which files of a tree
 * contain a fixed string, or which files it would search. Only its file walk and byte search are used: the caller decides what
 * the listing means (search-rg.ts). Every option that could change what rg reads is pinned on the
 * command line (no config file), so the listing depends on the tree alone.
 */
import { spawn } from "node:child_process";
import { accessSync, constants, existsSync } from "node:fs";
import path from "node:path";

let cached: { pathVar: string; rg: string | undefined } | undefined;

/** The `rg` executable on PATH, or undefined (looked up again when PATH changes). */
export function findRipgrep(): string | undefined {
  const pathVar = process.env.PATH ?? "";
  if (cached?.pathVar === pathVar) return cached.rg;
  let rg: string | undefined;
  for (const dir of pathVar.split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, "rg");
    try {
      accessSync(candidate, constants.X_OK);
      rg = candidate;
      break;
    } catch {
      // Not here: the next folder on PATH.
    }
  }
  cached = { pathVar, rg };
  return rg;
}

/** Folders the in-process walk never enters (walk.ts): rg is told to skip them too. */
export const SKIPPED_FOLDERS = [".git", ".hg", ".svn", "node_modules"];

/** What rg is asked. */
export interface RipgrepListing {
  rg: string;
  /** The project root: rg runs there, and ignore files are read from it down. */
  base: string;
  /** The folder searched, relative to `base` ("" for the root itself). */
  startRel: string;
  /** The fixed string to look for; without it, every file rg would search is listed. */
  literal?: string;
  ignoreCase?: boolean;
  /** Read no .gitignore above the searched folder (the walk reads none above the root). */
  noParentIgnores: boolean;
  signal?: AbortSignal;
}

/** One file rg listed: its path relative to the root. */
export interface ListedFile {
  rel: string;
}

/** The command line: ignore files as the walk reads them, hidden files in, every file read as text. */
function argsFor(l: RipgrepListing): string[] {
  const args = ["--no-config", "--null", "--text", "--encoding=none", l.literal === undefined ? "--files" : "--files-with-matches"];
  args.push("--follow", "--hidden", "--no-require-git", "--no-ignore-dot", "--no-ignore-global", "--no-ignore-exclude");
  if (l.noParentIgnores) args.push("--no-ignore-parent");
  // .git/info/exclude loses to every .gitignore, as --ignore-file rules do (matched from the cwd, the root).
  const exclude = path.join(l.base, ".git", "info", "exclude");
  if (existsSync(exclude)) args.push("--ignore-file", exclude);
  for (const dir of SKIPPED_FOLDERS) args.push("--glob", `!${dir}/`);
  if (l.literal !== undefined) {
    args.push("--fixed-strings");
    if (l.ignoreCase) args.push("--ignore-case");
    args.push("--regexp", l.literal);
  }
  args.push("--", l.startRel || ".");
  return args;
}

/** Parses NUL-ended paths. */
function parseListing(stdout: Buffer): ListedFile[] {
  const files: ListedFile[] = [];
  for (let at = 0, nul = stdout.indexOf(0); nul !== -1; at = nul + 1, nul = stdout.indexOf(0, at)) {
    const raw = stdout.toString("utf8", at, nul);
    files.push({ rel: raw.startsWith("./") ? raw.slice(2) : raw });
  }
  return files;
}

/**
 * The files below the folder that contain the literal (every file rg would search, without one);
 * undefined when rg failed in any way (an unreadable folder, a link loop, a crash), so the caller falls back.
 */
export function listWithRipgrep(l: RipgrepListing): Promise<ListedFile[] | undefined> {
  return new Promise((resolve) => {
    const child = spawn(l.rg, argsFor(l), { cwd: l.base, stdio: ["ignore", "pipe", "ignore"], signal: l.signal });
    const chunks: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
    child.on("error", () => resolve(undefined));
    // 0: files listed, 1: none; 2 (or a signal) means rg could not read everything.
    child.on("close", (code) => resolve(code === 0 || code === 1 ? parseListing(Buffer.concat(chunks)) : undefined));
  });
}
