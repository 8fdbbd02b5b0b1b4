/**
 * execute_command: runs a shell command in the project, in the foreground (waits, with a timeout)
 * or in the background (returns an id at once). Gated as `exec`: the gate sees the command and
 * its working directory before anything starts.
 */
import { z } from "zod";
import { lazySchema } from "../../util/lazy-schema.js";
import type { ProgressHandle } from "../../editor/session-ui.js";
import { formatSeconds, type CommandResult, type RunningCommand } from "../../exec/runner.js";
import { describeStop } from "../../exec/format.js";
import { DEFAULT_MAX_OUTPUT_BYTES } from "../../exec/output-buffer.js";
import { processManagerFrom, type ProcessManager } from "../../exec/processes.js";
import { describeOutcome, SandboxRequiredError } from "../../exec/sandbox/settings.js";
import { defineTool, errorResult, textResult, ToolError } from "../define-tool.js";
import { runInClientTerminal } from "./client-terminal.js";
import { commandSandbox } from "./sandbox-place.js";
import { approvalNote, planSave, saveBeforeCommand } from "./save-before-command.js";
import { configFrom } from "../tool-config.js";
import type { ToolContext, ToolResult } from "../types.js";

/** Foreground timeout when the model names none. */
const DEFAULT_TIMEOUT_SECS = 120;
/** The longest foreground timeout the model may ask for. */
const MAX_TIMEOUT_SECS = 600;

/** A command running longer than this reports progress, then every PROGRESS_EVERY_MS. */
const PROGRESS_AFTER_MS = 1000;
const PROGRESS_EVERY_MS = 1000;

const input = lazySchema(() => z.object({
  command: z.string().min(1).describe("The shell command (/bin/sh -c on Unix, PowerShell on Windows)."),
  cwd: z
    .string()
    .optional()
    .describe("Working directory, relative to the project root or absolute inside it. Default: the project root."),
  timeout_secs: z
    .number()
    .positive()
    .max(MAX_TIMEOUT_SECS)
    .optional()
    .describe(`Foreground only: seconds before the command and every process it started are killed (default ${DEFAULT_TIMEOUT_SECS}, max ${MAX_TIMEOUT_SECS}).`),
  mode: z
    .enum(["foreground", "background"])
    .optional()
    .describe('"foreground" (default) waits for the command; "background" starts it and returns an id such as bg-1234 at once.'),
  outside_sandbox: z
    .string()
    .min(1)
    .optional()
    .describe(
      "Only when the sandbox refused what the task needs (the network, a write outside the project): run the command outside the sandbox, for this reason, in a few words the user reads. The user is asked every time.",
    ),
}));

/** The execute_command tool. */
export const executeCommandTool = defineTool({
  name: "execute_command",
  description:
    "Run a shell command in the project root (or a cwd inside it) and return its exit code and its stdout and stderr " +
    "interleaved (ANSI colours stripped; long output keeps its beginning and end). stdin is closed. " +
    `Foreground commands are killed after timeout_secs (default ${DEFAULT_TIMEOUT_SECS}), with every process they started. ` +
    'Use mode "background" for servers, watchers and anything long-running: it returns an id at once; ' +
    "then use background_process to read its output, wait for a pattern, or stop it. " +
    "Commands read the files on disk: open files you changed in the editor and did not save are saved first " +
    "when the editor allows it, and the result says so (or which files the command does not see with your changes). " +
    "Commands run in a sandbox where it works (the result says \"sandboxed\" or why not): they may write only inside the project (not .agent-lsp, .git/hooks or .git/config) and in a private /tmp, " +
    "cannot read credentials, see only their own processes, and have no network unless the user allowed hosts. When the sandbox refuses what the task needs, the result says so; " +
    "then run it again with outside_sandbox giving the reason, and the user decides.",
  input,
  policyClass: "exec",
  category: "system",
  help: {
    whenToUse: "To build, test, run scripts, git and other command-line work. Use mode background for servers and watchers.",
    examples: ['{"command": "npm test", "timeout_secs": 300}', '{"command": "npm run dev", "mode": "background"}'],
    failureModes: [
      "A non-zero exit is a result with the output, not a tool error: read it.",
      "A timeout kills the command and everything it started; the output so far comes back.",
      "The user declines, or the mode refuses commands: nothing runs.",
      'The sandbox refuses a write outside the project, a read of a credential, or the network: the result names the path and why. outside_sandbox asks the user; with [exec] sandbox = "required" nothing runs outside it.',
    ],
  },
  // Asked at authorize, where the approval can also say which files are saved first.
  metadata: { authorizesCommands: true },
  title: (i) => `Run ${summarizeCommand(i.command, 60)}`,
  async execute(i, ctx) {
    const processes = requireProcessManager(ctx);
    // The root needs no resolving (one file-system round trip less for most commands).
    const dir = i.cwd === undefined ? { abs: ctx.workspace.root, external: false } : await ctx.workspace.resolve(i.cwd);
    if (dir.external) {
      throw new ToolError(`cwd "${i.cwd}" is outside the project. Commands run in the project root or a folder inside it.`);
    }
    const place = await commandSandbox(processes, i.outside_sandbox);
    if ("refused" in place) return errorResult(place.refused);
    const save = await planSave(ctx);
    const note = approvalNote(save);
    const decision = await ctx.authorize({ kind: "command", command: i.command, cwd: dir.abs, sandbox: place.sandbox, ...(note ? { note } : {}) });
    if (!decision.allowed) return errorResult(`Command not run: ${decision.reason}`);
    const where = { cwd: dir.abs, root: ctx.workspace.root, ...(i.outside_sandbox ? { outside: i.outside_sandbox } : {}) };
    const saveNotes = await saveBeforeCommand(ctx, save);
    if (ctx.signal.aborted) return errorResult(["Cancelled: the command was not run.", ...saveNotes].join("\n"));

    if (i.mode === "background") {
      const job = await startOrRefuse(() => processes.startBackground(ctx.sessionId, { command: i.command, ...where }));
      if ("refused" in job) return errorResult([...saveNotes, job.refused].join("\n"));
      return textResult(
        [
          ...saveNotes,
          `Started ${job.id} in the background (log: ${job.log}; ${job.sandbox}).`,
          `Use background_process with id "${job.id}" to read its output, wait for it (optionally for a pattern), or stop it.`,
        ].join("\n"),
      );
    }

    const timeoutMs = (i.timeout_secs ?? DEFAULT_TIMEOUT_SECS) * 1000;
    // Leave room for the header so defineTool does not cut the output a second time.
    const maxOutputBytes = Math.max(Math.min(DEFAULT_MAX_OUTPUT_BYTES, ctx.outputBudget - 400), 1024);
    const terminal = ctx.editor.terminal;
    if (terminal && configFrom(ctx.services).exec.client_terminal) {
      const launch = await startOrRefuse(() => processes.launch(i.command, where));
      if ("refused" in launch) return errorResult([...saveNotes, launch.refused].join("\n"));
      return withNotes(await runInClientTerminal(ctx, terminal, { command: i.command, cwd: dir.abs, timeoutMs, maxOutputBytes }, launch), saveNotes);
    }
    const running = await startOrRefuse(() =>
      processes.startForeground(ctx.sessionId, { command: i.command, ...where, timeoutMs, signal: ctx.signal, maxOutputBytes }, ctx.toolCallId),
    );
    if ("refused" in running) return errorResult([...saveNotes, running.refused].join("\n"));
    const sandbox = describeOutcome(running.sandbox.outcome);
    const progress = reportProgress(ctx, running, `$ ${summarizeCommand(i.command, 80)}`, sandbox);
    const result = await running.result;
    progress.stop(result);
    return withNotes(formatCommandResult(result, sandbox, running.sandbox.explain(result.output)), saveNotes);
  },
});

/** Starts a command; a sandbox that is required and cannot run comes back as the refusal to show. */
async function startOrRefuse<T>(start: () => Promise<T>): Promise<T | { refused: string }> {
  try {
    return await start();
  } catch (err) {
    if (err instanceof SandboxRequiredError) return { refused: err.message };
    throw err;
  }
}

/** The result the model reads: how it ended and whether sandboxed, notes, then the output. */
function formatCommandResult(r: CommandResult, sandbox: string, refusals: readonly string[]): ToolResult {
  if (r.spawnError) return errorResult(`Could not start the command (${sandbox}): ${r.spawnError}`);
  const lines: string[] = [];
  if (r.killed) {
    lines.push(`Killed: ${r.killed.message}. ${describeStop(r.killed.stop)}.`);
  } else if (r.signal) {
    lines.push(`Ended by signal ${r.signal} after ${formatSeconds(r.durationMs)} (${sandbox}).`);
  } else {
    lines.push(`Exit code: ${r.exitCode} (${formatSeconds(r.durationMs)}, ${sandbox})`);
  }
  for (const sentence of refusals) lines.push(sentence);
  if (r.strays) {
    lines.push(
      `Note: the command left processes running after it exited. ${describeStop(r.strays)}. ` +
        'Use mode "background" for servers and watchers.',
    );
  }
  lines.push("", r.output || "(no output)");
  const failed = Boolean(r.killed) || r.exitCode !== 0;
  return { isError: failed, content: [{ type: "text", text: lines.join("\n") }] };
}

/** The result with notes (what was saved before the command) ahead of it. */
function withNotes(result: ToolResult, notes: string[]): ToolResult {
  if (!notes.length) return result;
  return { ...result, content: [{ type: "text", text: notes.join("\n") }, ...result.content] };
}

/**
 * After a second, reports the output tail every second: as $/progress to the editor and as
 * tool_call_update output. Ends the $/progress when the command does.
 */
function reportProgress(ctx: ToolContext, running: RunningCommand, title: string, sandbox: string): { stop(result: CommandResult): void } {
  let handle: ProgressHandle | undefined;
  let interval: NodeJS.Timeout | undefined;
  const tick = () => {
    const elapsed = Math.round((Date.now() - running.startedAt) / 1000);
    const tail = running.recentOutput(1500);
    handle ??= ctx.editor.progress(title);
    handle.report(`${elapsed} s${lastLine(tail) ? ` · ${lastLine(tail)}` : ""}`);
    ctx.progress(`[running ${elapsed} s, ${sandbox}]\n${lastLines(tail, 10)}`);
  };
  const first = setTimeout(() => {
    tick();
    interval = setInterval(tick, PROGRESS_EVERY_MS);
  }, PROGRESS_AFTER_MS);
  return {
    stop(result) {
      clearTimeout(first);
      clearInterval(interval);
      handle?.done(result.killed ? `killed: ${result.killed.message}` : `exit ${result.exitCode ?? result.signal}`);
    },
  };
}

/** The server's process manager, or a tool error the model can read when there is none. */
export function requireProcessManager(ctx: ToolContext): ProcessManager {
  const processes = processManagerFrom(ctx.services);
  if (!processes) throw new ToolError("Commands are not available: the server has no process manager.");
  return processes;
}

/** The command on one line, shortened for titles. */
export function summarizeCommand(command: string, max: number): string {
  const flat = command.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 3)}...` : flat;
}

function lastLine(text: string): string {
  const line = text.trimEnd().split("\n").pop() ?? "";
  return line.length > 200 ? `${line.slice(0, 197)}...` : line;
}

function lastLines(text: string, count: number): string {
  return text.trimEnd().split("\n").slice(-count).join("\n");
}
