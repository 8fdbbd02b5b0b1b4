/**
 * Running `git` for git_read and git_write: the program itself (never a shell), a fixed argument
 * list per action, no prompts, no pager, no external diff or textconv drivers, and no hooks or
 * fsmonitor program (a repository's config must not make a read run code of its choosing); and,
 * like every process agent-lsp starts, inside the sandbox where it works.
 */
import { commandEnv } from "../../exec/env.js";
import { loadExeca } from "../../exec/load-execa.js";
import { processManagerFrom, type ProcessManager } from "../../exec/processes.js";
import type { Launch } from "../../exec/sandbox/sandbox.js";
import { SandboxRequiredError } from "../../exec/sandbox/settings.js";
import { ToolError } from "../define-tool.js";
import type { ToolContext } from "../types.js";

/** What one git run gave. */
export interface GitRun {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** Most bytes kept of one run's output; the tool result is trimmed further by the output budget. */
const MAX_BUFFER = 4 * 1024 * 1024;

/** Settings every run gets, before the action's own arguments. */
const SAFE_CONFIG = ["-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null", "-c", "core.pager=cat", "-c", "color.ui=false"];

/** Where git runs: the project root, the call's signal, and the sandbox it starts in (the process manager's). */
export interface GitPlace {
  root: string;
  signal: AbortSignal;
  processes?: ProcessManager;
}

/** The place of a tool call's git runs. */
export function gitPlace(ctx: ToolContext): GitPlace {
  const processes = processManagerFrom(ctx.services);
  return { root: ctx.workspace.root, signal: ctx.signal, ...(processes ? { processes } : {}) };
}

/**
 * Runs `git <args>` in the project root, in the sandbox like every command (its git folders stay
 * writable, hooks and config do not); throws ToolError when git cannot be started, the sandbox
 * is required and cannot run, or the folder is no repository.
 */
export async function runGit(place: GitPlace, args: readonly string[]): Promise<GitRun> {
  const { root: cwd, signal } = place;
  const { execa } = await loadExeca();
  const launch = await gitLaunch(place, [...SAFE_CONFIG, ...args]);
  const result = await execa(launch.file, launch.args, {
    cwd,
    reject: false,
    stdin: "ignore",
    maxBuffer: MAX_BUFFER,
    cancelSignal: signal,
    // The server's environment without provider keys (git never needs them), and never a prompt or pager.
    extendEnv: false,
    env: { ...commandEnv(process.env), GIT_TERMINAL_PROMPT: "0", GIT_OPTIONAL_LOCKS: "0", LC_ALL: "C", GIT_PAGER: "cat", GIT_EDITOR: "true", ...launch.env },
  }).finally(() => launch.release());
  if (result.isCanceled) throw new ToolError("Cancelled.");
  const failedToStart = (result as { code?: string }).code === "ENOENT" || (result.exitCode === undefined && !result.isCanceled);
  if (failedToStart) throw new ToolError(`git could not be run: ${result.shortMessage ?? "is git installed and on PATH?"}`);
  const stderr = String(result.stderr ?? "");
  if (/not a git repository/i.test(stderr)) throw new ToolError(`The project (${cwd}) is not inside a git repository.`);
  return { exitCode: result.exitCode ?? 1, stdout: String(result.stdout ?? ""), stderr };
}

/** git's program line through the sandbox (or plain git where there is no process manager). */
async function gitLaunch(place: GitPlace, args: string[]): Promise<Pick<Launch, "file" | "args" | "env" | "release">> {
  if (!place.processes) return { file: "git", args, env: {}, release: () => {} };
  try {
    return await place.processes.sandbox.launch({ file: "git", args, cwd: place.root, root: place.root, searchPath: place.processes.searchPath, sharesSession: true });
  } catch (err) {
    if (err instanceof SandboxRequiredError) throw new ToolError(err.message);
    throw err;
  }
}

/** Runs git and returns stdout; a non-zero exit is a ToolError carrying git's own words. */
export async function gitOutput(place: GitPlace, args: readonly string[]): Promise<string> {
  const run = await runGit(place, args);
  if (run.exitCode !== 0) throw new ToolError(`git ${args[0]} failed (exit ${run.exitCode}): ${run.stderr.trim() || run.stdout.trim()}`);
  return run.stdout;
}

/**
 * A ref or revision the model named: refused when it could be read as an option (`--output=...`)
 * or holds what no ref name may, so a value can never change what the fixed argument list does.
 */
export function checkRef(value: string, what = "ref"): string {
  // No shell is involved, so the one risk is a value git reads as an option.
  if (!value || value.startsWith("-") || /[\s\0-\x1f]/.test(value)) throw new ToolError(`The ${what} "${value}" is not usable: it may not be empty, start with "-" or contain spaces.`);
  return value;
}

/** Paths the model named: relative to the project, passed after `--` so none is read as an option. */
export function checkPaths(paths: readonly string[]): string[] {
  for (const p of paths) if (!p || p.includes("\0")) throw new ToolError(`"${p}" is not a usable path.`);
  return [...paths];
}
