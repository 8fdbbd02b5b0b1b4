/**
 * A small .gitignore matcher (no dependency): the rules of git's own documentation for one
 * .gitignore file per folder, negation, folder-only patterns, anchoring, and `**`. Rules of deeper
 * files win over shallower ones, and within a file the last matching rule wins.
 */
import { globToRegExp } from "./glob.js";

/** One compiled line of a .gitignore. */
interface Rule {
  re: RegExp;
  negate: boolean;
  dirOnly: boolean;
}

/** The rules of one .gitignore, relative to the folder it lives in. */
export interface IgnoreFile {
  /** Root-relative folder of the file ("" for the root). */
  base: string;
  rules: Rule[];
}

/** Parses one line; undefined for blanks and comments. */
function parseLine(raw: string): Rule | undefined {
  let line = raw.replace(/\r$/, "");
  // Trailing spaces are ignored unless escaped with a backslash.
  line = line.replace(/(?<!\\)\s+$/, "").replace(/\\(\s)$/, "$1");
  if (!line || line.startsWith("#")) return undefined;
  let negate = false;
  if (line.startsWith("!")) (negate = true), (line = line.slice(1));
  else if (line.startsWith("\\!") || line.startsWith("\\#")) line = line.slice(1);
  const dirOnly = line.endsWith("/");
  if (dirOnly) line = line.slice(0, -1);
  if (!line) return undefined;
  // A slash at the start or in the middle anchors the pattern to the file's folder.
  const anchored = line.includes("/");
  if (line.startsWith("/")) line = line.slice(1);
  const glob = anchored ? line : `**/${line}`;
  // `dir/**` and a matched folder's contents: anything below a match is matched too.
  const re = globToRegExp(glob, { braces: false });
  return { re, negate, dirOnly };
}

/** Compiles the text of a .gitignore found in the root-relative folder `base`. */
export function parseIgnoreFile(base: string, text: string): IgnoreFile {
  const rules: Rule[] = [];
  for (const line of text.split("\n")) {
    const rule = parseLine(line);
    if (rule) rules.push(rule);
  }
  return { base, rules };
}

/**
 * Whether `rel` (root-relative, `/`-separated) is ignored by `files` (shallowest first). Only the
 * path itself is tested: the walker never enters an ignored folder, as git never re-includes a
 * file below one.
 */
export function isIgnored(files: readonly IgnoreFile[], rel: string, isDir: boolean): boolean {
  let ignored = false;
  for (const file of files) {
    if (file.base && !rel.startsWith(`${file.base}/`)) continue;
    const local = file.base ? rel.slice(file.base.length + 1) : rel;
    for (const rule of file.rules) {
      if (rule.dirOnly && !isDir) continue;
      if (rule.re.test(local)) ignored = !rule.negate;
    }
  }
  return ignored;
}
