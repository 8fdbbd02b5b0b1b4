/**
 * The files a simple command writes, as words to resolve: its output redirections and the file
 * arguments of the common writers (`tee`, `cp`, `mv`, `touch`, `dd of=`, `sed -i`, `truncate`,
 * `install`, `ln`, `rm`, `mkdir`). A remembered program is approved for this project only, so
 * these are where "in this project" is checked. Pure: nothing here touches the disk.
 */
import { basename, effectiveWords, type SimpleCommand } from "./command-line.js";

/** One word naming a file the command writes. */
export interface WrittenWord {
  word: string;
  /**
   * The command writes through a symlink at this name (`tee link`), rather than acting on the
   * name itself (`rm link`, `mv link x` move or remove the link, not its target).
   */
  follow: boolean;
  /** Where it comes from, for the reason a prompt gives: `>` or the program. */
  via: string;
}

/** Output redirections that name a file (`2>&1` and `>&-` name descriptors; `<<` a delimiter). */
export function redirectTargets(cmd: SimpleCommand): WrittenWord[] {
  return cmd.redirects
    .filter((r) => r.op.includes(">") && !(r.op.endsWith("&") && /^(\d+|-)$/.test(r.target)))
    .map((r) => ({ word: r.target, follow: true, via: r.op }));
}

/** Options that take the next word as their value, per writer (`cp -t DIR`, `touch -d DATE`). */
const VALUE_OPTIONS: Record<string, string> = {
  cp: "tS", mv: "tS", install: "tSmog", ln: "tS", touch: "drt", truncate: "sr", mkdir: "m", tee: "", rm: "", rmdir: "",
};

/** The file arguments a writer writes; empty for any other program. */
export function writerTargets(cmd: SimpleCommand): WrittenWord[] {
  const eff = effectiveWords(cmd.words);
  const program = eff[0] === undefined ? "" : basename(eff[0]);
  const args = eff.slice(1);
  if (program === "dd") return args.filter((a) => a.startsWith("of=")).map((a) => ({ word: a.slice(3), follow: true, via: "dd" }));
  if (program === "sed") return sedFiles(args);
  if (!(program in VALUE_OPTIONS)) return [];
  const { operands, target } = splitArgs(args, VALUE_OPTIONS[program]!);
  const named = (word: string, follow: boolean): WrittenWord => ({ word, follow, via: program });
  switch (program) {
    case "cp":
    case "install":
      return destination(operands, target).map((w) => named(w, true));
    case "mv":
      // The sources go away too: moving a settings file out is changing the settings.
      return [...destination(operands, target).map((w) => named(w, true)), ...sources(operands, target).map((w) => named(w, false))];
    case "ln":
      // A hard link to an outside file, or a symlink to one, hands later writes that file: the
      // link's target counts as written, like its name.
      return [...destination(operands, target).map((w) => named(w, true)), ...sources(operands, target).map((w) => named(w, true))];
    case "rm":
    case "rmdir":
      return operands.map((w) => named(w, false));
    default:
      return operands.map((w) => named(w, true));
  }
}

/** A writer's operands and its `-t DIR` / `--target-directory=DIR`. */
function splitArgs(args: readonly string[], valueOptions: string): { operands: string[]; target?: string } {
  const operands: string[] = [];
  let target: string | undefined;
  let optionsEnded = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (optionsEnded || !a.startsWith("-") || a === "-") {
      operands.push(a);
    } else if (a === "--") {
      optionsEnded = true;
    } else if (a.startsWith("--target-directory=")) {
      target = a.slice("--target-directory=".length);
    } else if (a === "--target-directory") {
      target = args[++i];
    } else if (!a.startsWith("--")) {
      const valueAt = [...a.slice(1)].findIndex((c) => valueOptions.includes(c));
      if (valueAt === -1) continue;
      const value = a.slice(valueAt + 2) || args[++i];
      if (a[valueAt + 1] === "t") target = value;
    }
  }
  return target === undefined ? { operands } : { operands, target };
}

/** Where `cp`/`mv`/`ln`/`install` write: the `-t` folder, else the last operand. */
function destination(operands: readonly string[], target: string | undefined): string[] {
  if (target !== undefined) return [target];
  // `ln -s target` with one operand links into the current folder, under the target's name.
  return operands.length > 1 ? [operands[operands.length - 1]!] : operands.length === 1 ? ["."] : [];
}

/** What `mv`/`ln` take from: every operand but the destination. */
function sources(operands: readonly string[], target: string | undefined): string[] {
  if (target !== undefined || operands.length === 1) return [...operands];
  return operands.slice(0, -1);
}

/** The files `sed -i` rewrites (none without `-i`). */
function sedFiles(args: readonly string[]): WrittenWord[] {
  let inPlace = false;
  let scriptGiven = false;
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--in-place" || a.startsWith("--in-place=")) inPlace = true;
    else if (a === "--expression" || a === "--file") (scriptGiven = true), i++;
    else if (a.startsWith("--expression=") || a.startsWith("--file=")) scriptGiven = true;
    else if (/^-[^-]/.test(a)) {
      const option = sedShortOptions(a);
      inPlace ||= option.inPlace;
      scriptGiven ||= option.script;
      if (option.takesNext) i++;
    } else if (!a.startsWith("--")) operands.push(a);
  }
  if (!inPlace) return [];
  // Without -e or -f, the first operand is the script, not a file.
  return (scriptGiven ? operands : operands.slice(1)).map((word) => ({ word, follow: true, via: "sed -i" }));
}

/**
 * One cluster of sed's short options: `-ni` is -n -i, `-i.bak` is -i with a suffix (the rest of
 * the word), `-e SCRIPT`, `-f FILE` and `-l N` take the rest of the word or the next one.
 */
function sedShortOptions(word: string): { inPlace: boolean; script: boolean; takesNext: boolean } {
  for (let j = 1; j < word.length; j++) {
    const c = word[j]!;
    if (c === "i") return { inPlace: true, script: false, takesNext: false };
    if (c === "e" || c === "f" || c === "l") return { inPlace: false, script: c !== "l", takesNext: j === word.length - 1 };
  }
  return { inPlace: false, script: false, takesNext: false };
}
