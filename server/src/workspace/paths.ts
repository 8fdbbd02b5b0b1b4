/**
 * Path resolution against the project root. A path outside the root (absolute elsewhere, `..`,
 * `~/…`, or a symlink whose target is outside) is "external": the gate decides about it, not the
 * tool. Every tool path goes through {@link resolveAgainstRoot}, and the gate reads paths from a
 * call's input with the same {@link expandPathInput}, so both see the same file.
 */
import { realpath } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { WorkspaceError } from "./errors.js";

/** A path as the workspace understands it. */
export interface ResolvedPath {
  /** What the caller passed. */
  input: string;
  /** Absolute, normalised, symlinks not resolved (the name the user knows). */
  abs: string;
  /** Absolute with every existing symlink resolved (where the bytes really are). */
  real: string;
  /** Relative to the root, with `/` separators; for an external path, the absolute path. */
  rel: string;
  /** `file://` URI of `abs` (editors know documents by the name they opened). */
  uri: string;
  /** Outside the root, by name or through a symlink. */
  external: boolean;
}

/** `file://` URI for an absolute path. */
export function pathToUri(abs: string): string {
  return pathToFileURL(abs).href;
}

/** Absolute path of a `file://` URI; undefined for other schemes. */
export function uriToPath(uri: string): string | undefined {
  if (!uri.startsWith("file:")) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}

/** True when `child` is `parent` or inside it. */
export function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/**
 * Resolves symlinks of the longest existing prefix of `abs`, so a file that does not exist yet
 * inside a symlinked folder still resolves to where it would be written.
 */
export async function realpathOfNearest(abs: string): Promise<string> {
  let head = abs;
  const tail: string[] = [];
  for (;;) {
    try {
      const real = await realpath(head);
      return tail.length ? path.join(real, ...tail.reverse()) : real;
    } catch {
      const parent = path.dirname(head);
      if (parent === head) return abs;
      tail.push(path.basename(head));
      head = parent;
    }
  }
}

/**
 * What a path the model wrote stands for, before it is made absolute: a `file://` URI's path,
 * and `~` or `~/…` in the user's home, as a shell would read it (a user who says "~/notes.md"
 * means that file, never a folder named `~` in the project). `./~` and `a/~` stay literal, as
 * does `~user`.
 */
export function expandPathInput(input: string, home: string = os.homedir()): string {
  const p = input.startsWith("file:") ? (uriToPath(input) ?? input) : input;
  if (p === "~") return home;
  if (p.startsWith("~/") || p.startsWith(`~${path.sep}`)) return path.join(home, p.slice(2));
  return p;
}

/**
 * Refuses a path with a NUL byte. No file name can hold one: the file system calls would fail
 * with an unclear message, and anything written in C (editors, the shell) would read the name
 * only up to the NUL, that is another file.
 */
function checkNoNul(input: string, expanded: string): void {
  if (!input.includes("\0") && !expanded.includes("\0")) return;
  throw new WorkspaceError(`The path ${JSON.stringify(input)} contains a NUL byte (\\0), which no file name can hold; it was refused. Give the path without it.`);
}

/** Resolves `input` against `root` (and `realRoot`, the root with symlinks resolved). */
export async function resolveAgainstRoot(
  root: string,
  realRoot: string,
  input: string,
  home?: string,
): Promise<ResolvedPath> {
  const expanded = expandPathInput(input, home);
  checkNoNul(input, expanded);
  const abs = path.resolve(root, expanded);
  const real = await realpathOfNearest(abs);
  const external = !isInside(root, abs) || !isInside(realRoot, real);
  const rel = external ? abs : path.relative(root, abs).split(path.sep).join("/") || ".";
  return { input, abs, real, rel, uri: pathToUri(abs), external };
}
