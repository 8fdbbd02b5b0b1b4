/**
 * The bash syntax tree read into what the policy judges (command-line.ts): every simple command
 * wherever it sits, with its words, redirections and assignments, and the flow they run in. Every
 * place a command can hide is visited (substitutions.ts); anything the grammar could not parse
 * makes the line opaque, and what can still be read of it is read (for the floors).
 */
import type { Node } from "web-tree-sitter";
import type { CommandLine, Flow, SimpleCommand } from "../command-line.js";
import { arithmeticCommand, caseStatement, cStyleFor, forStatement, functionDefinition, ifStatement } from "./compound.js";
import { ARITHMETIC_CODE, EMPTY, MAX_DEPTH, STATEMENTS, UNREADABLE, type Reader } from "./reader.js";
import { redirections } from "./redirects.js";
import { substitutions } from "./substitutions.js";
import { expandBraces, joinAdjacent, protectedText, unprotect, wordValue } from "./words.js";

export { ARITHMETIC_CODE, HIDDEN_COMMAND, UNREADABLE } from "./reader.js";

/** Leaves of a `[ ]` / `[[ ]]` expression that are words. */
const TEST_WORDS = new Set([
  "word", "string", "raw_string", "ansi_c_string", "translated_string", "concatenation", "simple_expansion", "expansion", "number",
  "command_substitution", "process_substitution", "arithmetic_expansion", "regex", "extglob_pattern", "test_operator",
]);

/** Programs that read values from outside the line into variables (arithmetic may run them). */
const READERS = new Set(["read", "mapfile", "readarray"]);

/** Reads a parsed command line. */
export function readTree(root: Node): CommandLine {
  const reader = new TreeReader();
  const flow = reader.sequence(root.children, 0);
  if (root.hasError) reader.note(UNREADABLE);
  const opaque = reader.opaqueReason();
  return { commands: reader.commands, flow, hidden: reader.hidden, ...(opaque ? { opaque } : {}) };
}

class TreeReader implements Reader {
  readonly commands: SimpleCommand[] = [];
  readonly hidden: string[] = [];
  private readonly reasons = new Set<string>();
  private arithmetic = false;
  private literalCode = false;

  note(reason: string): void {
    this.reasons.add(reason);
  }

  sawArithmetic(): void {
    this.arithmetic = true;
  }

  sawLiteralCode(): void {
    this.literalCode = true;
  }

  newCommand(captured: boolean): SimpleCommand {
    const cmd: SimpleCommand = { words: [], redirects: [], assignments: [], captured };
    this.commands.push(cmd);
    return cmd;
  }

  opaqueReason(): string | undefined {
    const readsOutside = this.commands.some((c) => READERS.has(c.words.find((w) => !w.includes("=")) ?? ""));
    if (this.arithmetic && (this.literalCode || readsOutside)) this.note(ARITHMETIC_CODE);
    if (this.reasons.has(UNREADABLE)) return UNREADABLE;
    return this.reasons.values().next().value;
  }

  /** Statements one after another; one followed by `&` runs in the background (apart). */
  sequence(nodes: readonly Node[], depth: number, captured = false): Flow {
    const flows: Flow[] = [];
    nodes.forEach((node, i) => {
      if (!node.isNamed || node.type === "comment") return;
      const flow = this.statement(node, depth, captured);
      flows.push(nodes[i + 1]?.type === "&" ? { kind: "apart", flow } : flow);
    });
    return flows.length === 1 ? flows[0]! : { kind: "all", flows };
  }

  statement(node: Node, depth: number, captured: boolean): Flow {
    if (depth > MAX_DEPTH) {
      this.note(UNREADABLE);
      return EMPTY;
    }
    const d = depth + 1;
    switch (node.type) {
      case "command":
        return this.command(node, [], d, captured);
      case "redirected_statement":
        return this.redirected(node, d, captured);
      case "pipeline": {
        const parts = node.namedChildren.filter((c) => c.type !== "comment");
        return { kind: "all", flows: parts.map((p, i) => ({ kind: "apart", flow: this.statement(p, d, captured || i < parts.length - 1) })) };
      }
      case "list": {
        const [left, right] = node.namedChildren.filter((c) => c.type !== "comment");
        const flows = [left ? this.statement(left, d, captured) : EMPTY];
        if (right) flows.push({ kind: "maybe", flow: this.statement(right, d, captured) });
        return { kind: "all", flows };
      }
      case "subshell":
        return { kind: "apart", flow: this.sequence(node.children, d, captured) };
      case "compound_statement":
        return node.firstChild?.type === "((" ? arithmeticCommand(this, node, d) : this.sequence(node.children, d, captured);
      case "negated_command":
      case "do_group":
      case "else_clause":
        return this.sequence(node.children, d, captured);
      case "while_statement":
        return { kind: "loop", flow: this.sequence(node.children, d, captured) };
      case "if_statement":
        return ifStatement(this, node, d, captured);
      case "for_statement":
        return forStatement(this, node, d, captured);
      case "c_style_for_statement":
        return cStyleFor(this, node, d, captured);
      case "case_statement":
        return caseStatement(this, node, d, captured);
      case "function_definition":
        return functionDefinition(this, node, d, captured);
      case "declaration_command":
      case "unset_command":
      case "test_command":
      case "variable_assignment":
      case "variable_assignments":
        return this.builtin(node, d, captured);
      default:
        // ERROR and anything this reader does not know: unreadable, but its commands are still read.
        this.note(UNREADABLE);
        return { kind: "all", flows: node.namedChildren.map((c) => (STATEMENTS.has(c.type) ? this.statement(c, d, captured) : { kind: "all", flows: this.substitutions(c, d) })) };
    }
  }

  substitutions(node: Node, depth: number): Flow[] {
    return substitutions(this, node, depth);
  }

  redirections(nodes: readonly Node[], cmd: SimpleCommand, depth: number, before: Flow[]): Node[] {
    return redirections(this, nodes, cmd, depth, before);
  }

  /** A simple command and the redirections that apply to it. */
  private command(node: Node, outer: readonly Node[], depth: number, captured: boolean): Flow {
    const cmd = this.newCommand(captured);
    const before: Flow[] = [];
    const args: Node[] = [];
    const own: Node[] = [];
    for (let i = 0; i < node.childCount; i++) {
      const child = node.child(i)!;
      const field = node.fieldNameForChild(i);
      if (child.type === "variable_assignment") this.assignment(child, cmd, depth, before);
      else if (field === "redirect" || child.type.endsWith("_redirect")) own.push(child);
      else if (field === "name") args.push(...child.children);
      else if (field === "argument") args.push(child);
      else if (STATEMENTS.has(child.type)) before.push({ kind: "apart", flow: this.statement(child, depth, true) });
      else if (child.isNamed && child.type !== "comment") this.note(UNREADABLE);
    }
    cmd.words.push(...cmd.assignments.map((a) => `${a.name}=${a.value}`), ...this.words(args, depth, before));
    const after = this.redirections([...own, ...outer], cmd, depth, before);
    return this.continued({ kind: "all", flows: [...before, { kind: "run", command: cmd }] }, cmd, after, depth);
  }

  words(nodes: readonly Node[], depth: number, before: Flow[]): string[] {
    const out: string[] = [];
    for (let i = 0; i < nodes.length; i++) {
      // Nodes that touch are one word (`$"x"` comes as `$` and a string).
      const group = [nodes[i]!];
      while (i + 1 < nodes.length && nodes[i + 1]!.startIndex === nodes[i]!.endIndex) group.push(nodes[++i]!);
      for (const n of group) before.push(...this.substitutions(n, depth));
      out.push(...this.expand(group));
    }
    return out;
  }

  /** One shell word from touching nodes, brace-expanded. */
  private expand(group: readonly Node[]): string[] {
    const text = group.map((n) => (n.type === "$" ? "" : n.isNamed ? protectedText(n) : n.text)).join("");
    if (!text.includes("{")) return [group.length === 1 ? wordValue(group[0]!) : joinAdjacent(group)];
    const expanded = expandBraces(text);
    if (!expanded) {
      this.note(UNREADABLE);
      return [unprotect(text)];
    }
    return expanded.map(unprotect);
  }

  /** `NAME=value` (or `NAME+=`, `NAME=(a b)`): recorded on `cmd`, substitutions into `before`. */
  private assignment(node: Node, cmd: SimpleCommand, depth: number, before: Flow[]): void {
    const nameNode = node.childForFieldName("name");
    // `a[i]=x`: the index is arithmetic.
    if (nameNode?.type === "subscript") this.arithmetic = true;
    const name = (nameNode?.type === "subscript" ? nameNode.childForFieldName("name") : nameNode)?.text ?? "";
    const value = node.childForFieldName("value");
    const values = !value ? [""] : this.words(value.type === "array" ? value.namedChildren : [value], depth, before);
    for (const v of values.length ? values : [""]) cmd.assignments.push({ name, value: v });
  }

  /** A command whose here-document line continues with `| cmd` or `&& cmd` / `|| cmd`. */
  private continued(flow: Flow, cmd: SimpleCommand, after: readonly Node[], depth: number): Flow {
    if (!after.length) return flow;
    const pipe = after.find((n) => n.type === "pipeline");
    if (pipe) {
      cmd.captured = true;
      const rest = this.sequence(pipe.children, depth, cmd.captured);
      return { kind: "all", flows: [{ kind: "apart", flow }, { kind: "apart", flow: rest }] };
    }
    const right = after.filter((n) => n.isNamed).map((n) => this.statement(n, depth, false));
    return { kind: "all", flows: [flow, ...right.map((r): Flow => ({ kind: "maybe", flow: r }))] };
  }

  /** A compound command with redirections (`{ a; b; } > out`, `while ...; done < in`). */
  private redirected(node: Node, depth: number, captured: boolean): Flow {
    const body = node.childForFieldName("body");
    const redirects = node.children.filter((c) => c.type.endsWith("_redirect"));
    if (body?.type === "command") return this.command(body, redirects, depth, captured);
    // The redirections open before the body runs: a command of their own, with no program.
    const holder = this.newCommand(captured);
    const before: Flow[] = [];
    const after = this.redirections(redirects, holder, depth, before);
    const flows = [...before, { kind: "run", command: holder } as Flow, ...(body ? [this.statement(body, depth, captured)] : [])];
    return this.continued({ kind: "all", flows }, holder, after, depth);
  }

  /** `export`, `local`, `declare`, `unset`, `[ ]`, `[[ ]]` and bare assignments: commands of their own. */
  private builtin(node: Node, depth: number, captured: boolean): Flow {
    const cmd = this.newCommand(captured);
    const before: Flow[] = [];
    if (node.type === "variable_assignment") this.assignment(node, cmd, depth, before);
    else if (node.type === "variable_assignments") node.namedChildren.forEach((a) => this.assignment(a, cmd, depth, before));
    else if (node.type === "test_command") cmd.words.push(...this.testWords(node, depth, before));
    else this.declaration(node, cmd, depth, before);
    if (node.type.startsWith("variable_assignment")) cmd.words.push(...cmd.assignments.map((a) => `${a.name}=${a.value}`));
    return { kind: "all", flows: [...before, { kind: "run", command: cmd }] };
  }

  /** `export A=1 B`, `local x`, `declare -i n=1`, `unset X`: the keyword, then its arguments in order. */
  private declaration(node: Node, cmd: SimpleCommand, depth: number, before: Flow[]): void {
    cmd.words.push(node.firstChild?.text ?? "");
    for (const child of node.namedChildren) {
      if (child.type !== "variable_assignment") {
        cmd.words.push(...this.words([child], depth, before));
        continue;
      }
      const count = cmd.assignments.length;
      this.assignment(child, cmd, depth, before);
      cmd.words.push(...cmd.assignments.slice(count).map((a) => `${a.name}=${a.value}`));
    }
    // `declare -i`: every later assignment to the variable is arithmetic.
    if (/^(declare|typeset|local)$/.test(cmd.words[0]!) && cmd.words.some((w) => /^-[a-zA-Z]*i/.test(w))) this.arithmetic = true;
  }

  /** The words of a test expression, in order (`[[ -f ~/x ]]` has the `~` as an operator node). */
  private testWords(node: Node, depth: number, before: Flow[]): string[] {
    const out: string[] = [];
    const visit = (n: Node): void => {
      if (n.type === "unary_expression" && n.firstChild?.type === "~") {
        out.push(`~${n.namedChildren.map((c) => wordValue(c)).join("")}`);
      } else if (TEST_WORDS.has(n.type)) {
        before.push(...this.substitutions(n, depth));
        // `[[ $x -eq 1 ]]` evaluates $x as arithmetic.
        if (n.type === "test_operator" && /^-(eq|ne|lt|le|gt|ge)$/.test(n.text) && node.firstChild?.type === "[[") this.arithmetic = true;
        out.push(...this.expand([n]));
      } else if (!n.isNamed) {
        if (/^(\[\[?|\]\]?|==?|!=|=~|<|>|&&|\|\||!)$/.test(n.type)) out.push(n.type);
      } else n.children.forEach(visit);
    };
    node.children.forEach(visit);
    return out;
  }
}
