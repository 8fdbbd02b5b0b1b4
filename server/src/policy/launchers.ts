/**
 * Programs that run whatever they are given: shells and wrappers (a command), interpreters (code),
 * package runners (a package fetched by name), `find -exec`. Remembering one would approve every
 * command, so a line that runs one is never remembered and is asked every time. See
 * docs/safety.md, "Yes, don't ask again".
 */
import { basename, effectiveWords, type SimpleCommand } from "./command-line.js";
import { ownTermsReason } from "./own-terms.js";

/** Programs that run the command they are given. */
const COMMAND_LAUNCHERS = new Set([
  "sh", "bash", "zsh", "dash", "ksh", "fish", "ash", "csh", "tcsh", "eval", "exec", "xargs", "sudo", "doas", "su",
  "env", "command", "builtin", "nohup", "time", "timeout", "nice", "ionice", "stdbuf", "source", ".", "parallel",
  "watch", "busybox", "script", "setsid", "flock", "chroot", "unshare", "nsenter", "runuser", "pkexec", "coproc",
]);

/**
 * Interpreters: `-c`/`-e`, a script or standard input make them run any code. Even `node
 * --version` is asked: a rule cannot tell a harmless use from `node -e`, so none is remembered.
 */
const INTERPRETERS = new Set([
  "node", "nodejs", "deno", "bun", "ts-node", "tsx", "Rscript", "R", "awk", "gawk", "mawk", "nawk",
  "osascript", "pwsh", "powershell", "julia", "irb", "ipython", "jshell", "groovy", "expect", "luajit",
]);

/** Interpreters whose names carry a version: `python3.12`, `perl5.36`, `php8.2`, `lua5.4`. */
const VERSIONED_INTERPRETER = /^(python|pypy|perl|ruby|php|lua|tclsh|wish)(\d+(\.\d+)*)?$/;

/** Programs that fetch and run a package or a program by name. */
const PACKAGE_RUNNERS = new Set(["npx", "pnpx", "bunx", "uvx"]);

/** Subcommands that turn a package manager into a package runner: `npm exec`, `uv run`. */
const RUNNER_SUBCOMMANDS: Record<string, readonly string[]> = {
  npm: ["exec", "x"],
  pnpm: ["dlx", "exec", "x"],
  yarn: ["dlx", "exec"],
  bun: ["x"],
  uv: ["run", "tool"],
  pipx: ["run"],
  poetry: ["run"],
  pipenv: ["run"],
  bundle: ["exec"],
  conda: ["run"],
  corepack: ["pnpx", "npx"],
};

/** `find` actions that run a command or delete what matched. */
const FIND_ACTIONS = new Set(["-exec", "-execdir", "-ok", "-okdir", "-delete"]);

/**
 * Why this simple command may never be remembered, in words for the prompt; undefined when its
 * program may be.
 */
export function neverRememberedReason(cmd: SimpleCommand): string | undefined {
  const eff = effectiveWords(cmd.words);
  // A bare assignment (`PATH=./bin:$PATH`) runs no program, but may change what the next one is.
  if (eff[0] === undefined) return ownTermsReason(cmd);
  const program = basename(eff[0]);
  const launcher = [basename(cmd.words[0] ?? ""), program].find((w) => COMMAND_LAUNCHERS.has(w));
  if (launcher) return `commands run through "${launcher}" are never remembered: it runs any command it is given`;
  if (INTERPRETERS.has(program) || VERSIONED_INTERPRETER.test(program)) {
    return `commands run through "${program}" are never remembered: it runs any code it is given`;
  }
  if (PACKAGE_RUNNERS.has(program)) return `commands run through "${program}" are never remembered: it runs any package it is given`;
  const sub = runnerSubcommand(program, eff.slice(1));
  if (sub) return `commands run through "${program} ${sub}" are never remembered: it runs any package or program it is given`;
  return (program === "find" ? findAction(eff.slice(1)) : undefined) ?? ownTermsReason(cmd);
}

/** The package-runner subcommand among the arguments (options may come first: `npm -w app exec`). */
function runnerSubcommand(program: string, args: readonly string[]): string | undefined {
  const subs = RUNNER_SUBCOMMANDS[program];
  if (!subs) return undefined;
  const end = args.indexOf("--");
  return (end === -1 ? args : args.slice(0, end)).find((a) => subs.includes(a));
}

function findAction(args: readonly string[]): string | undefined {
  const action = args.find((a) => FIND_ACTIONS.has(a));
  if (action === undefined) return undefined;
  const what = action === "-delete" ? "it deletes whatever matches" : "it runs any command it is given";
  return `"find ${action}" is never remembered: ${what}`;
}
