/**
 * The words of a parsed command line as the shell hands them to a program: quotes removed,
 * backslash escapes and `$'...'` strings decoded. What the shell expands when the line runs
 * (`$VAR`, `${...}`, `$(...)`, `$((...))`) stays as written: only the judge decides what it may
 * be (`$HOME` is known; most others are not).
 */
import type { Node } from "web-tree-sitter";

/** The value of one word node (a word, a quoted string, a concatenation ...). */
export function wordValue(node: Node): string {
  switch (node.type) {
    case "word":
      return unescapeUnquoted(node.text);
    case "raw_string":
      return node.text.slice(1, -1);
    case "string":
      return unescapeDoubleQuoted(node.text.slice(1, -1));
    case "ansi_c_string":
      return decodeAnsiC(node.text.slice(2, -1));
    case "translated_string":
      return node.firstNamedChild ? wordValue(node.firstNamedChild) : "";
    case "concatenation":
      return joinAdjacent(node.children);
    default:
      // Expansions, substitutions, numbers, patterns: as written.
      return node.text;
  }
}

/**
 * One word from nodes that touch each other (`$"x"` comes as `$` and a string; `a"b"c` as a
 * concatenation): the shell reads them as a single word.
 */
export function joinAdjacent(nodes: readonly Node[]): string {
  let out = "";
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i]!;
    // `$"..."` is a translated string: its text is the string's.
    if (n.type === "$" && nodes[i + 1]?.type === "string") continue;
    out += n.isNamed ? wordValue(n) : n.text;
  }
  return out;
}

/** An unquoted word: `\x` is `x`, a backslash-newline is nothing. */
function unescapeUnquoted(text: string): string {
  if (!text.includes("\\")) return text;
  return text.replace(/\\(\n|[\s\S])/g, (_m, c: string) => (c === "\n" ? "" : c));
}

/** Inside double quotes only `\"`, `\\`, `\$`, `` \` `` and backslash-newline are escapes. */
function unescapeDoubleQuoted(text: string): string {
  if (!text.includes("\\")) return text;
  return text.replace(/\\([\\"$`\n])/g, (_m, c: string) => (c === "\n" ? "" : c));
}

const ANSI_C: Record<string, string> = { a: "\x07", b: "\b", e: "\x1b", E: "\x1b", f: "\f", n: "\n", r: "\r", t: "\t", v: "\v", "\\": "\\", "'": "'", '"': '"', "?": "?" };

/** `$'...'`: C escapes, `\xHH`, `\uHHHH`, octal `\NNN`, `\cX`. */
function decodeAnsiC(text: string): string {
  return text.replace(/\\(x[0-9A-Fa-f]{1,2}|u[0-9A-Fa-f]{1,4}|U[0-9A-Fa-f]{1,8}|[0-7]{1,3}|c.|[\s\S])/g, (m, e: string) => {
    if (e in ANSI_C) return ANSI_C[e]!;
    if (/^[xuU]/.test(e)) return String.fromCodePoint(Math.min(parseInt(e.slice(1), 16), 0x10ffff));
    if (/^[0-7]/.test(e)) return String.fromCharCode(parseInt(e, 8) & 0xff);
    if (e.startsWith("c")) return String.fromCharCode(e.charCodeAt(1) & 0x1f);
    return m;
  });
}

/**
 * The word with every quoted character escaped by a backslash and unquoted ones as written: the
 * form brace expansion works on (only unquoted braces expand), read back by `unprotect`.
 */
export function protectedText(node: Node): string {
  switch (node.type) {
    case "word":
    case "brace_expression":
      return node.text;
    case "raw_string":
    case "string":
    case "ansi_c_string":
    case "translated_string":
      return escapeAll(wordValue(node));
    case "concatenation":
      return node.children.map((c, i, all) => (c.type === "$" && all[i + 1]?.type === "string" ? "" : c.isNamed ? protectedText(c) : escapeAll(c.text))).join("");
    default:
      return escapeAll(node.text);
  }
}

/** Every character escaped. */
function escapeAll(text: string): string {
  return text.replace(/[\s\S]/g, "\\$&");
}

/** The word's value from its protected form. */
export const unprotect = unescapeUnquoted;

/** How many words one brace expansion may make before the line counts as unreadable. */
export const MAX_BRACE_WORDS = 256;

/**
 * Brace expansion of a protected word (`a{b,c}d` -> `abd acd`, `x{1..3}`, `{a..e}`), as bash does
 * before any other expansion; undefined when it would make more than MAX_BRACE_WORDS words.
 */
export function expandBraces(text: string): string[] | undefined {
  const out: string[] = [];
  const pending = [text];
  while (pending.length) {
    const word = pending.pop()!;
    const brace = firstBrace(word);
    if (!brace) {
      out.push(word);
    } else {
      const prefix = word.slice(0, brace.start);
      const suffix = word.slice(brace.end + 1);
      for (const alt of brace.alternatives.reverse()) pending.push(prefix + alt + suffix);
    }
    if (out.length + pending.length > MAX_BRACE_WORDS) return undefined;
  }
  return out;
}

/** The first unescaped `{...}` that expands (a comma at its top level, or a sequence). */
function firstBrace(word: string): { start: number; end: number; alternatives: string[] } | undefined {
  for (let start = 0; start < word.length; start++) {
    if (word[start] === "\\") {
      start++;
      continue;
    }
    // `${` is a parameter, not a brace.
    if (word[start] !== "{" || (start > 0 && word[start - 1] === "$")) continue;
    const found = braceBody(word, start);
    if (found) return found;
  }
  return undefined;
}

function braceBody(word: string, start: number): { start: number; end: number; alternatives: string[] } | undefined {
  let depth = 0;
  const commas: number[] = [];
  for (let i = start + 1; i < word.length; i++) {
    const c = word[i];
    if (c === "\\") i++;
    else if (c === "{") depth++;
    else if (c === "}" && depth > 0) depth--;
    else if (c === "," && depth === 0) commas.push(i);
    else if (c === "}") {
      const body = word.slice(start + 1, i);
      if (commas.length) {
        const cuts = [start, ...commas, i];
        return { start, end: i, alternatives: cuts.slice(0, -1).map((from, k) => word.slice(from + 1, cuts[k + 1])) };
      }
      const seq = sequence(body);
      return seq ? { start, end: i, alternatives: seq } : undefined;
    }
  }
  return undefined;
}

/** `1..5`, `05..10..2`, `a..e`: the words of a sequence expression (capped), else undefined. */
function sequence(body: string): string[] | undefined {
  const m = /^(-?\d+|[A-Za-z])\.\.(-?\d+|[A-Za-z])(?:\.\.(-?\d+))?$/.exec(body);
  if (!m) return undefined;
  const [a, b] = [m[1]!, m[2]!];
  const numeric = /\d/.test(a);
  if (numeric !== /\d/.test(b)) return undefined;
  const from = numeric ? Number(a) : a.charCodeAt(0);
  const to = numeric ? Number(b) : b.charCodeAt(0);
  const step = Math.abs(Number(m[3] ?? 1)) || 1;
  const count = Math.floor(Math.abs(to - from) / step) + 1;
  if (count > MAX_BRACE_WORDS) return Array.from({ length: MAX_BRACE_WORDS + 1 }, () => "");
  const width = numeric && /^-?0\d/.test(a) ? a.replace("-", "").length : 0;
  return Array.from({ length: count }, (_v, k) => {
    const n = from + (to >= from ? 1 : -1) * k * step;
    return numeric ? String(n).padStart(width, "0") : String.fromCharCode(n);
  });
}
