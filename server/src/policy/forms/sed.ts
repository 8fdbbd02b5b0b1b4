/**
 * sed scripts run code on their own terms: the `e` command and the `s///e` flag run a shell
 * command, `w`/`W` and `s///w` write a file, `r`/`R` read one. A remembered `sed` covers scripts
 * without `e` and `w`; the files `r` and `R` read are judged like any argument. A script sed reads
 * from a file (`-f`) cannot be read here, so it is never remembered either. `--sandbox` makes sed
 * itself refuse all of them.
 */
import { readOptions } from "./options.js";

const LONG = ["expression", "file", "in-place", "line-length", "null-data", "zero-terminated", "quiet", "silent", "regexp-extended", "separate", "sandbox", "debug", "posix", "follow-symlinks", "unbuffered", "binary"];

/** What a sed command line does besides editing text. */
export interface SedForm {
  never?: string;
  /** Files its script reads (`r`, `R`). */
  reads: string[];
}

/** Reads `sed ARGS`. */
export function sedForm(args: readonly string[]): SedForm {
  const scripts: string[] = [];
  const operands: string[] = [];
  let sandbox = false;
  for (const arg of readOptions(args, { shortValue: "efl", long: LONG, longValue: ["expression", "file", "line-length"] })) {
    if (arg.kind === "operand") operands.push(arg.word);
    else if (arg.name === "-e" || arg.name === "--expression") scripts.push(arg.value ?? "");
    else if (arg.name === "-f" || arg.name === "--file") return { never: '"sed -f" is never remembered: its script, read from a file, can hold the e and w commands', reads: [] };
    else if (arg.name === "--sandbox") sandbox = true;
  }
  if (!scripts.length && operands.length) scripts.push(operands[0]!);
  const script = scanSed(scripts.join("\n"));
  if (sandbox) return { reads: [] };
  if (script === undefined) return { never: '"sed" with a script that cannot be read here is never remembered', reads: [] };
  if (script.runs) return { never: "\"sed\" with the e command or the s///e flag is never remembered: it runs a shell command", reads: script.reads };
  if (script.writes.length) return { never: `"sed" with the w command or flag is never remembered: it writes ${script.writes.join(", ")}`, reads: script.reads };
  return { reads: script.reads };
}

/** What a sed script does: runs a command, writes files, reads files; undefined when it cannot be read. */
export interface SedScript {
  runs: boolean;
  writes: string[];
  reads: string[];
}

/** Scans a GNU sed script command by command (addresses, `!`, blocks, labels, text, s and y). */
export function scanSed(script: string): SedScript | undefined {
  const out: SedScript = { runs: false, writes: [], reads: [] };
  const s = script;
  let i = 0;
  const restOfLine = () => {
    const end = s.indexOf("\n", i);
    const text = s.slice(i, end === -1 ? s.length : end);
    i = end === -1 ? s.length : end;
    return text.trim();
  };
  while (i < s.length) {
    const c = s[i]!;
    if (/[\s;}]/.test(c)) {
      i++;
      continue;
    }
    if (c === "#") {
      restOfLine();
      continue;
    }
    const afterAddress = skipAddresses(s, i);
    if (afterAddress === undefined) return undefined;
    i = afterAddress;
    while (s[i] === "!" || s[i] === " " || s[i] === "\t") i++;
    const cmd = s[i++];
    if (cmd === undefined) return undefined;
    if (cmd === "{") continue;
    if ("aic".includes(cmd)) skipText();
    else if (":btT".includes(cmd)) skipLabel();
    else if ("rR".includes(cmd)) out.reads.push(restOfLine());
    else if ("wW".includes(cmd)) out.writes.push(restOfLine());
    else if (cmd === "e") {
      out.runs = true;
      restOfLine();
    } else if (cmd === "s") {
      const end = substitution();
      if (end === undefined) return undefined;
    } else if (cmd === "y") {
      const d = s[i++];
      if (d === undefined || (i = delimited(s, i, d)) < 0 || (i = delimited(s, i, d)) < 0) return undefined;
    } else if ("lLqQ".includes(cmd)) {
      while (/[\d ]/.test(s[i] ?? "")) i++;
    } else if (cmd === "v") skipLabel();
    else if (!"=dDgGhHnNpPxzF".includes(cmd)) return undefined;
  }
  return out;

  function skipText(): void {
    // `a text` to the end of the line; a backslash before the newline continues it.
    while (i < s.length && s[i] !== "\n") i += s[i] === "\\" ? 2 : 1;
  }
  function skipLabel(): void {
    while (i < s.length && s[i] !== "\n" && s[i] !== ";") i++;
  }
  function substitution(): number | undefined {
    const d = s[i++];
    if (d === undefined || d === "\n" || d === "\\") return undefined;
    i = delimited(s, i, d, true);
    if (i < 0) return undefined;
    i = delimited(s, i, d);
    if (i < 0) return undefined;
    // Flags: g p i I m M e, a number, and w FILE (the rest of the line).
    while (i < s.length && /[gpiImMe0-9w]/.test(s[i]!)) {
      const f = s[i++]!;
      if (f === "e") out.runs = true;
      if (f === "w") {
        out.writes.push(restOfLine());
        break;
      }
    }
    return i;
  }
}

/** Past an address or two (`3`, `$`, `/re/I`, `\%re%`, `1~2`, `addr,+3`, `0,/re/`). */
function skipAddresses(s: string, start: number): number | undefined {
  let i = skipAddress(s, start);
  if (i === undefined) return undefined;
  if (i !== start && s[i] === ",") {
    i++;
    if (s[i] === "+" || s[i] === "~") i++;
    const second = skipAddress(s, i);
    if (second === undefined || second === i) return undefined;
    i = second;
  }
  return i;
}

function skipAddress(s: string, i: number): number | undefined {
  if (s[i] === "$") return i + 1;
  if (/\d/.test(s[i] ?? "")) {
    while (/[\d~]/.test(s[i] ?? "")) i++;
    return i;
  }
  if (s[i] === "/" || s[i] === "\\") {
    const d = s[i] === "\\" ? s[i + 1] : "/";
    if (d === undefined) return undefined;
    const end = delimited(s, i + (s[i] === "\\" ? 2 : 1), d, true);
    if (end < 0) return undefined;
    i = end;
    while (s[i] === "I" || s[i] === "M") i++;
  }
  return i;
}

/**
 * Past the next unescaped `d`; -1 when there is none. In a regular expression (`regex`) a bracket
 * expression may hold `d` as a plain character (`s/[/]/x/`), as GNU sed reads it.
 */
function delimited(s: string, i: number, d: string, regex = false): number {
  for (; i < s.length; i++) {
    if (s[i] === "\\") i++;
    else if (regex && s[i] === "[") i = bracketEnd(s, i);
    else if (s[i] === d) return i + 1;
    else if (s[i] === "\n") return -1;
  }
  return -1;
}

/** The index of the `]` closing the bracket expression opened at `i` (`[]a]`, `[^]a]`, `[[:alpha:]/]`). */
function bracketEnd(s: string, i: number): number {
  let j = i + 1;
  if (s[j] === "^") j++;
  if (s[j] === "]") j++;
  for (; j < s.length && s[j] !== "]"; j++) {
    if (s[j] === "[" && /[:.=]/.test(s[j + 1] ?? "")) {
      const close = s.indexOf(`${s[j + 1]}]`, j + 2);
      if (close === -1) return s.length;
      j = close + 1;
    }
  }
  return j;
}
