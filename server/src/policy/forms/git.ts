/**
 * git runs code on its own terms: configuration can name a program for nearly anything (an alias
 * `!cmd`, core.pager, core.fsmonitor, core.sshCommand, diff.external...), and some options and
 * subcommands run or write what they are given. A remembered `git` covers only the forms that
 * neither set configuration nor run a program they are handed: everything else is asked.
 */
import { longName, mayBe } from "./options.js";

/** git's own commands: any other name may be an alias (`!cmd`) or another program (`git-foo`). */
const SUBCOMMANDS = new Set(
  (
    "add am annotate apply archive backfill bisect blame branch bugreport bundle cat-file check-attr check-ignore check-mailmap " +
    "check-ref-format checkout checkout-index cherry cherry-pick clean clone column commit commit-graph commit-tree config " +
    "count-objects describe diagnose diff diff-files diff-index diff-tree difftool fast-export fast-import fetch fetch-pack " +
    "filter-branch fmt-merge-msg for-each-ref for-each-repo format-patch fsck gc get-tar-commit-id grep hash-object help hook " +
    "index-pack init init-db instaweb interpret-trailers log ls-files ls-remote ls-tree mailinfo mailsplit maintenance merge " +
    "merge-base merge-file merge-index merge-tree mergetool mktag mktree multi-pack-index mv name-rev notes pack-objects " +
    "pack-refs prune prune-packed pull push range-diff read-tree rebase reflog refs remote repack replace replay request-pull " +
    "rerere reset restore rev-list rev-parse revert rm send-email shortlog show show-branch show-index show-ref sparse-checkout " +
    "stash status stripspace submodule switch symbolic-ref tag unpack-objects update-index update-ref var verify-commit " +
    "verify-pack verify-tag version whatchanged worktree write-tree"
  ).split(" "),
);

/** Subcommands that run programs or serve the repository whatever their options. */
const RUNNERS: Record<string, string> = {
  difftool: "it runs the diff tool it is given or configured",
  mergetool: "it runs the merge tool it is given or configured",
  "filter-branch": "its filters are shell commands",
  "send-email": "it runs the programs it is given (--sendmail-cmd, --to-cmd) and sends mail",
  instaweb: "it starts a web server it is given",
  daemon: "it serves the repository on the network",
  maintenance: "it schedules background jobs (cron, systemd)",
  credential: "it hands out stored passwords",
  "credential-store": "it hands out stored passwords",
  "credential-cache": "it hands out stored passwords",
};

/** Subcommand options (long names, abbreviations allowed) that run or write what they are given. */
const RUNNING_OPTIONS = ["exec", "upload-pack", "receive-pack", "extcmd", "open-files-in-pager", "template", "config", "sendmail-cmd", "to-cmd", "cc-cmd"];
const WRITING_OPTIONS = ["output", "output-directory"];
/** Subcommand options that look like those but are harmless (`git log --cc`, `format-patch --to=`). */
const HARMLESS_OPTIONS = ["exec-path", "config-env", "cc", "to"];

/** What a git command line is: why it may never be remembered, and the folders it works in. */
export interface GitForm {
  never?: string;
  /** `-C DIR` and `worktree add DIR`: places that must be in the project for a remembered git. */
  places: { word: string; what: string }[];
}

/** Reads `git ARGS`. */
export function gitForm(args: readonly string[]): GitForm {
  const places: GitForm["places"] = [];
  let i = 0;
  for (; i < args.length && args[i]!.startsWith("-"); i++) {
    const a = args[i]!;
    if (a === "-c" || a.startsWith("-c") || a === "--config-env" || a.startsWith("--config-env=")) {
      return { never: `"git ${a.startsWith("-c") ? "-c" : "--config-env"}" is never remembered: it sets configuration, which can name a program to run (alias.*, core.pager, core.fsmonitor...)`, places };
    }
    if (a.startsWith("--exec-path=")) return { never: '"git --exec-path=" is never remembered: git runs its commands from that folder', places };
    if (/^--(git-dir|work-tree)(=|$)/.test(a)) return { never: `"git ${a.split("=")[0]}" is never remembered: the other repository's configuration can run any program`, places };
    if (a === "-C") places.push({ word: args[++i] ?? "", what: "git -C" });
    else if (/^--(namespace|super-prefix|list-cmds|attr-source)$/.test(a)) i++;
  }
  const sub = args[i];
  if (sub === undefined) return { places };
  if (!SUBCOMMANDS.has(sub) && !RUNNERS[sub]) {
    return { never: `"git ${sub}" is never remembered: it is not one of git's own commands, so it may be an alias or another program, which can run any command`, places };
  }
  if (RUNNERS[sub]) return { never: `"git ${sub}" is never remembered: ${RUNNERS[sub]}`, places };
  const rest = args.slice(i + 1);
  const never = subcommandReason(sub, rest);
  if (sub === "worktree" && rest[0] === "add") {
    const target = rest.slice(1).find((w, k, all) => !w.startsWith("-") && !/^-[bB]$/.test(all[k - 1] ?? ""));
    if (target !== undefined) places.push({ word: target, what: "git worktree add" });
  }
  return never ? { never, places } : { places };
}

function subcommandReason(sub: string, rest: readonly string[]): string | undefined {
  if (sub === "config" && configWrites(rest)) return '"git config" that changes settings is never remembered: a setting can name a program to run (alias.*, core.pager...)';
  if (sub === "bisect" && rest[0] === "run") return '"git bisect run" is never remembered: it runs the command it is given';
  if (sub === "submodule" && rest.includes("foreach")) return '"git submodule foreach" is never remembered: it runs the command it is given';
  if (sub === "rebase" && rest.some((a) => a === "-x" || /^-[a-zA-Z]*x/.test(a) || mayBe(longOf(a), ["exec"]))) return '"git rebase --exec" is never remembered: it runs the command it is given';
  if ((sub === "grep" && rest.some((a) => /^-[a-zA-Z]*O/.test(a))) || (sub === "clone" && rest.some((a) => /^-[a-zA-Z]*[uc]/.test(a)))) {
    return `"git ${sub}" with that option is never remembered: it runs or configures the program it is given`;
  }
  if ((sub === "format-patch" || sub === "archive") && rest.some((a) => /^-o/.test(a))) return `"git ${sub} -o" is never remembered: it writes where it is told`;
  for (const a of rest) {
    if (a === "--") break;
    const name = longOf(a);
    if (!name || HARMLESS_OPTIONS.includes(name)) continue;
    if (mayBe(name, WRITING_OPTIONS)) return `"git ${sub} --${longName(name, WRITING_OPTIONS)}" is never remembered: it writes where it is told`;
    if (mayBe(name, RUNNING_OPTIONS)) return `"git ${sub} --${longName(name, RUNNING_OPTIONS)}" is never remembered: it runs or configures the program it is given`;
  }
  return undefined;
}

/** The long option name of a word (`--output=x` -> `output`), or "" for anything else. */
function longOf(word: string): string {
  return word.startsWith("--") && word.length > 2 ? word.slice(2).split("=")[0]! : "";
}

/** Read forms of `git config` (`--get`, `--list`, `get`, `list`, one name): everything else writes. */
function configWrites(rest: readonly string[]): boolean {
  const options = rest.filter((a) => a.startsWith("-"));
  const operands = rest.filter((a) => !a.startsWith("-"));
  if (operands[0] === "get" || operands[0] === "list") return false;
  if (options.some((o) => /^--(get|get-all|get-regexp|get-urlmatch|get-color|get-colorbool|list)$/.test(o) || o === "-l")) return false;
  if (options.some((o) => /^--(show-origin|show-scope|name-only|null|includes|global|system|local|worktree|type=.*|default=.*)$/.test(o) || o === "-z") && operands.length === 1) return false;
  return !(operands.length === 1 && !options.some((o) => /^(-e|--edit|--add|--unset|--unset-all|--replace-all|--rename-section|--remove-section)$/.test(o)));
}
