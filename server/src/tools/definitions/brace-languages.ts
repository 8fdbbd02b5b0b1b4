/**
 * Definition rules for the brace languages: TypeScript/JavaScript, Java, Go, Rust, C and C++.
 * One engine walks the scanned lines keeping a stack of what each open brace belongs to (a class-
 * like container, a transparent namespace, or anything else); top-level lines are matched against
 * the language's top rules, lines directly inside a top-level container against its member rules.
 */
import { scanBraces, type ScanSyntax, type ScannedLine } from "./scan.js";
import type { Definition } from "./types.js";

/** What a rule's opening brace starts. */
type ScopeKind = "container" | "namespace" | "other";

/** One definition pattern. */
interface Rule {
  re: RegExp;
  /** The scope its body opens. */
  opens: ScopeKind;
  /** Only a definition when a body follows (`{` before `;`): C function definitions vs prototypes. */
  needsBody?: boolean;
}

/** A brace language. */
export interface BraceLanguage {
  syntax: ScanSyntax;
  top: Rule[];
  member: Rule[];
}

/** Longest definition line quoted. */
const MAX_TEXT = 160;

/** True when a `{` comes before a `;` from line `i` on (within a few lines). */
function opensBody(lines: ScannedLine[], i: number): boolean {
  for (let j = i; j < Math.min(lines.length, i + 12); j++) {
    const clean = lines[j]!.clean;
    const brace = clean.indexOf("{");
    const semi = clean.indexOf(";");
    if (brace !== -1 && (semi === -1 || brace < semi)) return true;
    if (semi !== -1) return false;
  }
  return false;
}

/** The level a line is at: 0 top, 1 directly in a top-level container, -1 deeper. */
function levelOf(stack: ScopeKind[]): -1 | 0 | 1 {
  const enclosing = stack.filter((k) => k !== "namespace");
  if (enclosing.length === 0) return 0;
  return enclosing.length === 1 && enclosing[0] === "container" ? 1 : -1;
}

/** Parses `text` with the rules of `lang`. */
export function parseBraceLanguage(text: string, lang: BraceLanguage): Definition[] {
  const lines = scanBraces(text, lang.syntax);
  const original = text.split("\n");
  const defs: Definition[] = [];
  const stack: ScopeKind[] = [];
  let pending: ScopeKind | undefined;
  lines.forEach((line, i) => {
    const level = levelOf(stack);
    if (level >= 0 && line.clean.trim()) {
      const rule = (level === 0 ? lang.top : lang.member).find((r) => r.re.test(line.clean));
      if (rule && (!rule.needsBody || opensBody(lines, i))) {
        const shown = original[i]!.trim();
        defs.push({ line: i + 1, text: shown.length > MAX_TEXT ? `${shown.slice(0, MAX_TEXT)}...` : shown, depth: level === 1 ? 1 : 0 });
        pending = rule.opens;
      }
    }
    for (const ch of line.clean) {
      if (ch === "{") {
        stack.push(pending ?? "other");
        pending = undefined;
      } else if (ch === "}") stack.pop();
      else if (ch === ";") pending = undefined;
    }
  });
  return defs;
}

const C_LIKE: ScanSyntax = { singleQuoteStrings: false, backquoteStrings: false, preprocessor: false };

const TS_MODIFIERS = "(?:(?:public|private|protected|static|readonly|async|abstract|override|declare|get|set|accessor)\\s+)*";
const NOT_KEYWORD = "(?!(?:if|for|while|switch|catch|return|function|new|super|this|else|do|throw|typeof|await)\\b)";

/** TypeScript and JavaScript. */
export const TYPESCRIPT: BraceLanguage = {
  syntax: { singleQuoteStrings: true, backquoteStrings: true, preprocessor: false },
  top: [
    { re: /^\s*(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?class\b/, opens: "container" },
    { re: /^\s*(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:async\s+)?function\b/, opens: "other" },
    { re: /^\s*(?:export\s+)?(?:declare\s+)?interface\s+\w/, opens: "other" },
    { re: /^\s*(?:export\s+)?(?:declare\s+)?type\s+\w+[^=]*=/, opens: "other" },
    { re: /^\s*(?:export\s+)?(?:declare\s+)?(?:const\s+)?enum\s+\w/, opens: "other" },
    { re: /^\s*(?:export\s+)?(?:declare\s+)?(?:namespace|module)\s+[\w.]+\s*\{?\s*$/, opens: "namespace" },
    {
      re: /^\s*(?:export\s+)?(?:const|let|var)\s+[\w$]+\s*(?::[^=]+)?=\s*(?:async\s+)?(?:function\b|(?:\([^)]*\)|[\w$]+)\s*(?::[^=]+)?=>|\(\s*$)/,
      opens: "other",
    },
  ],
  member: [
    { re: new RegExp(`^\\s*${TS_MODIFIERS}\\*?\\s*${NOT_KEYWORD}(?:#?[\\w$]+|\\[[^\\]]+\\])\\s*\\??\\s*(?:<[^>]*>)?\\s*\\(`), opens: "other" },
    { re: new RegExp(`^\\s*${TS_MODIFIERS}#?[\\w$]+\\s*(?::[^=]+)?=\\s*(?:async\\s+)?(?:\\([^)]*\\)|[\\w$]+)\\s*(?::[^=]*)?=>`), opens: "other" },
  ],
};

/** Java. */
export const JAVA: BraceLanguage = {
  syntax: C_LIKE,
  top: [{ re: /^\s*(?:(?:public|protected|private|abstract|static|final|sealed|non-sealed|strictfp)\s+)*(?:class|interface|enum|record|@interface)\s+\w/, opens: "container" }],
  member: [
    { re: /^\s*(?:(?:public|protected|private|abstract|static|final|sealed)\s+)*(?:class|interface|enum|record)\s+\w/, opens: "other" },
    {
      re: /^\s*(?:(?:public|private|protected|static|final|abstract|synchronized|native|default|strictfp)\s+)*(?:<[^>]+>\s+)?(?:[\w$.<>[\]?,]+\s+)?(?!(?:if|for|while|switch|catch|return|new|else|throw|synchronized)\b)[\w$]+\s*\(/,
      opens: "other",
    },
  ],
};

/** Go: every definition is top level (methods have receivers). */
export const GO: BraceLanguage = {
  syntax: { singleQuoteStrings: false, backquoteStrings: true, preprocessor: false },
  top: [
    { re: /^func\b/, opens: "other" },
    { re: /^type\s+\w+/, opens: "other" },
  ],
  member: [],
};

/** Rust. */
export const RUST: BraceLanguage = {
  syntax: C_LIKE,
  top: [
    { re: /^\s*(?:pub(?:\([^)]*\))?\s+)?(?:unsafe\s+)?(?:impl|trait)\b/, opens: "container" },
    { re: /^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+\w+\s*\{/, opens: "namespace" },
    {
      re: /^\s*(?:pub(?:\([^)]*\))?\s+)?(?:default\s+)?(?:const\s+)?(?:async\s+)?(?:unsafe\s+)?(?:extern\s+"[^"]*"\s+)?fn\s+\w/,
      opens: "other",
    },
    { re: /^\s*(?:pub(?:\([^)]*\))?\s+)?(?:struct|enum|union|type)\s+\w/, opens: "other" },
    { re: /^\s*macro_rules!\s*\w/, opens: "other" },
  ],
  member: [
    {
      re: /^\s*(?:pub(?:\([^)]*\))?\s+)?(?:default\s+)?(?:const\s+)?(?:async\s+)?(?:unsafe\s+)?(?:extern\s+"[^"]*"\s+)?fn\s+\w/,
      opens: "other",
    },
  ],
};

const C_NOT_KEYWORD = "(?!\\s*(?:if|for|while|switch|return|else|do|case|typedef|using|static_assert|sizeof|goto)\\b)";

/** C and C++. */
export const C_CPP: BraceLanguage = {
  syntax: { singleQuoteStrings: false, backquoteStrings: false, preprocessor: true },
  top: [
    { re: /^\s*(?:inline\s+)?namespace\b[^;]*$/, opens: "namespace" },
    { re: /^\s*extern\s+"\s*"\s*\{?\s*$/, opens: "namespace" },
    {
      re: /^\s*(?:template\s*<.*>\s*)?(?:typedef\s+)?(?:class|struct|union)\s+(?:\w+\s+)*?\w+\s*(?:final\s*)?(?::[^{;]*)?(?:\{.*)?$/,
      opens: "container",
      needsBody: true,
    },
    { re: /^\s*(?:typedef\s+)?enum\b/, opens: "other", needsBody: true },
    {
      re: new RegExp(`^${C_NOT_KEYWORD}[A-Za-z_~][\\w\\s*&:<>,~]*?\\b(?:operator\\S*|~?[A-Za-z_]\\w*(?:::~?[A-Za-z_]\\w*)*)\\s*\\(`),
      opens: "other",
      needsBody: true,
    },
  ],
  member: [
    {
      re: new RegExp(
        `^${C_NOT_KEYWORD}\\s*(?:(?:virtual|static|inline|explicit|constexpr|friend)\\s+)*(?:[\\w:<>,*&~]+\\s+)*?[*&]*(?:~?[A-Za-z_]\\w*|operator\\S*)\\s*\\(`,
      ),
      opens: "other",
    },
  ],
};
