/**
 * Programs that run code on their own terms (issue 27): a remembered program covers only its safe
 * forms. An editor or pager runs shell commands from its own keys and files; git, tar, make and
 * sed run or write what some of their options or script commands are given; a variable set in
 * front of a command can name the program it runs. For these, the reason says why the line is
 * asked; the folders some of them work in (`tar -C`, `make -f`, `git -C`) are for the judge to
 * check against the project.
 */
import { basename, effectiveWords, type SimpleCommand } from "./command-line.js";
import { programVariableReason } from "./forms/env-names.js";
import { gitForm } from "./forms/git.js";
import { makeForm } from "./forms/make.js";
import { sedForm } from "./forms/sed.js";
import { tarForm } from "./forms/tar.js";

/** Editors and pagers: `:!cmd`, `!cmd`, `-c`, LESSOPEN, a modeline or a startup file run anything. */
const INTERACTIVE: Record<string, string> = {
  ...Object.fromEntries(["vim", "vi", "nvim", "view", "vimdiff", "nvimdiff", "ex", "rvim", "rview", "gvim", "gview", "evim", "ed", "emacs", "emacsclient", "nano", "pico", "mg", "joe"].map((p) => [p, "an editor runs the commands and scripts it is given (-c, :!cmd, its startup files)"])),
  ...Object.fromEntries(["less", "more", "most", "pg"].map((p) => [p, "a pager runs shell commands (!cmd, LESSOPEN, its editor key)"])),
  man: "it runs the pager and preprocessors it is told to (-P, MANPAGER)",
  info: "it runs the programs it is told to",
};

/** Options of common programs that run the program they are given. */
const RUNNING_OPTIONS: Record<string, RegExp> = {
  rg: /^--pre(=|$)|^--pre-glob/,
  sort: /^--compress-program/,
  rsync: /^(-e|--rsh(=|$)|--rsync-path)/,
  zip: /^(-TT|--unzip-command)/,
  scp: /^(-S|-o|-F)/,
  sftp: /^(-S|-o|-F|-D)/,
  ssh: /^(-o|-F|-[a-zA-Z]*[oF])/,
  fzf: /^--(preview|bind|listen)/,
};

/** Debuggers run anything (`gdb -ex 'shell cmd'`). */
const DEBUGGERS = new Set(["gdb", "lldb", "pdb"]);

/** Why this simple command may never be remembered for running code on its own terms; undefined when its program may be. */
export function ownTermsReason(cmd: SimpleCommand): string | undefined {
  const variables = programVariableReason(cmd);
  if (variables) return variables;
  const eff = effectiveWords(cmd.words);
  if (eff[0] === undefined) return undefined;
  const program = basename(eff[0]);
  const args = eff.slice(1);
  if (INTERACTIVE[program]) return `"${program}" is never remembered: ${INTERACTIVE[program]}`;
  if (DEBUGGERS.has(program)) return `"${program}" is never remembered: a debugger runs any command it is given`;
  const option = RUNNING_OPTIONS[program] && args.find((a) => RUNNING_OPTIONS[program]!.test(a));
  if (option) return `"${program} ${option.split("=")[0]}" is never remembered: it runs the program it is given`;
  return formOf(program, args)?.never;
}

/** The folders and files this command works in besides its own folder (`tar -C`, `make -f`, `git -C`). */
export function workingPlaces(cmd: SimpleCommand): { word: string; what: string }[] {
  const eff = effectiveWords(cmd.words);
  return eff[0] === undefined ? [] : (formOf(basename(eff[0]), eff.slice(1))?.places ?? []);
}

function formOf(program: string, args: readonly string[]): { never?: string; places?: { word: string; what: string }[] } | undefined {
  switch (program) {
    case "git":
      return gitForm(args);
    case "tar":
    case "gtar":
    case "bsdtar":
      return tarForm(args);
    case "make":
    case "gmake":
      return makeForm(args);
    case "sed":
    case "gsed":
      return sedForm(args);
    default:
      return undefined;
  }
}
