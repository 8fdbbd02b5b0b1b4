/**
 * The `file_pattern` / `glob` parameters of the file tools, matched by picomatch: `*` within one
 * path segment, `**` across segments, `?`, `[...]` classes, `{a,b}` alternatives (and picomatch's
 * extglobs). Dot files match like any other name: a tool searching `*.json` should see
 * `.eslintrc.json`. picomatch is imported on the first glob, not when a session starts.
 */

/**
 * A matcher for a tool's file glob: a glob without `/` matches a file's name at any depth
 * (`*.ts`), one with `/` matches the path relative to the search folder (`src/**\/*.ts`).
 */
export async function fileGlobMatcher(glob: string): Promise<(relPath: string) => boolean> {
  const { default: picomatch } = await import("picomatch");
  const cleaned = glob.replace(/^\.\//, "");
  // Paths here are always `/`-separated, on Windows too, so `\` stays an escape. `posix` makes
  // `[!ab]` a negated class, as in shells and .gitignore (picomatch reads it as `!`, `a` or `b`).
  const isMatch = picomatch(cleaned, { dot: true, windows: false, posix: true });
  if (!cleaned.includes("/")) return (rel) => isMatch(rel.slice(rel.lastIndexOf("/") + 1));
  return isMatch;
}
