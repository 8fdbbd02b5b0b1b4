/**
 * Brace-language scanning: blanks out comments and string literals (keeping line structure), and
 * tracks the brace depth at the start of each line. What is left is safe to match definition
 * regexes against and to count braces in.
 */

/** Which literal syntaxes a language has. */
export interface ScanSyntax {
  /** `'x'` is a string (JS) rather than a char literal or lifetime (Rust, C, Java, Go). */
  singleQuoteStrings: boolean;
  /** Backquoted strings: JS templates, Go raw strings. */
  backquoteStrings: boolean;
  /** `#` starts a preprocessor line (C/C++): skipped. */
  preprocessor: boolean;
}

/** A line with comments and strings blanked, and the brace depth where it starts. */
export interface ScannedLine {
  clean: string;
  depth: number;
}

/** Length of a char literal at `i` (`'a'`, `'\n'`, `'\u{1F600}'`), or 0 when `'` is not one. */
function charLiteralLength(text: string, i: number): number {
  const m = /^'(?:\\(?:u\{[0-9a-fA-F]+\}|x[0-9a-fA-F]{2}|.)|[^\\'\n])'/.exec(text.slice(i, i + 14));
  return m ? m[0].length : 0;
}

/** Blanks comments and literals of `text`, line by line, and records brace depths. */
export function scanBraces(text: string, syntax: ScanSyntax): ScannedLine[] {
  const lines: ScannedLine[] = [];
  let depth = 0;
  let lineDepth = 0;
  let clean = "";
  let mode: "code" | "block" | "string" | "template" = "code";
  let quote = "";
  const endLine = () => {
    lines.push({ clean, depth: lineDepth });
    clean = "";
    lineDepth = depth;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "\n") {
      if (mode === "string") mode = "code";
      endLine();
      continue;
    }
    if (mode === "block") {
      if (c === "*" && text[i + 1] === "/") {
        mode = "code";
        i++;
      }
      clean += " ";
      continue;
    }
    if (mode === "string" || mode === "template") {
      if (c === "\\") {
        i++;
        clean += "  ";
      } else if (c === quote) {
        mode = "code";
        clean += c;
      } else clean += " ";
      continue;
    }
    const skipToLineEnd = (c === "/" && text[i + 1] === "/") || (syntax.preprocessor && c === "#" && clean.trim() === "");
    if (skipToLineEnd) {
      const nl = text.indexOf("\n", i);
      i = (nl === -1 ? text.length : nl) - 1;
    } else if (c === "/" && text[i + 1] === "*") {
      mode = "block";
      i++;
      clean += "  ";
    } else if (c === '"' || (c === "'" && syntax.singleQuoteStrings) || (c === "`" && syntax.backquoteStrings)) {
      mode = c === "`" ? "template" : "string";
      quote = c;
      clean += c;
    } else if (c === "'") {
      const len = charLiteralLength(text, i);
      clean += len ? "'".padEnd(len, " ") : c;
      i += Math.max(len - 1, 0);
    } else {
      if (c === "{") depth++;
      else if (c === "}") depth = Math.max(depth - 1, 0);
      clean += c;
    }
  }
  if (clean || lines.length === 0) endLine();
  return lines;
}
