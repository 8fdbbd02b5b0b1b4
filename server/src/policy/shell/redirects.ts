/**
 * Redirections of the bash syntax tree: `> file` (with its descriptor), here-strings and
 * here-documents (whose text becomes the command's standard input, and whose line may go on
 * with `| cmd` or `&& cmd` inside the redirection node, as the grammar builds it).
 */
import type { Node } from "web-tree-sitter";
import type { Flow, Redirect, SimpleCommand } from "../command-line.js";
import { UNREADABLE, type Reader } from "./reader.js";
import { joinAdjacent, unprotect } from "./words.js";

/**
 * The redirections of a command into `cmd.redirects`; their substitutions into `before`. Returns
 * what a here-document's line goes on with (`cat <<EOF | grep x`, `cat <<EOF && ls`).
 */
export function redirections(r: Reader, nodes: readonly Node[], cmd: SimpleCommand, depth: number, before: Flow[]): Node[] {
  const after: Node[] = [];
  for (const node of nodes) {
    // A here-document's own line may go on with other commands (read by the caller): only its
    // body and redirections belong to this command.
    const parts = node.type === "heredoc_redirect" ? node.namedChildren.filter((c) => c.type === "heredoc_body" || c.type === "file_redirect") : [node];
    for (const part of parts) before.push(...r.substitutions(part, depth));
    if (node.type === "file_redirect") cmd.redirects.push(fileRedirect(node));
    else if (node.type === "herestring_redirect") {
      const target = joinAdjacent(node.namedChildren.filter((c) => c.type !== "file_descriptor"));
      cmd.redirects.push({ op: `${descriptor(node)}<<<`, target });
      cmd.stdin = target;
    } else if (node.type === "heredoc_redirect") {
      cmd.redirects.push(...heredoc(node, cmd, after));
    } else r.note(UNREADABLE);
  }
  return after;
}

function heredoc(node: Node, cmd: SimpleCommand, after: Node[]): Redirect[] {
  const start = node.children.find((c) => c.type === "heredoc_start");
  const op = node.children.find((c) => c.type === "<<" || c.type === "<<-")?.type ?? "<<";
  cmd.stdin = node.children.find((c) => c.type === "heredoc_body")?.text ?? "";
  const out: Redirect[] = [{ op: `${descriptor(node)}${op}`, target: unprotect((start?.text ?? "").replace(/['"]/g, "")) }];
  for (let i = 0; i < node.childCount; i++) {
    const child = node.child(i)!;
    const field = node.fieldNameForChild(i);
    if (child.type === "file_redirect") out.push(fileRedirect(child));
    else if (child.type === "pipeline" || field === "right" || field === "operator") after.push(child);
  }
  return out;
}

/** A redirection's descriptor (`2` in `2>`), or nothing. */
function descriptor(node: Node): string {
  return node.childForFieldName("descriptor")?.text ?? "";
}

/** `> file`, `2>> log`, `2>&1`, `>&-`, `&> all`. */
function fileRedirect(node: Node): Redirect {
  const operator = node.children.find((c) => !c.isNamed && c.type !== "ERROR")?.type ?? ">";
  const destination = node.childrenForFieldName("destination");
  if (operator.endsWith("-") && operator.length > 1) return { op: `${descriptor(node)}${operator.slice(0, -1)}`, target: "-" };
  return { op: `${descriptor(node)}${operator}`, target: joinAdjacent(destination) };
}
