/**
 * Definition parsers for languages without braces: Python (indentation) and Ruby (`end`).
 */
import type { Definition } from "./types.js";

/** Longest definition line quoted. */
const MAX_TEXT = 160;

function shown(line: string): string {
  const t = line.trim();
  return t.length > MAX_TEXT ? `${t.slice(0, MAX_TEXT)}...` : t;
}

/** Python: top-level `def`/`class`, and the `def`s directly in a top-level class body. */
export function parsePython(text: string): Definition[] {
  const defs: Definition[] = [];
  let inClass = false;
  let memberIndent: number | undefined;
  let inDocstring: string | undefined;
  text.split("\n").forEach((raw, i) => {
    const line = raw.replace(/\r$/, "");
    if (inDocstring) {
      if (line.includes(inDocstring)) inDocstring = undefined;
      return;
    }
    const opened = /^\s*[rbuRBU]?("""|''')/.exec(line);
    if (opened && line.split(opened[1]!).length === 2) {
      inDocstring = opened[1];
      return;
    }
    if (!line.trim() || line.trim().startsWith("#")) return;
    const indent = line.length - line.trimStart().length;
    if (indent === 0) {
      inClass = /^class\s+\w/.test(line);
      memberIndent = undefined;
      if (inClass || /^(?:async\s+)?def\s+\w/.test(line)) defs.push({ line: i + 1, text: shown(line), depth: 0 });
      return;
    }
    if (!inClass) return;
    memberIndent ??= indent;
    if (indent === memberIndent && /^\s*(?:(?:async\s+)?def|class)\s+\w/.test(line)) defs.push({ line: i + 1, text: shown(line), depth: 1 });
  });
  return defs;
}

/** Ruby keywords that open a block closed by `end` when they start a line. */
const RUBY_OPENERS = /^\s*(?:class|module|def|if|unless|while|until|case|begin|for)\b/;

/** Ruby: classes and modules (at any nesting of modules), and the methods directly in them. */
export function parseRuby(text: string): Definition[] {
  const defs: Definition[] = [];
  // What each open block is; a `def` inside a `def` or a block is not listed.
  const stack: ("container" | "def" | "other")[] = [];
  text.split("\n").forEach((raw, i) => {
    const line = raw.replace(/\r$/, "").replace(/(^|\s)#.*$/, "");
    if (!line.trim()) return;
    const inDefOrBlock = stack.some((k) => k !== "container");
    const container = /^\s*(?:class|module)\s+[A-Z<]/.test(line);
    const def = /^\s*def\s+/.test(line);
    const oneLine = /\bend\s*$/.test(line) && (container || def || RUBY_OPENERS.test(line)) && !/^\s*end\b/.test(line);
    if (!inDefOrBlock && container) defs.push({ line: i + 1, text: shown(line), depth: stack.length ? 1 : 0 });
    if (!inDefOrBlock && def) defs.push({ line: i + 1, text: shown(line), depth: stack.length ? 1 : 0 });
    if (oneLine || /^\s*def\s+[\w.?!]+(?:\([^)]*\))?\s*=/.test(line)) return;
    if (container) stack.push("container");
    else if (def) stack.push("def");
    else if (RUBY_OPENERS.test(line) || /\bdo\b(?:\s*\|[^|]*\|)?\s*$/.test(line)) stack.push("other");
    if (/^\s*end\b/.test(line)) stack.pop();
  });
  return defs;
}
