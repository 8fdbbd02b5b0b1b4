/**
 * .gitignore rules, as git applies them: each file's patterns are matched by the `ignore` package
 * (git's wildmatch semantics, tested against `git check-ignore`), and this module only stacks the
 * files. A .gitignore applies to the paths below its own folder; deeper files win over shallower
 * ones, and `.git/info/exclude` (passed first) loses to all of them.
 */
import ignore, { type Ignore } from "ignore";

/** The rules of one .gitignore, relative to the folder it lives in. */
export interface IgnoreFile {
  /** Root-relative folder of the file ("" for the root). */
  base: string;
  rules: Ignore;
}

/** Compiles the text of a .gitignore found in the root-relative folder `base`. */
export function parseIgnoreFile(base: string, text: string): IgnoreFile {
  // Git compares names case-sensitively unless core.ignoreCase is set (it is not on Linux).
  return { base, rules: ignore({ ignorecase: false }).add(text) };
}

/**
 * Whether `rel` (root-relative, `/`-separated) is ignored by `files` (shallowest first). Only the
 * path itself and its folders below each file's base are tested: the walker never enters an
 * ignored folder, as git never re-includes a file below one.
 */
export function isIgnored(files: readonly IgnoreFile[], rel: string, isDir: boolean): boolean {
  for (let i = files.length - 1; i >= 0; i--) {
    const file = files[i]!;
    if (file.base && !rel.startsWith(`${file.base}/`)) continue;
    const local = file.base ? rel.slice(file.base.length + 1) : rel;
    // A trailing slash is how the package is told the path is a folder (for `dir/` patterns).
    const verdict = file.rules.test(isDir ? `${local}/` : local);
    if (verdict.ignored) return true;
    // A negation in a deeper file re-includes what a shallower one ignores.
    if (verdict.unignored) return false;
  }
  return false;
}
