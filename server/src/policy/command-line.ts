/**
 * A command line as the policy reads it: parsed by the real bash grammar (tree-sitter-bash, see
 * shell/parser.ts), every simple command found wherever it sits (lists, pipelines, if/while/for
 * bodies, functions, `$(...)`, `${X:-$(...)}`, here-documents, arithmetic), each with its words
 * (quotes removed, braces expanded), redirections and assignments, and the order the shell runs
 * them in (`flow`: what runs surely, maybe, in a subshell, in a loop). The floors and the approval
 * rules read commands through this; nothing here runs anything.
 */
import os from "node:os";
import { parseShell } from "./shell/parser.js";
import { readTree } from "./shell/syntax.js";

/** One redirection of a simple command (`> file`, `2>> log`, `< in`, `<<EOF`). */
export interface Redirect {
  /** The operator with its descriptor: `>`, `2>>`, `2>&`, `&>`, `<`, `<<`, `<<<` ... */
  op: string;
  /** The file (or descriptor, or here-document delimiter, or here-string), quotes removed. */
  target: string;
}

/** `NAME=value`: before a program (its environment), alone, or given to `export`/`local`/`for`. */
export interface Assignment {
  name: string;
  value: string;
}

/** One simple command: its words (quotes removed) and redirections. */
export interface SimpleCommand {
  /** Prefix assignments as `NAME=value`, then the program and its arguments. */
  words: string[];
  redirects: Redirect[];
  /** Every variable the command sets: its prefix, a bare assignment, `export X=`, a `for` variable. */
  assignments: Assignment[];
  /**
   * Its standard output is read by the line itself (inside `$(...)` or `<(...)`, or piped into
   * the next command): what it prints may become another command's arguments.
   */
  captured: boolean;
  /** What a here-document or here-string feeds its standard input, as written. */
  stdin?: string;
}

/**
 * How the simple commands of a line run: in order (`all`), perhaps (`maybe`: after `&&`/`||`),
 * one of several (`either`: if/case), in a subshell whose `cd` stays inside (`apart`: `( )`,
 * pipelines, substitutions, `&`), zero or more times (`loop`), or when called (`function`).
 */
export type Flow =
  | { kind: "run"; command: SimpleCommand }
  | { kind: "all"; flows: Flow[] }
  | { kind: "maybe"; flow: Flow }
  | { kind: "either"; flows: Flow[] }
  | { kind: "apart"; flow: Flow }
  | { kind: "loop"; flow: Flow }
  | { kind: "function"; flow: Flow };

/** A parsed command line. */
export interface CommandLine {
  /** Every simple command, in the order they are written. */
  commands: SimpleCommand[];
  flow: Flow;
  /**
   * Command text the grammar left as text but the shell runs (a backtick inside `${X:=...}`):
   * judged as lines of their own, from where the line starts.
   */
  hidden: string[];
  /**
   * Why the line runs text we cannot judge statically (`$(...)`, backticks, `<(...)`) or could not
   * be read fully (a syntax error, nesting too deep), in words for the prompt. Such a line is never
   * matched by a remembered approval.
   */
  opaque?: string;
}

/** Lines parsed lately: one command is read by the floors at check and again, with its scopes, at authorize. */
const recent = new Map<string, Promise<CommandLine>>();
const RECENT_LINES = 32;

/**
 * Parses a command line with the bash grammar. Rejects only when the parser itself cannot be
 * loaded (a broken install): a line it cannot read is `opaque`, never an error. The result is
 * shared with other readers of the same line: treat it as read-only.
 */
export function parseCommandLine(line: string): Promise<CommandLine> {
  const known = recent.get(line);
  if (known) return known;
  const parsed = parseShell(line, readTree);
  recent.set(line, parsed);
  if (recent.size > RECENT_LINES) recent.delete(recent.keys().next().value!);
  // A parser that failed to load is tried again next time, not remembered as this line's answer.
  parsed.catch(() => recent.delete(line));
  return parsed;
}

/** Programs that only run another command: the command that matters is after them. */
const WRAPPERS = new Set(["sudo", "doas", "command", "exec", "nohup", "time", "nice", "ionice", "env", "builtin", "stdbuf", "timeout", "coproc"]);

/**
 * The words of a simple command from its program on: `NAME=value` assignments and wrappers
 * (`sudo`, `env`, `nohup`, `timeout 5` ...) with their options are skipped.
 */
export function effectiveWords(words: readonly string[]): string[] {
  let i = 0;
  for (;;) {
    while (i < words.length && /^[A-Za-z_][A-Za-z0-9_]*\+?=/.test(words[i]!)) i++;
    const w = words[i];
    if (w === undefined || !WRAPPERS.has(basename(w))) break;
    const wrapper = basename(w);
    i++;
    // Options of the wrapper (and the duration of `timeout`, the priority of `nice -n 5`).
    while (i < words.length && words[i]!.startsWith("-")) {
      const takesValue = /^-(n|u|g|C|p|c|s|k|o|e|i)$/.test(words[i]!) && wrapper !== "env";
      i += takesValue ? 2 : 1;
    }
    if (wrapper === "timeout" && i < words.length) i++;
  }
  return words.slice(i);
}

/** The program a simple command runs (its first word after assignments and wrappers). */
export function programOf(words: readonly string[]): string | undefined {
  return effectiveWords(words)[0];
}

/** What `cdTarget` answers for a `cd` whose folder only the shell knows (`cd -`, `popd`). */
export const UNKNOWN_FOLDER = "\0unknown";

/**
 * The folder a `cd` or `pushd` moves to, as written (`~`, `$HOME` expanded; no target: home;
 * `cd -` and `popd`: UNKNOWN_FOLDER), or undefined when the command is none of them. The floors
 * and the approval rules both follow it.
 */
export function cdTarget(cmd: SimpleCommand, home: string): string | undefined {
  const eff = effectiveWords(cmd.words);
  if (eff[0] === "popd") return UNKNOWN_FOLDER;
  if (eff[0] !== "cd" && eff[0] !== "pushd") return undefined;
  const args = eff.slice(1);
  const dash = args.indexOf("--");
  const target = dash === -1 ? args.find((w) => !w.startsWith("-") || w === "-") : args[dash + 1];
  if (target === "-" || (eff[0] === "pushd" && /^[+-]\d+$/.test(target ?? ""))) return UNKNOWN_FOLDER;
  return target === undefined ? home : expandHome(target, home);
}

/** `~`, `~USER` (the user agent-lsp runs as), `$HOME` and `${HOME}` at the start of a word, expanded. */
export function expandHome(word: string, home: string): string {
  const user = currentUser();
  if (user && word.startsWith(`~${user}`) && /^(\/|$)/.test(word.slice(user.length + 1))) return home + word.slice(user.length + 1);
  return word.replace(/^(~|\$HOME|\$\{HOME\})(?=\/|$)/, home);
}

let userName: string | null | undefined;

/** The login name of the user agent-lsp runs as (`~me/.ssh` is `~/.ssh`); null when the system cannot say. */
function currentUser(): string | null {
  if (userName === undefined) {
    try {
      userName = os.userInfo().username || null;
    } catch {
      userName = null;
    }
  }
  return userName;
}

/** The last path segment of a program name (`/usr/bin/rm` -> `rm`). */
export function basename(word: string): string {
  const i = word.lastIndexOf("/");
  return i === -1 ? word : word.slice(i + 1);
}

/** Programs that run a command line given as an argument (`sh -c "..."`, `eval "..."`). */
const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "fish", "ash"]);

/**
 * The command line a shell or `eval` runs, when this simple command is one: `bash -c "rm -rf /"`
 * gives `rm -rf /`, and a shell reading a here-document or here-string (`bash <<EOF`) gives what
 * it feeds in; undefined otherwise.
 */
export function innerCommandLine(cmd: SimpleCommand): string | undefined {
  const eff = effectiveWords(cmd.words);
  const program = eff[0] === undefined ? undefined : basename(eff[0]);
  if (program === "eval") return eff.slice(1).join(" ");
  if (!program || !SHELLS.has(program)) return undefined;
  const c = eff.findIndex((w, i) => i > 0 && /^-[a-z]*c[a-z]*$/.test(w));
  if (c !== -1) return eff[c + 1];
  // `bash`, `sh -s args`, `sh -`: the script is standard input.
  const fromStdin = eff.slice(1).every((w) => w.startsWith("-")) || eff.slice(1).some((w) => /^-[a-z]*s[a-z]*$/.test(w));
  return fromStdin ? cmd.stdin : undefined;
}
