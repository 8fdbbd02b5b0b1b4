/**
 * tar runs programs it is handed (`--to-command`, `--checkpoint-action=exec=`, `-I`/
 * `--use-compress-program`, `--rsh-command`, `-F`/`--info-script`), writes wherever `-C` or
 * `-P`/`--absolute-names` points, and reads the files `-T` lists. A remembered `tar` covers the
 * rest, in the project; the judge checks that each `-C` folder is in it.
 */
import { readOptions, type Arg } from "./options.js";

const LONG = [
  "to-command", "checkpoint-action", "use-compress-program", "rsh-command", "rmt-command", "info-script", "new-volume-script",
  "absolute-names", "files-from", "index-file", "volno-file", "listed-incremental", "directory", "file", "checkpoint", "to-stdout",
  "totals", "touch", "newer", "newer-mtime", "incremental", "interactive", "exclude", "exclude-from", "force-local", "transform",
];
const LONG_VALUE = ["to-command", "checkpoint-action", "use-compress-program", "rsh-command", "rmt-command", "info-script", "new-volume-script", "files-from", "index-file", "volno-file", "listed-incremental", "directory", "file", "exclude", "exclude-from", "transform", "newer", "newer-mtime"];

/** What each form does that a remembered `tar` must not do unasked. */
const DANGERS: Record<string, string> = {
  "--to-command": "it runs the command it is given for each file",
  "--checkpoint-action": "its exec= action runs a command",
  "--use-compress-program": "it runs the program it is given",
  "-I": "it runs the program it is given",
  "--rsh-command": "it runs the program it is given",
  "--rmt-command": "it runs the program it is given",
  "--info-script": "it runs the script it is given",
  "--new-volume-script": "it runs the script it is given",
  "-F": "it runs the script it is given",
  "--absolute-names": "it writes wherever the archive's names point",
  "-P": "it writes wherever the archive's names point",
  "--files-from": "it reads the files a list names, which only the shell run can tell",
  "-T": "it reads the files a list names, which only the shell run can tell",
  "--index-file": "it writes where it is told",
  "--volno-file": "it writes where it is told",
  "--listed-incremental": "it writes where it is told",
  "-g": "it writes where it is told",
};

/** A tar command line: why it may never be remembered, its `-C` folders, its operands and the folder each is read from. */
export interface TarForm {
  never?: string;
  places: { word: string; what: string }[];
  /** Each operand with the `-C` folder in force where it appears (undefined: the command's folder). */
  operands: { word: string; base?: string }[];
}

/** Reads `tar ARGS`. */
export function tarForm(args: readonly string[]): TarForm {
  const out: TarForm = { places: [], operands: [] };
  let base: string | undefined;
  let local = false;
  let archives: string[] = [];
  for (const arg of readOptions(traditional(args), { shortValue: "bCfFgHIKLNTVX", long: LONG, longValue: LONG_VALUE })) {
    if (arg.kind === "operand") {
      out.operands.push(base === undefined ? { word: arg.word } : { word: arg.word, base });
      continue;
    }
    const why = danger(arg);
    if (why) return { ...out, never: `"tar ${arg.name}" is never remembered: ${why}` };
    if ((arg.name === "-C" || arg.name === "--directory") && arg.value !== undefined) {
      base = arg.value;
      out.places.push({ word: arg.value, what: "tar -C" });
    }
    if (arg.name === "--force-local") local = true;
    if ((arg.name === "-f" || arg.name === "--file") && arg.value !== undefined) archives = [...archives, arg.value];
  }
  if (!local && archives.some((a) => /^[^/]*:/.test(a))) return { ...out, never: '"tar -f host:file" is never remembered: it reaches the archive through a remote shell' };
  return out;
}

function danger(arg: Extract<Arg, { kind: "option" }>): string | undefined {
  if (arg.name === "--checkpoint-action" && !/^exec=|^\s*exec/.test(arg.value ?? "exec")) return undefined;
  return DANGERS[arg.name];
}

/** `tar xzf a.tar -C dir`: a first word without a dash is letters whose values follow in order. */
function traditional(args: readonly string[]): string[] {
  const first = args[0];
  if (first === undefined || first.startsWith("-")) return [...args];
  const rest = args.slice(1);
  const out: string[] = [];
  for (const letter of first) {
    out.push(`-${letter}`);
    if ("bCfFgHIKLNTVX".includes(letter) && rest.length) out.push(rest.shift()!);
  }
  return [...out, ...rest];
}
