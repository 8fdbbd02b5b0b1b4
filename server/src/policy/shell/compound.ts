/**
 * Compound commands of the bash syntax tree (if, loops, case, functions, `(( ))`): the flow each
 * gives its commands. Read by the TreeReader (syntax.ts), which they call back for statements,
 * words and substitutions.
 */
import type { Node } from "web-tree-sitter";
import type { Flow } from "../command-line.js";
import { EMPTY, STATEMENTS, type Reader } from "./reader.js";

/** `if`: its conditions run, then one branch (or none without `else`). */
export function ifStatement(r: Reader, node: Node, depth: number, captured: boolean): Flow {
  const conditions: Node[] = [];
  const body: Node[] = [];
  const clauses: Node[] = [];
  for (let i = 0; i < node.childCount; i++) {
    const child = node.child(i)!;
    if (node.fieldNameForChild(i) === "condition") conditions.push(child);
    else if (child.type === "elif_clause" || child.type === "else_clause") clauses.push(child);
    else body.push(child);
  }
  // Read in the order written, so the commands come out in that order.
  const condition = r.sequence(conditions, depth, captured);
  const then = r.sequence(body, depth, captured);
  const branches = clauses.map((c) => r.sequence(c.children, depth, captured));
  const hasElse = clauses.some((c) => c.type === "else_clause");
  return { kind: "all", flows: [condition, { kind: "either", flows: [then, ...branches, ...(hasElse ? [] : [EMPTY])] }] };
}

/** `for NAME in WORDS`: the variable takes each word (an assignment each), then the body loops. */
export function forStatement(r: Reader, node: Node, depth: number, captured: boolean): Flow {
  const header = r.newCommand(captured);
  const before: Flow[] = [];
  const name = node.childForFieldName("variable")?.text ?? "";
  const values = node.childrenForFieldName("value");
  for (const value of values.length ? r.words(values, depth, before) : ['"$@"']) header.assignments.push({ name, value });
  header.words.push(...header.assignments.map((a) => `${a.name}=${a.value}`));
  const body = node.childForFieldName("body");
  return { kind: "all", flows: [...before, { kind: "run", command: header }, { kind: "loop", flow: body ? r.statement(body, depth, captured) : EMPTY }] };
}

/** `for ((i = 0; i < n; i++))`: arithmetic, then the body loops. */
export function cStyleFor(r: Reader, node: Node, depth: number, captured: boolean): Flow {
  r.sawArithmetic();
  const body = node.childForFieldName("body");
  const parts = node.namedChildren.filter((c) => c !== body).flatMap((c) => r.substitutions(c, depth));
  return { kind: "all", flows: [...parts, { kind: "loop", flow: body ? r.statement(body, depth, captured) : EMPTY }] };
}

/** `(( expression ))`: only what its substitutions run. */
export function arithmeticCommand(r: Reader, node: Node, depth: number): Flow {
  r.sawArithmetic();
  return { kind: "all", flows: node.namedChildren.flatMap((c) => r.substitutions(c, depth)) };
}

/** `case WORD in PATTERN) ...;; esac`: one item's commands (or none). */
export function caseStatement(r: Reader, node: Node, depth: number, captured: boolean): Flow {
  const value = node.childForFieldName("value");
  const before = value ? r.substitutions(value, depth) : [];
  const items = node.namedChildren.filter((c) => c.type === "case_item");
  const flows = items.map((item): Flow => {
    const patterns = item.childrenForFieldName("value").flatMap((p) => r.substitutions(p, depth));
    const body = item.namedChildren.filter((c) => STATEMENTS.has(c.type));
    return { kind: "all", flows: [...patterns, r.sequence(body, depth, captured)] };
  });
  return { kind: "all", flows: [...before, { kind: "either", flows: [...flows, EMPTY] }] };
}

/** `name() { ...; } > out`: run when called; its redirections apply to each call. */
export function functionDefinition(r: Reader, node: Node, depth: number, captured: boolean): Flow {
  const body = node.childForFieldName("body");
  const redirects = node.childrenForFieldName("redirect");
  const inner: Flow[] = [];
  if (redirects.length) {
    const holder = r.newCommand(captured);
    r.redirections(redirects, holder, depth, inner);
    inner.push({ kind: "run", command: holder });
  }
  if (body) inner.push(r.statement(body, depth, captured));
  return { kind: "function", flow: { kind: "all", flows: inner } };
}
