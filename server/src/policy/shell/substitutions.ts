/**
 * The commands hidden inside a word, an assignment's value or a redirection: `$(...)`, backticks,
 * `<(...)`, at any depth (inside `${X:-...}`, double quotes, here-documents, arithmetic). Each runs
 * apart, its output read by the line. Text the grammar left as text but the shell would run (a
 * backtick inside `${X:=...}`, in an unquoted here-document) is kept as hidden command text.
 */
import type { Node } from "web-tree-sitter";
import type { Flow } from "../command-line.js";
import { HIDDEN_COMMAND, MAX_DEPTH, STATEMENTS, UNREADABLE, type Reader } from "./reader.js";
import { wordValue } from "./words.js";

/** The flows of the commands hidden in `node`. */
export function substitutions(r: Reader, node: Node, depth: number): Flow[] {
  if (depth > MAX_DEPTH) {
    r.note(UNREADABLE);
    return [];
  }
  switch (node.type) {
    case "command_substitution":
    case "process_substitution":
      r.note(HIDDEN_COMMAND);
      return [{ kind: "apart", flow: substitutionBody(r, node, depth + 1) }];
    case "arithmetic_expansion":
    case "subscript":
      r.sawArithmetic();
      break;
    case "raw_string":
    case "ansi_c_string":
      if (hasCodeText(wordValue(node))) r.sawLiteralCode();
      return [];
    case "heredoc_body":
      if (!node.namedChildCount && hasCodeText(node.text)) {
        // A quoted delimiter (`<<'EOF'`) keeps the body as text; otherwise the shell runs what
        // the grammar left as text (backticks).
        const start = node.parent?.children.find((c) => c.type === "heredoc_start")?.text ?? "";
        if (/['"\\]/.test(start)) r.sawLiteralCode();
        else hiddenText(r, node.text);
      }
      break;
    case "word":
    case "string_content":
    case "heredoc_content":
    case "regex":
    case "extglob_pattern":
      hiddenText(r, node.text);
      return [];
  }
  return node.namedChildren.flatMap((c) => substitutions(r, c, depth + 1));
}

/** Text the shell would run if it came to expand it: hidden command text. */
function hiddenText(r: Reader, text: string): void {
  const bodies = codeIn(text);
  if (!bodies.length) return;
  r.note(HIDDEN_COMMAND);
  r.hidden.push(...bodies);
}

/** The statements of `$(...)`; `$(< file)` reads the file, like `cat file`. */
function substitutionBody(r: Reader, node: Node, depth: number): Flow {
  const redirects = node.childrenForFieldName("redirect");
  if (redirects.length && !node.namedChildren.some((c) => STATEMENTS.has(c.type))) {
    const holder = r.newCommand(true);
    const before: Flow[] = [];
    r.redirections(redirects, holder, depth, before);
    return { kind: "all", flows: [...before, { kind: "run", command: holder }] };
  }
  return r.sequence(node.children, depth, true);
}

/** Text with `$(` or a backtick: what the shell would run if it came to expand it. */
function hasCodeText(text: string): boolean {
  return text.includes("`") || text.includes("$(");
}

/**
 * The command texts in `text` the shell would run: each unescaped `` `...` `` and `$(...)`
 * (to its matching parenthesis, or the end). Escaped backticks (`` \` ``) are text.
 */
export function codeIn(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "\\") {
      i++;
    } else if (c === "`") {
      let j = i + 1;
      while (j < text.length && text[j] !== "`") j += text[j] === "\\" ? 2 : 1;
      out.push(text.slice(i + 1, j).replace(/\\([`\\$])/g, "$1"));
      i = j;
    } else if (c === "$" && text[i + 1] === "(") {
      let open = 0;
      let j = i + 1;
      for (; j < text.length; j++) {
        if (text[j] === "\\") j++;
        else if (text[j] === "(") open++;
        else if (text[j] === ")" && --open === 0) break;
      }
      out.push(text.slice(i + 2, j));
      i = j;
    }
  }
  return out;
}
