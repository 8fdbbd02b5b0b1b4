/**
 * Just enough of POSIX shell syntax to reason about a command line: where one simple command ends
 * and the next begins, each command's words with quotes removed, its redirections, and whether
 * the line hides a command we cannot see (command substitution, process substitution). The
 * floors and the approval rules read commands through this; nothing here runs anything.
 */

/** One redirection of a simple command (`> file`, `2>> log`, `< in`). */
export interface Redirect {
  op: string;
  target: string;
}

/** One simple command: its words (quotes removed) and redirections. */
export interface SimpleCommand {
  words: string[];
  redirects: Redirect[];
}

/** A parsed command line. */
export interface CommandLine {
  commands: SimpleCommand[];
  /**
   * The line runs text we cannot read statically: `$(...)`, backticks, `<(...)`, `>(...)`.
   * Such a line is never matched by a remembered approval.
   */
  opaque: boolean;
}

/** Separators between simple commands. */
const SEPARATORS = ["&&", "||", ";;", ";", "|&", "|", "&", "\n", "(", ")"];

/** Splits a command line into simple commands (a best effort that never throws). */
export function parseCommandLine(line: string): CommandLine {
  const state = new Tokenizer(line);
  state.run();
  return { commands: state.commands.filter((c) => c.words.length || c.redirects.length), opaque: state.opaque };
}

class Tokenizer {
  commands: SimpleCommand[] = [{ words: [], redirects: [] }];
  opaque = false;
  private word = "";
  private inWord = false;
  private pendingRedirect: string | undefined;
  private i = 0;

  constructor(private readonly s: string) {}

  run(): void {
    while (this.i < this.s.length) this.step();
    this.endWord();
  }

  private get current(): SimpleCommand {
    return this.commands[this.commands.length - 1]!;
  }

  private step(): void {
    const s = this.s;
    const c = s[this.i]!;
    if (c === "\\") return this.escaped();
    if (c === "'") return this.singleQuoted();
    if (c === '"') return this.doubleQuoted();
    if (c === "`" || (c === "$" && s[this.i + 1] === "(") || ((c === "<" || c === ">") && s[this.i + 1] === "(")) {
      this.opaque = true;
    }
    if (c === "#" && !this.inWord) return this.comment();
    if (c === "$" && s[this.i + 1] === "{") return this.parameter();
    if (c === " " || c === "\t") {
      this.endWord();
      this.i++;
      return;
    }
    const redirect = this.redirectAt();
    if (redirect) {
      this.endWord();
      this.pendingRedirect = redirect.op;
      this.i += redirect.length;
      return;
    }
    const sep = SEPARATORS.find((p) => s.startsWith(p, this.i));
    if (sep) {
      this.endWord();
      this.commands.push({ words: [], redirects: [] });
      this.i += sep.length;
      return;
    }
    this.append(c);
    this.i++;
  }

  /**
   * A redirection operator starting here: the operator (with its fd prefix when the word so far
   * is digits, as in `2>`) and how many characters of the line it takes.
   */
  private redirectAt(): { op: string; length: number } | undefined {
    const m = /^(&>>|&>|>>|>&|<&|>\||<>|<<<|<<-|<<|>|<)/.exec(this.s.slice(this.i));
    if (!m || this.s[this.i + m[0].length] === "(") return undefined;
    const length = m[0].length;
    if (this.inWord && /^\d+$/.test(this.word)) {
      const fd = this.word;
      this.word = "";
      this.inWord = false;
      return { op: fd + m[0], length };
    }
    return { op: m[0], length };
  }

  private escaped(): void {
    const next = this.s[this.i + 1];
    if (next === "\n") {
      this.i += 2; // line continuation
      return;
    }
    if (next !== undefined) this.append(next);
    this.i += 2;
  }

  private singleQuoted(): void {
    const end = this.s.indexOf("'", this.i + 1);
    const stop = end === -1 ? this.s.length : end;
    this.append(this.s.slice(this.i + 1, stop));
    this.inWord = true;
    this.i = stop + 1;
  }

  private doubleQuoted(): void {
    let j = this.i + 1;
    let text = "";
    while (j < this.s.length && this.s[j] !== '"') {
      const ch = this.s[j]!;
      if (ch === "\\" && j + 1 < this.s.length && '"\\$`\n'.includes(this.s[j + 1]!)) {
        text += this.s[j + 1];
        j += 2;
        continue;
      }
      if (ch === "`" || (ch === "$" && this.s[j + 1] === "(")) this.opaque = true;
      text += ch;
      j++;
    }
    this.append(text);
    this.inWord = true;
    this.i = j + 1;
  }

  /** `${NAME}` stays part of its word (its braces are not a group). */
  private parameter(): void {
    const end = this.s.indexOf("}", this.i);
    const stop = end === -1 ? this.s.length : end + 1;
    this.append(this.s.slice(this.i, stop));
    this.i = stop;
  }

  private comment(): void {
    const nl = this.s.indexOf("\n", this.i);
    this.i = nl === -1 ? this.s.length : nl;
  }

  private append(text: string): void {
    this.word += text;
    this.inWord = true;
  }

  private endWord(): void {
    if (!this.inWord) return;
    if (this.pendingRedirect !== undefined) {
      this.current.redirects.push({ op: this.pendingRedirect, target: this.word });
      this.pendingRedirect = undefined;
    } else {
      this.current.words.push(this.word);
    }
    this.word = "";
    this.inWord = false;
  }
}

/** Reserved words that may precede a command (`if rm ...`, `{ rm ...; }`, `! rm ...`). */
const KEYWORDS = new Set(["{", "}", "!", "if", "then", "else", "elif", "fi", "do", "done", "while", "until"]);

/** Programs that only run another command: the command that matters is after them. */
const WRAPPERS = new Set(["sudo", "doas", "command", "exec", "nohup", "time", "nice", "ionice", "env", "builtin", "stdbuf", "timeout"]);

/**
 * The words of a simple command from its program on: leading reserved words, `NAME=value`
 * assignments and wrappers (`sudo`, `env`, `nohup`, `timeout 5` ...) with their options are skipped.
 */
export function effectiveWords(words: readonly string[]): string[] {
  let i = 0;
  for (;;) {
    while (i < words.length && (KEYWORDS.has(words[i]!) || /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]!))) i++;
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

/**
 * The folder a `cd` or `pushd` moves to, as written (`~`, `$HOME` expanded; no target: home), or
 * undefined when the command is neither. The floors and the approval rules both follow it.
 */
export function cdTarget(cmd: SimpleCommand, home: string): string | undefined {
  const eff = effectiveWords(cmd.words);
  if (eff[0] !== "cd" && eff[0] !== "pushd") return undefined;
  const target = eff.slice(1).find((w) => !w.startsWith("-"));
  return target === undefined ? home : expandHome(target, home);
}

/** `~`, `$HOME` and `${HOME}` at the start of a word, expanded. */
export function expandHome(word: string, home: string): string {
  return word.replace(/^(~|\$HOME|\$\{HOME\})(?=\/|$)/, home);
}

/** The last path segment of a program name (`/usr/bin/rm` -> `rm`). */
export function basename(word: string): string {
  const i = word.lastIndexOf("/");
  return i === -1 ? word : word.slice(i + 1);
}

/** Programs that run a command line given as an argument (`sh -c "..."`, `eval "..."`). */
const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "fish", "ash"]);

/**
 * The command line a shell or `eval` runs, when this simple command is one (`bash -c "rm -rf /"`
 * gives `rm -rf /`); undefined otherwise.
 */
export function innerCommandLine(words: readonly string[]): string | undefined {
  const eff = effectiveWords(words);
  const program = eff[0] === undefined ? undefined : basename(eff[0]);
  if (program === "eval") return eff.slice(1).join(" ");
  if (!program || !SHELLS.has(program)) return undefined;
  const c = eff.findIndex((w, i) => i > 0 && /^-[a-z]*c[a-z]*$/.test(w));
  return c === -1 ? undefined : eff[c + 1];
}
