/**
 * What the parts of the syntax-tree reader share: the reader's interface (syntax.ts implements
 * it; compound.ts, redirects.ts and substitutions.ts call it back), the statement node types,
 * and why a line is opaque.
 */
import type { Node } from "web-tree-sitter";
import type { Flow, SimpleCommand } from "../command-line.js";

/** Why a line is opaque, in words for the prompt. */
export const HIDDEN_COMMAND = "a command with $(...), backticks or <(...) is never remembered";
export const UNREADABLE = "a command the shell parser cannot read fully is never remembered";
export const ARITHMETIC_CODE = "arithmetic on text that may hold $(...) or backticks runs it: never remembered";

/** How deep substitutions and compound commands may nest before the line counts as unreadable. */
export const MAX_DEPTH = 48;

/** Nothing runs. */
export const EMPTY: Flow = { kind: "all", flows: [] };

/** Statements the grammar knows. */
export const STATEMENTS = new Set([
  "command", "redirected_statement", "pipeline", "list", "subshell", "compound_statement", "negated_command", "if_statement",
  "while_statement", "for_statement", "c_style_for_statement", "case_statement", "function_definition", "declaration_command",
  "unset_command", "test_command", "variable_assignment", "variable_assignments",
]);

/** The reader as its parts see it. */
export interface Reader {
  /** Command text the grammar left as text but the shell runs. */
  readonly hidden: string[];
  note(reason: string): void;
  /** The line evaluates arithmetic (which runs `$(...)` held in a variable's value). */
  sawArithmetic(): void;
  /** The line holds `$(` or a backtick as quoted text (harmless unless arithmetic reads it). */
  sawLiteralCode(): void;
  /** A new simple command, recorded in the order written. */
  newCommand(captured: boolean): SimpleCommand;
  sequence(nodes: readonly Node[], depth: number, captured?: boolean): Flow;
  statement(node: Node, depth: number, captured: boolean): Flow;
  /** The words of argument nodes (braces expanded); their substitutions go into `before`. */
  words(nodes: readonly Node[], depth: number, before: Flow[]): string[];
  /** The commands hidden in a node (`$(...)` and the like), each as a flow of its own. */
  substitutions(node: Node, depth: number): Flow[];
  /** Redirections into `cmd.redirects`; returns what a here-document's line goes on with. */
  redirections(nodes: readonly Node[], cmd: SimpleCommand, depth: number, before: Flow[]): Node[];
}
