/**
 * The words of a simple command that may name a file it reads: its arguments (and the values of
 * `--option=value`, `NAME=value`, `@file`), its redirections, the values its assignments and
 * `for` loops give, the files a sed script reads, tar's operands from its `-C` folder; and the
 * folders it reads recursively following every symlink (`grep -R`, `rg -L`, `tar -h`, `zip -r`).
 * The judge resolves them (through `~`, `$HOME`, globs and symlinks) against the sensitive
 * places. Pure: nothing here touches the disk.
 */
import { basename, effectiveWords, type SimpleCommand } from "./command-line.js";
import { redirectTargets, writerTargets } from "./command-writes.js";
import { readOptions } from "./forms/options.js";
import { sedForm } from "./forms/sed.js";
import { tarForm } from "./forms/tar.js";

/** Programs none of whose arguments are files (`echo .agent-lsp >> .gitignore` names no settings). */
const NO_FILE_ARGUMENTS = new Set(["echo", "printf", "test", "[", "[[", "true", "false", ":"]);

/** One word that may name a file, and from where. */
export interface ReadWord {
  word: string;
  /** The folder it is relative to, when not the command's own (`tar -C DIR`). */
  base?: string;
  /** The program itself: it is run, not read. */
  program?: boolean;
}

/**
 * The words of a simple command that may name a file: assignments and wrappers, the program and
 * its arguments (not for `echo` and the like, unless what they print is read by the line), every
 * redirection's target but a here-document's delimiter, and the value of each `NAME=value`,
 * `--option=value`, `of=value`, `@file` and `<file` (`curl -F f=@file`).
 */
export function fileCandidates(cmd: SimpleCommand): string[] {
  const eff = effectiveWords(cmd.words);
  const prefix = cmd.words.slice(0, cmd.words.length - eff.length);
  const printsOnly = eff[0] !== undefined && NO_FILE_ARGUMENTS.has(basename(eff[0])) && !cmd.captured;
  const targets = cmd.redirects.filter((r) => !r.op.startsWith("<<") && !(r.op.endsWith("&") && /^(\d+|-)$/.test(r.target))).map((r) => r.target);
  const words = [...prefix, ...(printsOnly ? [] : eff), ...targets, ...cmd.assignments.map((a) => a.value)];
  const values = words.flatMap((w) => (/^[^=]+=/.test(w) ? [w.slice(w.indexOf("=") + 1)] : []));
  const all = [...words, ...values];
  return [...new Set([...all, ...all.flatMap((w) => (/^[@<]./.test(w) ? [w.slice(1)] : []))])];
}

/** The words to judge as files the command reads: its candidates, less those it writes (judged as writes). */
export function readWords(cmd: SimpleCommand): ReadWord[] {
  const eff = effectiveWords(cmd.words);
  const program = eff[0] === undefined ? "" : basename(eff[0]);
  const written = new Set([...redirectTargets(cmd), ...writerTargets(cmd)].map((w) => w.word));
  const tar = program === "tar" ? tarForm(eff.slice(1)) : undefined;
  const based = new Set(tar?.operands.filter((o) => o.base !== undefined).map((o) => o.word) ?? []);
  const out: ReadWord[] = fileCandidates(cmd)
    .filter((word) => !written.has(word) && !based.has(word) && !(word.startsWith("-") && !word.includes("=")))
    .map((word) => (word === eff[0] ? { word, program: true } : { word }));
  if (tar) out.push(...tar.operands.filter((o) => o.base !== undefined).map((o) => ({ word: o.word, base: o.base! })));
  if (program === "sed") out.push(...sedForm(eff.slice(1)).reads.map((word) => ({ word })));
  return out;
}

/**
 * The folders a command reads recursively following every symlink in them, where a link in the
 * project can lead anywhere: `grep -R`, `rg -L`, `ag -f`, `ack --follow`, `tar -h`, `cp -rL`,
 * `rsync -L`, `find -L`, `zip -r`. Without a folder, grep and rg search the current one.
 */
export function followedFolders(cmd: SimpleCommand): ReadWord[] {
  const eff = effectiveWords(cmd.words);
  const program = eff[0] === undefined ? "" : basename(eff[0]);
  const args = eff.slice(1);
  const flags = args.filter((a) => a.startsWith("-"));
  const has = (short: string, ...long: string[]) => flags.some((f) => (/^-[^-]/.test(f) && f.slice(1).includes(short)) || long.some((l) => f === l || f.startsWith(`${l}=`)));
  const operands = args.filter((a) => !a.startsWith("-"));
  switch (program) {
    case "grep":
    case "egrep":
    case "fgrep":
      return has("R", "--dereference-recursive") ? searchPaths(args, "efABCmdD") : [];
    case "rg":
    case "ag":
    case "ack":
      return has(program === "ag" ? "f" : "L", "--follow") ? searchPaths(args, "efABCmgtTMjE") : [];
    case "tar":
      return has("h", "--dereference") ? (tarForm(args).operands as ReadWord[]) : [];
    case "cp":
    case "rsync":
      return (has("r") || has("R") || has("a")) && has("L", "--dereference", "--copy-links", "--copy-unsafe-links") ? operands.slice(0, -1).map((word) => ({ word })) : [];
    case "find":
      return has("L") || args.includes("-follow") ? startingPoints(args) : [];
    case "zip":
      return has("r", "--recurse-paths") && !has("y", "--symlinks") ? operands.slice(1).map((word) => ({ word })) : [];
    default:
      return [];
  }
}

/** Long options of grep and rg that take the next word as their value. */
const SEARCH_LONG_VALUES = ["regexp", "file", "after-context", "before-context", "context", "max-count", "glob", "iglob", "type", "type-not", "max-depth", "encoding", "replace", "label"];

/** A search's paths: its operands after the pattern (all of them with -e/-f), or the current folder. */
function searchPaths(args: readonly string[], shortValue: string): ReadWord[] {
  const read = readOptions(args, { shortValue, long: SEARCH_LONG_VALUES, longValue: SEARCH_LONG_VALUES });
  const patternGiven = read.some((a) => a.kind === "option" && /^(-e|-f|--regexp|--file)$/.test(a.name));
  const operands = read.flatMap((a) => (a.kind === "operand" ? [a.word] : []));
  const paths = patternGiven ? operands : operands.slice(1);
  return (paths.length ? paths : ["."]).map((word) => ({ word }));
}

/** `find -L a b -name x`: the paths before the expression, or the current folder. */
function startingPoints(args: readonly string[]): ReadWord[] {
  const paths: string[] = [];
  for (const a of args) {
    if (/^-[HLP]$/.test(a) || a.startsWith("-D") || a.startsWith("-O")) continue;
    if (a.startsWith("-") || a === "(" || a === "!") break;
    paths.push(a);
  }
  return (paths.length ? paths : ["."]).map((word) => ({ word }));
}
