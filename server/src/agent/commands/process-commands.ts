/**
 * The user's process controls through agent/command: `/logs [id]` and `/stop [id]`. They work on
 * the same per-session processes as the model's tools, so the user sees and stops what the agent
 * started in this session, and nothing else.
 */
import { describeStop, formatForegroundList, formatJobList, logNotes } from "../../exec/format.js";
import { UnknownProcessError, type ProcessManager, type StoppedProcess } from "../../exec/processes.js";
import type { SlashCommands } from "./slash-commands.js";

/** What the handlers need: whose processes, and the manager that has them. */
export interface ProcessCommandContext {
  sessionId: string;
  processes: ProcessManager;
}

/**
 * `/logs [id]`: without an id, the session's processes; with one, the newest 32 KiB of that
 * background process's output. Reading here does not change what the agent's next read returns.
 */
export async function logsCommand(args: string[], { sessionId, processes }: ProcessCommandContext): Promise<string> {
  const id = args[0]?.trim();
  if (!id) {
    const foreground = processes.foregroundOf(sessionId);
    const jobs = formatJobList(processes.list(sessionId));
    return foreground.length ? `${formatForegroundList(foreground)}\n${jobs}` : jobs;
  }
  const info = describeOrExplain(processes, sessionId, id);
  const { text, skippedBytes, log } = await processes.peek(sessionId, id);
  const head = `${info.id}: ${info.status}\n$ ${info.command}`;
  return [head, ...logNotes(skippedBytes, log, info.log), text || "(no output yet)"].join("\n");
}

/**
 * `/stop [id]`: stops one process of the session (a background id, or a foreground command's
 * fg-N id), or, without an id, everything the session runs. Says, per process, what the stop
 * ended and what survived it.
 */
export async function stopCommand(args: string[], { sessionId, processes }: ProcessCommandContext): Promise<string> {
  const id = args[0]?.trim();
  if (!id) {
    const stopped = await processes.stopSession(sessionId, "stopped by /stop");
    return stopped.length ? stopped.map(describeStopped).join("\n") : "Nothing was running in this session.";
  }
  const foreground = processes.killForeground(sessionId, "stop", id);
  if (foreground.length) {
    const stopped = await Promise.all(foreground.map(async (f) => ({ id: f.id, report: await f.settled })));
    return stopped.map(describeStopped).join("\n");
  }
  describeOrExplain(processes, sessionId, id);
  const report = await processes.stop(sessionId, id, "stopped by /stop");
  return report ? describeStopped({ id, report }) : `${id} had already ended (${processes.info(sessionId, id).status}).`;
}

/** `bg-1234: Stopped 3 processes with SIGTERM.` */
function describeStopped({ id, report }: StoppedProcess): string {
  return `${id}: ${report ? describeStop(report) : "it had ended by itself just before"}.`;
}

/** The job's description, or an error worded for the user (pointing at /logs, not at the tool). */
function describeOrExplain(processes: ProcessManager, sessionId: string, id: string): ReturnType<ProcessManager["info"]> {
  try {
    return processes.info(sessionId, id);
  } catch (err) {
    if (err instanceof UnknownProcessError) throw new Error(`No process "${id}" in this session. /logs lists them.`);
    throw err;
  }
}

/** Adds /logs and /stop to the server's slash-command table, working on `processes`. */
export function addProcessCommands(commands: SlashCommands, processes: ProcessManager): void {
  commands.add({
    name: "logs",
    usage: "logs [id]",
    summary: "The session's processes, or the newest output of one background process.",
    run: (args, session) => logsCommand(args, { sessionId: session.id, processes }),
  });
  commands.add({
    name: "stop",
    usage: "stop [id]",
    summary: "Stop one of the session's processes, or all of them.",
    run: (args, session) => stopCommand(args, { sessionId: session.id, processes }),
  });
}
