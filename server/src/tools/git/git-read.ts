/**
 * git_read: read-only questions to the project's repository (status, diff, log, show, blame,
 * branch). Each action runs git with its own fixed argument list (git-run.ts), never a shell;
 * the model's values only fill named slots after checks, and output is capped.
 */
import { z } from "zod";
import { lazySchema } from "../../util/lazy-schema.js";
import { defineTool, ToolError } from "../define-tool.js";
import { checkPaths, checkRef, gitOutput, gitPlace } from "./git-run.js";
import { describeState, repoState } from "./git-status.js";

const ACTIONS = ["status", "diff", "log", "show", "blame", "branch"] as const;
const DEFAULT_LOG = 20;
const MAX_LOG = 200;

const input = lazySchema(() => z.object({
  action: z.enum(ACTIONS).describe("status | diff | log | show | blame | branch"),
  ref: z.string().optional().describe("diff: compare the working tree (or with staged, the index) to this commit, or a range a..b; log: start here; show: the commit (default HEAD)."),
  paths: z.array(z.string()).optional().describe("diff, log: only these paths (relative to the project root); blame: exactly one file."),
  staged: z.boolean().optional().describe("diff: the staged changes (index against HEAD) instead of the unstaged ones."),
  max_count: z.number().int().positive().max(MAX_LOG).optional().describe(`log: how many commits (default ${DEFAULT_LOG}, max ${MAX_LOG}).`),
  start_line: z.number().int().positive().optional().describe("blame: first line (1-based)."),
  end_line: z.number().int().positive().optional().describe("blame: last line."),
  all: z.boolean().optional().describe("branch: remote-tracking branches too."),
}));

type Input = z.infer<typeof input>;

/** The argument list of each action besides status (which has its own structured reader). */
const ARGS: Record<Exclude<Input["action"], "status">, (i: Input) => string[]> = {
  diff: (i) => ["diff", "--no-ext-diff", "--no-textconv", "--stat", "--patch", ...(i.staged ? ["--cached"] : []), ...(i.ref ? [checkRef(i.ref)] : []), "--", ...checkPaths(i.paths ?? [])],
  log: (i) => [
    "log",
    `--max-count=${i.max_count ?? DEFAULT_LOG}`,
    "--date=iso-strict",
    "--format=%h %ad %an%n    %s",
    "--no-ext-diff",
    ...(i.ref ? [checkRef(i.ref)] : []),
    "--",
    ...checkPaths(i.paths ?? []),
  ],
  show: (i) => ["show", "--no-ext-diff", "--no-textconv", "--stat", "--patch", "--format=fuller", checkRef(i.ref ?? "HEAD"), "--"],
  blame: (i) => ["blame", "--date=short", ...blameRange(i), ...(i.ref ? [checkRef(i.ref)] : []), "--", ...checkPaths(onePath(i))],
  branch: (i) => ["branch", "--list", ...(i.all ? ["--all"] : []), "--format=%(HEAD) %(refname:short) %(objectname:short) %(upstream:short) %(upstream:track)"],
};

/** The git_read tool. */
export const gitReadTool = defineTool({
  name: "git_read",
  description:
    "Read the project's git repository without changing it: status (branch or detached HEAD, upstream, staged/unstaged/untracked/conflicted files, a merge or rebase in progress), " +
    "diff (unstaged, staged, or against a ref), log, show (one commit), blame (one file, optionally a line range), branch (local, or all). Long output keeps its beginning and end.",
  input,
  policyClass: "read_only",
  category: "git",
  help: {
    whenToUse: "To see the repository's state before changing or committing anything: what changed (status, diff), history (log, show, blame), branches. Read-only, never asked.",
    examples: ['{"action": "status"}', '{"action": "diff", "staged": true}', '{"action": "log", "max_count": 5, "paths": ["src/a.ts"]}', '{"action": "blame", "paths": ["src/a.ts"], "start_line": 10, "end_line": 20}'],
    failureModes: [
      "Outside a git repository: the error says so.",
      "A ref that starts with '-' or holds spaces is refused before git runs.",
      "blame needs exactly one file in paths.",
    ],
  },
  title: (i) => `git ${i.action}${i.ref ? ` ${i.ref}` : ""}${i.paths?.length ? ` -- ${i.paths.join(" ")}` : ""}`,
  async execute(i, ctx) {
    const place = gitPlace(ctx);
    if (i.action === "status") return describeState(await repoState(place));
    const out = await gitOutput(place, ARGS[i.action](i));
    return out.trim() ? out : emptyAnswer(i);
  },
});

function blameRange(i: Input): string[] {
  if (i.start_line === undefined && i.end_line === undefined) return [];
  return [`-L${i.start_line ?? 1},${i.end_line ?? ""}`];
}

function onePath(i: Input): string[] {
  if (i.paths?.length !== 1) throw new ToolError("blame needs exactly one file in paths.");
  return i.paths;
}

function emptyAnswer(i: Input): string {
  if (i.action === "diff") return i.staged ? "No staged changes." : "No changes.";
  if (i.action === "log") return "No commits.";
  return "(no output)";
}
