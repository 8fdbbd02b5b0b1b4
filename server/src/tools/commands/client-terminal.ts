/**
 * execute_command in the client's own terminal (ACP clients that declare `terminal`): the user
 * watches the command where they work. The limits of the exec layer still hold: the timeout and
 * a cancel kill it, the output is capped, and the result reads as a local run's does.
 */
import type { ClientTerminal, TerminalResult } from "../../editor/session-ui.js";
import { stripAnsi } from "../../exec/ansi.js";
import { formatSeconds } from "../../exec/runner.js";
import type { Launch } from "../../exec/sandbox/sandbox.js";
import { describeOutcome } from "../../exec/sandbox/settings.js";
import { errorResult } from "../define-tool.js";
import type { ToolContext, ToolResult } from "../types.js";

/** What to run. */
export interface TerminalCommand {
  command: string;
  cwd: string;
  timeoutMs: number;
  maxOutputBytes: number;
}

/**
 * Runs `command` in the client's terminal, through the sandbox like a local run (the client
 * starts the sandbox's program line); the result the model reads.
 */
export async function runInClientTerminal(ctx: ToolContext, terminal: ClientTerminal, command: TerminalCommand, launch: Launch): Promise<ToolResult> {
  let result: TerminalResult;
  try {
    const program = { file: launch.file, args: launch.args, env: launch.env };
    result = await terminal.run({ ...command, program, sessionId: ctx.sessionId, toolCallId: ctx.toolCallId, signal: ctx.signal });
  } catch (err) {
    return errorResult(`Could not start the command in the client's terminal: ${(err as Error).message}`);
  } finally {
    launch.release();
  }
  return formatTerminalResult(result, command.timeoutMs, describeOutcome(launch.outcome), launch.explain(stripAnsi(result.output)));
}

function formatTerminalResult(r: TerminalResult, timeoutMs: number, sandbox: string, refusals: readonly string[]): ToolResult {
  const lines: string[] = [];
  if (r.killed === "timeout") lines.push(`Killed: it ran longer than ${formatSeconds(timeoutMs)} (in the client's terminal, ${sandbox}).`);
  else if (r.killed === "cancelled") lines.push(`Killed: the turn was cancelled (in the client's terminal, ${sandbox}).`);
  else if (r.exitCode === null && r.signal) lines.push(`Ended by signal ${r.signal} after ${formatSeconds(r.durationMs)} (${sandbox}).`);
  else lines.push(`Exit code: ${r.exitCode} (${formatSeconds(r.durationMs)}, in the client's terminal, ${sandbox})`);
  lines.push(...refusals);
  if (r.truncated) lines.push("Note: the output was cut to its end by the terminal's output limit.");
  lines.push("", stripAnsi(r.output) || "(no output)");
  return { isError: Boolean(r.killed) || r.exitCode !== 0, content: [{ type: "text", text: lines.join("\n") }] };
}
