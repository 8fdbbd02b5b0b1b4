/**
 * execute_command in the client's own terminal (ACP clients that declare `terminal`): the user
 * watches the command where they work. The limits of the exec layer still hold: the timeout and
 * a cancel kill it, the output is capped, and the result reads as a local run's does.
 */
import type { ClientTerminal, TerminalResult } from "../../editor/session-ui.js";
import { stripAnsi } from "../../exec/ansi.js";
import { formatSeconds } from "../../exec/runner.js";
import { errorResult } from "../define-tool.js";
import type { ToolContext, ToolResult } from "../types.js";

/** What to run. */
export interface TerminalCommand {
  command: string;
  cwd: string;
  timeoutMs: number;
  maxOutputBytes: number;
}

/** Runs `command` in the client's terminal; the result the model reads. */
export async function runInClientTerminal(ctx: ToolContext, terminal: ClientTerminal, command: TerminalCommand): Promise<ToolResult> {
  let result: TerminalResult;
  try {
    result = await terminal.run({ ...command, sessionId: ctx.sessionId, toolCallId: ctx.toolCallId, signal: ctx.signal });
  } catch (err) {
    return errorResult(`Could not start the command in the client's terminal: ${(err as Error).message}`);
  }
  return formatTerminalResult(result, command.timeoutMs);
}

function formatTerminalResult(r: TerminalResult, timeoutMs: number): ToolResult {
  const lines: string[] = [];
  if (r.killed === "timeout") lines.push(`Killed: it ran longer than ${formatSeconds(timeoutMs)} (in the client's terminal).`);
  else if (r.killed === "cancelled") lines.push("Killed: the turn was cancelled (in the client's terminal).");
  else if (r.exitCode === null && r.signal) lines.push(`Ended by signal ${r.signal} after ${formatSeconds(r.durationMs)}.`);
  else lines.push(`Exit code: ${r.exitCode} (${formatSeconds(r.durationMs)}, in the client's terminal)`);
  if (r.truncated) lines.push("Note: the output was cut to its end by the terminal's output limit.");
  lines.push("", stripAnsi(r.output) || "(no output)");
  return { isError: Boolean(r.killed) || r.exitCode !== 0, content: [{ type: "text", text: lines.join("\n") }] };
}
