/**
 * search_files beside ripgrep: rg lists the files that contain the pattern's required literal
 * text (a fixed string, whose meaning is the same in both engines), and the regex itself then runs
 * here on those files only, in the in-process walk's order, through the same collector. So rg
 * only narrows the files to read: a file it wrongly listed is dropped by the real regex, and it
 * cannot miss one (it reads every file as text, ignore files as the walk reads them). Anything rg
 * cannot take the same way returns undefined and the in-process walk runs instead.
 */
import { existsSync, lstatSync, realpathSync } from "node:fs";
import path from "node:path";
import { breather } from "../util/breathe.js";
import { requiredLiteral } from "./literal.js";
import { isInside } from "./paths.js";
import { findRipgrep, listWithRipgrep, SKIPPED_FOLDERS, type ListedFile } from "./ripgrep.js";
import { walkVisits } from "./walk-visits.js";
import { collector, considerUnsavedDocuments, FileReader, textForSearch, type SearchOptions, type SearchOutcome } from "./search-collect.js";

/** The fixed string every match contains, when rg can look for it exactly as the regex would. */
function literalFor(regex: RegExp): { literal: string; ignoreCase: boolean } | undefined {
  const ignoreCase = regex.flags.includes("i");
  const literal = requiredLiteral(ignoreCase ? new RegExp(regex.source, regex.flags.replace("i", "")) : regex);
  // Line breaks never match within a line; U+FFFD also stands for bytes that are not UTF-8.
  if (literal === undefined || /[\r\n\uFFFD]/.test(literal)) return undefined;
  // Case folding beyond ASCII differs between the engines (JS without the u flag folds less).
  if (ignoreCase && !/^[\x20-\x7e]*$/.test(literal)) return undefined;
  return { literal, ignoreCase };
}

/**
 * Whether rg would read the same .gitignore files above the folder as the walk: rg reads every
 * folder's up to the repository's root, the walk those from the project root down. The same when
 * the root is the repository's, or nothing above the root has one.
 */
function sameParentIgnores(base: string): boolean {
  if (existsSync(path.join(base, ".git"))) return true;
  for (let dir = path.dirname(base); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, ".gitignore")) || existsSync(path.join(dir, ".git"))) return false;
    if (path.dirname(dir) === dir) return true;
  }
}

/** Whether a root-relative path is a symbolic link (cached: many files share a folder). */
function linkTester(base: string): (rel: string) => boolean {
  const cache = new Map<string, boolean>();
  return (rel) => {
    let known = cache.get(rel);
    if (known === undefined) {
      try {
        known = lstatSync(path.join(base, rel)).isSymbolicLink();
      } catch {
        known = true;
      }
      cache.set(rel, known);
    }
    return known;
  };
}

/** Order of the walk (breadth first, names sorted): by depth, then folder by folder. */
function walkOrder(a: string[], b: string[]): number {
  if (a.length !== b.length) return a.length - b.length;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  return 0;
}

/** A listed file the walk would search too. */
interface Listed extends ListedFile {
  abs: string;
}

/**
 * The files the walk would search: rg follows linked folders to find linked files, the walk
 * enters no linked folder and reads no link out of the project.
 */
function walkable(opts: SearchOptions, startRel: string, listed: ListedFile[]): { files: Listed[]; linkedOut: (f: Listed) => boolean } {
  const isLink = linkTester(opts.base);
  const realBase = realpathSync(opts.base);
  const prefix = opts.base.endsWith(path.sep) ? opts.base : opts.base + path.sep;
  // Whether a folder lies in a linked folder below the start (the start itself is walked).
  const linkedFolder = new Map<string, boolean>([[startRel, false]]);
  const inLinkedFolder = (dir: string): boolean => {
    let known = linkedFolder.get(dir);
    if (known === undefined) {
      const slash = dir.lastIndexOf("/");
      known = inLinkedFolder(slash === -1 ? "" : dir.slice(0, slash)) || isLink(dir);
      linkedFolder.set(dir, known);
    }
    return known;
  };
  const files: Listed[] = [];
  for (const f of listed) {
    const slash = f.rel.lastIndexOf("/");
    if (inLinkedFolder(slash === -1 ? "" : f.rel.slice(0, slash)) || (opts.filter && !opts.filter(f.rel))) continue;
    files.push({ rel: f.rel, abs: prefix + f.rel });
  }
  const linkedOut = (f: Listed): boolean => {
    if (!isLink(f.rel)) return false;
    try {
      return !isInside(realBase, realpathSync(f.abs));
    } catch {
      return true;
    }
  };
  return { files, linkedOut };
}

/** The open documents on disk that the walk would search, as listed files. */
function openOnDisk(opts: SearchOptions, prefix: string): Listed[] {
  const out: Listed[] = [];
  for (const abs of opts.overlay.keys()) {
    if (!abs.startsWith(prefix) || !existsSync(abs) || !walkVisits(opts.base, opts.start, abs)) continue;
    const rel = abs.slice(prefix.length).split(path.sep).join("/");
    if (!opts.filter || opts.filter(rel)) out.push({ rel, abs });
  }
  return out;
}

/** How many files the walk would have searched (rg lists them), or undefined when rg failed. */
async function countFiles(opts: SearchOptions, rg: string, startRel: string): Promise<number | undefined> {
  const all = await listWithRipgrep({ rg, base: opts.base, startRel, noParentIgnores: !startRel, signal: opts.signal });
  if (!all) return undefined;
  const { files, linkedOut } = walkable(opts, startRel, all);
  return files.filter((f) => !linkedOut(f)).length;
}

/** The search through rg, or undefined when rg is absent, failed, or cannot take this search the same way. */
export async function searchWithRipgrep(opts: SearchOptions): Promise<SearchOutcome | undefined> {
  const rg = findRipgrep();
  const wanted = literalFor(opts.regex);
  const startRel = path.relative(opts.base, opts.start).split(path.sep).join("/");
  if (!rg || !wanted || startRel.startsWith("..") || path.isAbsolute(startRel)) return undefined;
  if (startRel && (startRel.split("/").some((p) => SKIPPED_FOLDERS.includes(p)) || !sameParentIgnores(opts.base))) return undefined;
  const listed = await listWithRipgrep({ rg, base: opts.base, startRel, ...wanted, noParentIgnores: !startRel, signal: opts.signal });
  if (!listed || opts.signal?.aborted) return undefined;
  const { files, linkedOut } = walkable(opts, startRel, listed);
  // An open document is searched in its buffer text, wherever the walk would reach it.
  const open = openOnDisk(opts, opts.start.endsWith(path.sep) ? opts.start : opts.start + path.sep);
  const candidates = [...files.filter((f) => !opts.overlay.has(f.abs)), ...open]
    .filter((f) => !linkedOut(f))
    .map((f) => ({ ...f, parts: f.rel.split("/") }))
    .sort((a, b) => walkOrder(a.parts, b.parts));
  const c = collector(opts);
  const literalText = requiredLiteral(opts.regex);
  const literal = literalText === undefined ? undefined : Buffer.from(literalText, "utf8");
  const reader = new FileReader();
  const breathe = breather(8);
  for (const f of candidates) {
    if (!c.consider(f.rel, opts.overlay.get(f.abs) ?? textForSearch(reader, f.abs, literal))) break;
    await breathe();
    if (opts.signal?.aborted) return c.out;
  }
  const beforeUnsaved = c.out.filesSearched;
  considerUnsavedDocuments(opts, new Set(), c);
  if (c.out.matches) return c.out;
  // Without a match the count is shown: every file the walk would have looked at, links out excluded.
  const searched = await countFiles(opts, rg, startRel);
  if (searched === undefined) return undefined;
  c.out.filesSearched = searched + c.out.filesSearched - beforeUnsaved;
  return c.out;
}
