/**
 * git_write: the changes an agent may make to the project's repository: add, commit, switch (or
 * checkout) a branch, stash and stash pop, restore. Never push, never amend, reset or rebase: no
 * action can rewrite published history. Each is asked in `ask` mode with its exact git command
 * (the call's title). Commits carry the user's own git identity. A switch in a tree with
 * uncommitted changes is refused before git runs, naming the files it could lose.
 */
import { z } from "zod";
import { lazySchema } from "../../util/lazy-schema.js";
import { defineTool, ToolError } from "../define-tool.js";
import { checkPaths, checkRef, gitOutput, gitPlace, runGit } from "./git-run.js";
import { describeState, isDirty, repoState, type RepoState } from "./git-status.js";

const ACTIONS = ["add", "commit", "switch", "checkout", "stash", "stash_pop", "restore"] as const;

const input = lazySchema(() => z.object({
  action: z.enum(ACTIONS).describe("add | commit | switch (checkout is the same: branches only) | stash | stash_pop | restore"),
  paths: z.array(z.string()).optional().describe("add, restore: the paths, relative to the project root (add: required; restore: required)."),
  message: z.string().optional().describe("commit: the commit message (required); stash: an optional label."),
  branch: z.string().optional().describe("switch/checkout: the branch to switch to."),
  create: z.boolean().optional().describe("switch/checkout: create the branch (from HEAD) first."),
  staged: z.boolean().optional().describe("restore: unstage the paths (keep the changes in the working tree) instead of discarding their working-tree changes."),
}));

type Input = z.infer<typeof input>;

/** The git arguments of each action (checked values only). */
function argsOf(i: Input): string[] {
  switch (i.action) {
    case "add":
      return ["add", "--", ...required(i.paths, "add")];
    case "commit":
      if (!i.message?.trim()) throw new ToolError("commit needs a message.");
      return ["commit", "-m", i.message];
    case "switch":
    case "checkout":
      if (!i.branch) throw new ToolError(`${i.action} needs a branch.`);
      return ["switch", ...(i.create ? ["-c"] : []), checkRef(i.branch, "branch")];
    case "stash":
      return ["stash", "push", ...(i.message ? ["-m", i.message] : [])];
    case "stash_pop":
      return ["stash", "pop"];
    case "restore":
      return ["restore", ...(i.staged ? ["--staged"] : []), "--", ...required(i.paths, "restore")];
  }
}

/** The git_write tool. */
export const gitWriteTool = defineTool({
  name: "git_write",
  description:
    "Change the project's git repository: add paths to the index, commit the staged changes (with the user's git identity), switch (or checkout) a branch (create: new branch), " +
    "stash the uncommitted changes or pop the last stash, restore paths (discard their working-tree changes, or with staged, unstage them). " +
    "Never pushes and cannot amend, reset or rebase. A switch with uncommitted changes is refused: commit or stash first. Hooks do not run.",
  input,
  policyClass: "read_write",
  category: "git",
  help: {
    whenToUse: "To stage, commit, switch branches, stash or restore files. Read the state with git_read first. It cannot push or rewrite history: tell the user to push.",
    examples: ['{"action": "add", "paths": ["src/a.ts"]}', '{"action": "commit", "message": "Fix the parser\'s off-by-one"}', '{"action": "switch", "branch": "fix/parser", "create": true}', '{"action": "restore", "paths": ["src/a.ts"], "staged": true}'],
    failureModes: [
      "A switch with uncommitted changes is refused, naming the files: commit or stash first.",
      "A commit with nothing staged, or with conflicted files, is refused.",
      "In ask mode the user may decline; in read-only and plan modes it is refused.",
    ],
  },
  title: (i) => {
    try {
      return `${commandLine(argsOf(i))}${consequence(i)}`;
    } catch {
      return `git ${i.action}`;
    }
  },
  async execute(i, ctx) {
    const args = argsOf(i);
    const place = gitPlace(ctx);
    const before = await repoState(place);
    refuseUnsafe(i, before);
    const run = await runGit(place, args);
    const after = await repoState(place);
    const said = [run.stdout.trim(), run.stderr.trim()].filter(Boolean).join("\n");
    if (run.exitCode !== 0) throw new ToolError(`${commandLine(args)} failed (exit ${run.exitCode}):\n${said || "(git said nothing)"}\n\nNow:\n${describeState(after)}`);
    const commit = i.action === "commit" ? `Committed ${(await gitOutput(place, ["log", "-1", "--format=%h by %an <%ae>: %s"])).trim()}\n` : "";
    return `${commit}${said ? `${said}\n` : ""}\nNow:\n${describeState(after)}`;
  },
});

/** Refuses, before git runs, what would lose work or cannot succeed in the current state. */
function refuseUnsafe(i: Input, s: RepoState): void {
  if ((i.action === "switch" || i.action === "checkout") && isDirty(s)) {
    const files = [...s.conflicted, ...s.staged, ...s.unstaged].map((f) => f.path);
    throw new ToolError(
      `Not switched: the working tree has uncommitted changes (${[...new Set(files)].join(", ")}) that switching branches could lose or carry over. ` +
        "Commit them (git_write commit) or stash them (git_write stash) first.",
    );
  }
  if (i.action === "commit" && s.conflicted.length) {
    throw new ToolError(`Not committed: ${s.conflicted.length} file(s) are conflicted (${s.conflicted.map((f) => f.path).join(", ")}). Resolve them and add them first.`);
  }
  if (i.action === "commit" && !s.staged.length && s.operation !== "merge") {
    throw new ToolError(`Not committed: nothing is staged. Add the files first (git_write add).\n\n${describeState(s)}`);
  }
}

function required(paths: string[] | undefined, action: string): string[] {
  if (!paths?.length) throw new ToolError(`${action} needs paths.`);
  return checkPaths(paths);
}

/** What an action does beyond its command line, said in its approval. */
function consequence(i: Input): string {
  if (i.action === "restore" && !i.staged) return " (discards the uncommitted changes of these files)";
  if (i.action === "stash") return " (sets the uncommitted changes aside)";
  return "";
}

function commandLine(args: string[]): string {
  return `git ${args.map((a) => (/^[\w./@:=+-]+$/.test(a) ? a : JSON.stringify(a))).join(" ")}`;
}
