/**
 * The state of the project's repository, from `git status --porcelain=v2 --branch -z`: branch
 * (or detached HEAD), upstream and divergence, the changed files by kind, and an operation in
 * progress (merge, rebase...), so a detached or conflicted state is said plainly.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { gitOutput, type GitPlace } from "./git-run.js";

/** One changed path. */
export interface ChangedFile {
  path: string;
  /** The porcelain XY code: index then worktree ("M.", ".M", "A.", "UU"...). */
  code: string;
  /** The old path of a rename or copy. */
  from?: string;
}

/** What git status says. */
export interface RepoState {
  branch?: string;
  /** The commit checked out, short; undefined before the first commit. */
  head?: string;
  detached: boolean;
  upstream?: string;
  ahead: number;
  behind: number;
  staged: ChangedFile[];
  unstaged: ChangedFile[];
  untracked: string[];
  conflicted: ChangedFile[];
  /** "merge", "rebase", "cherry-pick", "revert" or "bisect" when one is in progress. */
  operation?: string;
}

/** Reads the repository's state. */
export async function repoState(place: GitPlace): Promise<RepoState> {
  const cwd = place.root;
  const out = await gitOutput(place, ["status", "--porcelain=v2", "--branch", "-z", "--untracked-files=normal"]);
  const state = parseStatus(out);
  const gitDir = path.resolve(cwd, (await gitOutput(place, ["rev-parse", "--git-dir"])).trim());
  const operation = operationIn(gitDir);
  return operation ? { ...state, operation } : state;
}

/** Parses porcelain v2 (-z) output. */
export function parseStatus(out: string): RepoState {
  const state: RepoState = { detached: false, ahead: 0, behind: 0, staged: [], unstaged: [], untracked: [], conflicted: [] };
  const fields = out.split("\0");
  for (let i = 0; i < fields.length; i++) {
    const entry = fields[i]!;
    if (!entry) continue;
    if (entry.startsWith("# ")) readHeader(state, entry);
    else if (entry.startsWith("? ")) state.untracked.push(entry.slice(2));
    else if (entry.startsWith("u ")) state.conflicted.push({ code: entry.split(" ")[1]!, path: entry.split(" ").slice(10).join(" ") });
    else if (entry.startsWith("1 ")) addChange(state, entry.split(" ")[1]!, entry.split(" ").slice(8).join(" "));
    else if (entry.startsWith("2 ")) addChange(state, entry.split(" ")[1]!, entry.split(" ").slice(9).join(" "), fields[++i]);
  }
  return state;
}

/** The state as lines for the model: branch line, then each non-empty group. */
export function describeState(s: RepoState): string {
  const where = s.detached
    ? `HEAD is detached at ${s.head ?? "?"} (no branch is checked out; commits made now belong to no branch)`
    : `On branch ${s.branch ?? "?"}${s.head ? ` at ${s.head}` : " (no commits yet)"}`;
  const upstream = s.upstream ? `, tracking ${s.upstream} (ahead ${s.ahead}, behind ${s.behind})` : s.detached ? "" : ", no upstream";
  const lines = [`${where}${upstream}.`];
  if (s.operation) lines.push(`A ${s.operation} is in progress: finish or abort it before committing or switching branches.`);
  if (s.conflicted.length) lines.push(`Conflicted (${s.conflicted.length}), resolve these first:`, ...s.conflicted.map((f) => `  ${f.code} ${f.path}`));
  if (s.staged.length) lines.push(`Staged (${s.staged.length}):`, ...s.staged.map(fileLine));
  if (s.unstaged.length) lines.push(`Not staged (${s.unstaged.length}):`, ...s.unstaged.map(fileLine));
  if (s.untracked.length) lines.push(`Untracked (${s.untracked.length}):`, ...s.untracked.map((p) => `  ${p}`));
  if (lines.length === 1) lines.push("The working tree is clean.");
  return lines.join("\n");
}

/** True when tracked files have changes (staged or not) or conflicts: a checkout could lose them. */
export function isDirty(s: RepoState): boolean {
  return s.staged.length + s.unstaged.length + s.conflicted.length > 0;
}

function readHeader(state: RepoState, entry: string): void {
  const [, key, ...rest] = entry.split(" ");
  const value = rest.join(" ");
  if (key === "branch.oid" && value !== "(initial)") state.head = value.slice(0, 12);
  else if (key === "branch.head") {
    if (value === "(detached)") state.detached = true;
    else state.branch = value;
  } else if (key === "branch.upstream") state.upstream = value;
  else if (key === "branch.ab") {
    const m = /^\+(\d+) -(\d+)$/.exec(value);
    if (m) [state.ahead, state.behind] = [Number(m[1]), Number(m[2])];
  }
}

function addChange(state: RepoState, code: string, file: string, from?: string): void {
  const change = { code, path: file, ...(from ? { from } : {}) };
  if (code[0] !== ".") state.staged.push(change);
  if (code[1] !== ".") state.unstaged.push(change);
}

function fileLine(f: ChangedFile): string {
  return `  ${f.code} ${f.from ? `${f.from} -> ` : ""}${f.path}`;
}

const OPERATIONS: [string, string][] = [
  ["rebase-merge", "rebase"],
  ["rebase-apply", "rebase"],
  ["MERGE_HEAD", "merge"],
  ["CHERRY_PICK_HEAD", "cherry-pick"],
  ["REVERT_HEAD", "revert"],
  ["BISECT_LOG", "bisect"],
];

function operationIn(gitDir: string): string | undefined {
  return OPERATIONS.find(([file]) => existsSync(path.join(gitDir, file)))?.[1];
}
