/**
 * Glob patterns as regular expressions: `*` (within one path segment), `**` (any number of
 * segments), `?`, `[...]` classes and, for tool globs, `{a,b}` alternatives. Shared by the
 * .gitignore matcher and the `file_pattern` / `glob` parameters of the file tools.
 */

/** Escapes one character for a RegExp. */
function escapeChar(c: string): string {
  return /[\\^$.*+?()[\]{}|/]/.test(c) ? `\\${c}` : c;
}

/** Translates a `[...]` class starting at `i`; returns the regex and the index after it. */
function translateClass(glob: string, i: number): [string, number] {
  let j = i + 1;
  let negate = false;
  if (glob[j] === "!" || glob[j] === "^") (negate = true), j++;
  let body = "";
  if (glob[j] === "]") (body += "\\]"), j++;
  for (; j < glob.length && glob[j] !== "]"; j++) {
    const c = glob[j]!;
    body += c === "\\" ? `\\${glob[++j] ?? "\\"}` : c === "-" ? "-" : escapeChar(c);
  }
  if (j >= glob.length) return ["\\[", i + 1];
  return [`[${negate ? "^" : ""}${body}]`, j + 1];
}

/** The regex source of a glob (without anchors). */
function globSource(glob: string, braces: boolean): string {
  let out = "";
  let depth = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*") {
      if (glob[i + 1] === "*") {
        const slashBefore = i === 0 || glob[i - 1] === "/";
        const slashAfter = glob[i + 2] === "/";
        if (slashBefore && slashAfter) {
          out += "(?:.*/)?";
          i += 2;
        } else {
          out += ".*";
          i += 1;
        }
      } else out += "[^/]*";
    } else if (c === "?") out += "[^/]";
    else if (c === "[") {
      const [cls, next] = translateClass(glob, i);
      out += cls;
      i = next - 1;
    } else if (c === "\\") out += escapeChar(glob[++i] ?? "\\");
    else if (braces && c === "{") (out += "(?:"), depth++;
    else if (braces && c === "}" && depth > 0) (out += ")"), depth--;
    else if (braces && c === "," && depth > 0) out += "|";
    else out += escapeChar(c);
  }
  return out + ")".repeat(depth);
}

/** A RegExp matching a whole `/`-separated path against `glob`. */
export function globToRegExp(glob: string, options: { braces?: boolean } = {}): RegExp {
  return new RegExp(`^${globSource(glob, options.braces ?? true)}$`);
}

/**
 * A matcher for a tool's file glob: a glob without `/` matches a file's name at any depth
 * (`*.ts`), one with `/` matches the path relative to the search folder (`src/**\/*.ts`).
 */
export function fileGlobMatcher(glob: string): (relPath: string) => boolean {
  const cleaned = glob.replace(/^\.\//, "");
  const re = globToRegExp(cleaned);
  if (!cleaned.includes("/")) return (rel) => re.test(rel.slice(rel.lastIndexOf("/") + 1));
  return (rel) => re.test(rel);
}
