/**
 * Whether the walk (walk.ts) would reach one given file, decided by the walk's own rules without
 * walking: no skipped or symlinked folder on the way, nothing on the way ignored by the
 * .gitignore files it would have read. search-rg.ts asks it for the open documents, whose buffer
 * text is searched only where the walk would have searched the file.
 */
import { lstatSync } from "node:fs";
import path from "node:path";
import { isIgnored, type IgnoreFile } from "./ignore.js";
import { ALWAYS_SKIPPED, inheritedIgnores, loadIgnore } from "./walk.js";

/** Whether a walk of `start` (below the root `base`) visits the file `abs`. */
export function walkVisits(base: string, start: string, abs: string): boolean {
  const parts = path.relative(start, abs).split(path.sep);
  if (!parts[0] || parts[0] === ".." || path.isAbsolute(parts[0])) return false;
  let ignores: IgnoreFile[] = inheritedIgnores(base, start);
  let dirAbs = start;
  let dirRel = path.relative(base, start).split(path.sep).join("/");
  for (let i = 0; i < parts.length; i++) {
    const own = loadIgnore(dirAbs, dirRel);
    if (own) ignores = [...ignores, own];
    const name = parts[i]!;
    const entryAbs = path.join(dirAbs, name);
    const entryRel = dirRel ? `${dirRel}/${name}` : name;
    const isFolder = i < parts.length - 1;
    if (isFolder && (ALWAYS_SKIPPED.has(name) || isLink(entryAbs))) return false;
    if (isIgnored(ignores, entryRel, isFolder)) return false;
    dirAbs = entryAbs;
    dirRel = entryRel;
  }
  return true;
}

/** Whether `abs` is a symbolic link (a missing path counts as one: the walk cannot go through it). */
function isLink(abs: string): boolean {
  try {
    return lstatSync(abs).isSymbolicLink();
  } catch {
    return true;
  }
}
