/**
 * Where a word of a command line lands on disk, as the shell and the kernel would find it: `~`
 * and `$HOME` expanded, symlinks followed (a link in the project may point anywhere), and `..`
 * taken after the link it follows, the way the kernel walks a path (`link/../x` is next to the
 * link's target, not next to the link). Words only the shell can expand (`$VAR`, `~bob`) are
 * "unknown"; globs are kept as patterns under the deepest folder they name.
 */
import { lstatSync, realpathSync } from "node:fs";
import { lstat, readdir } from "node:fs/promises";
import path from "node:path";
import { expandHome } from "./command-line.js";

/** What a word names: one path, a glob under a folder, or something only the shell knows. */
export type ShellPath =
  | {
      kind: "path";
      /** Absolute, normalised by name: what the user reads. */
      abs: string;
      /** Where the bytes really are (every existing symlink resolved). */
      real: string;
    }
  | {
      kind: "glob";
      /** The whole pattern, absolute. */
      pattern: string;
      /** The pattern with its fixed folder part resolved through symlinks. */
      realPattern: string;
      /** The deepest folder the pattern names without wildcards, and where it really is. */
      dir: string;
      realDir: string;
    }
  | { kind: "unknown" };

/** Characters that make a word a glob. */
const GLOB = /[*?[]/;

/**
 * Resolves `word` from the folder `cwd`. With `follow` false the last segment is taken as a name
 * (what `rm link` or `mv link x` act on), not followed.
 */
export async function resolveShellPath(word: string, cwd: string, home: string, follow = true): Promise<ShellPath> {
  const expanded = expandHome(word, home).replace(/^(\$PWD|\$\{PWD\})(?=\/|$)/, cwd);
  if (expanded === "" || /[$`]/.test(expanded) || expanded.startsWith("~")) return { kind: "unknown" };
  const abs = path.resolve(cwd, expanded);
  if (GLOB.test(expanded)) {
    // `*/../x` climbs out of whatever each match links to: only the shell can tell where.
    return expanded.split("/").includes("..") ? { kind: "unknown" } : globPath(abs, expanded, cwd);
  }
  return { kind: "path", abs, real: await physicalPath(cwd, expanded, follow) };
}

/** The kernel's view of `target` from `cwd`: `..` after a symlink goes up from its target. */
async function physicalPath(cwd: string, target: string, follow: boolean): Promise<string> {
  let current = path.isAbsolute(target) ? path.parse(target).root : cwd;
  for (const segment of target.split("/")) {
    if (segment === "" || segment === ".") continue;
    current = segment === ".." ? path.dirname(nearestReal(current)) : path.join(current, segment);
  }
  if (follow) return nearestReal(current);
  return path.join(nearestReal(path.dirname(current)), path.basename(current));
}

/**
 * `realpathOfNearest`, synchronously: a command's words are mostly names that do not exist (a
 * pattern, a subcommand), and asking the thread pool (and building an error) for each made a
 * decision wait several times longer than these few system calls take.
 */
function nearestReal(abs: string): string {
  const tail: string[] = [];
  for (let head = abs; ; ) {
    if (lstatSync(head, { throwIfNoEntry: false })) {
      try {
        const real = realpathSync(head);
        return tail.length ? path.join(real, ...tail.reverse()) : real;
      } catch {
        // A dangling link or a loop: resolved as far as it goes, like a missing name.
      }
    }
    const parent = path.dirname(head);
    if (parent === head) return abs;
    tail.push(path.basename(head));
    head = parent;
  }
}

/** A glob, with the folder part before its first wildcard resolved like any path. */
async function globPath(pattern: string, written: string, cwd: string): Promise<ShellPath> {
  const parts = pattern.split(path.sep);
  const firstGlob = parts.findIndex((p) => GLOB.test(p));
  const dir = parts.slice(0, firstGlob).join(path.sep) || path.sep;
  const writtenParts = written.split("/");
  const fixed = writtenParts.slice(0, writtenParts.findIndex((p) => GLOB.test(p))).join("/");
  const realDir = await physicalPath(cwd, fixed || (written.startsWith("/") ? "/" : "."), true);
  const realPattern = path.join(realDir, ...parts.slice(firstGlob));
  return { kind: "glob", pattern, realPattern, dir, realDir };
}

/**
 * True when the glob `pattern` may name `dir` or something inside it: each of its segments
 * matches the folder's segment at the same depth (a shorter pattern may name an ancestor, and
 * then everything in it). A segment that does not start with `.` does not match a dot name, as
 * in the shell.
 */
export function globMayReach(pattern: string, dir: string): boolean {
  const p = pattern.split(path.sep).filter(Boolean);
  const d = dir.split(path.sep).filter(Boolean);
  for (let i = 0; i < Math.min(p.length, d.length); i++) {
    if (!segmentMatches(p[i]!, d[i]!)) return false;
  }
  return true;
}

function segmentMatches(pattern: string, name: string): boolean {
  if (name.startsWith(".") && !pattern.startsWith(".")) return false;
  return globRegExp(pattern).test(name);
}

/** A shell glob segment as a regular expression (`*`, `?`, `[...]`, `[!...]`). */
function globRegExp(segment: string): RegExp {
  let out = "";
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i]!;
    if (c === "*") out += ".*";
    else if (c === "?") out += ".";
    else if (c === "[" && segment.indexOf("]", i + 2) !== -1) {
      const end = segment.indexOf("]", i + 2);
      const body = segment.slice(i + 1, end).replace(/^!/, "^").replace(/\\/g, "\\\\");
      out += `[${body}]`;
      i = end;
    } else out += c.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${out}$`);
}

/**
 * The existing paths a glob names, as the shell would expand it (a segment that does not start
 * with `.` skips dot names; symlinked folders are entered, as the shell does); undefined when
 * expanding it would read more than `limit` folder entries.
 */
export async function expandGlob(pattern: string, limit = 5000): Promise<string[] | undefined> {
  const parts = pattern.split(path.sep);
  let found = [parts[0] === "" ? path.sep : parts[0]!];
  let read = 0;
  for (const part of parts.slice(1)) {
    if (part === "") continue;
    const next: string[] = [];
    for (const dir of found) {
      if (!GLOB.test(part)) {
        next.push(path.join(dir, part));
        continue;
      }
      const names = await readdir(dir).catch(() => [] as string[]);
      read += names.length;
      if (read > limit) return undefined;
      next.push(...names.filter((n) => segmentMatches(part, n)).map((n) => path.join(dir, n)));
    }
    found = next;
  }
  const exists = await Promise.all(found.map((p) => lstat(p).then(() => true, () => false)));
  return found.filter((_p, i) => exists[i]);
}
