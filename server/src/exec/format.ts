/**
 * How process state reads, for the model (tool results) and the user (/logs, /stop) alike.
 */
import type { JobOutput, LogState, WaitEnd } from "./background-job.js";
import type { ForegroundInfo, JobInfo } from "./processes.js";
import type { StopReport } from "./stop-tree.js";

/** One line per job, or a sentence when there are none. */
export function formatJobList(jobs: readonly JobInfo[], now = Date.now()): string {
  if (!jobs.length) return "No background processes in this session.";
  return jobs
    .map((j) => `${j.id}  ${j.status}  started ${formatAge(now - j.startedAt)} ago  log ${j.log}\n    $ ${oneLine(j.command)}`)
    .join("\n");
}

/** One line per running foreground command. */
export function formatForegroundList(commands: readonly ForegroundInfo[], now = Date.now()): string {
  return commands.map((c) => `${c.id}  running for ${formatAge(now - c.startedAt)} (foreground)\n    $ ${oneLine(c.command)}`).join("\n");
}

/** The output part of a read or wait: what was skipped, then the text. */
export function formatJobOutput(job: JobInfo, output: JobOutput, heading: string): string {
  const lines = [`${job.id}: ${job.status}`, heading, ...logNotes(output.skippedBytes, output.log, job.log)];
  lines.push(output.text ? output.text : "(no new output)");
  return lines.filter(Boolean).join("\n");
}

/**
 * What a read or /logs leaves out, in words: bytes not shown, the log's cap once it dropped
 * anything (so nobody takes the file for the whole output), and why the log stopped, if it did.
 */
export function logNotes(skippedBytes: number, log: LogState, path: string): string[] {
  const notes: string[] = [];
  const cap = `the log keeps the newest ${formatMib(log.capBytes)} of output ([exec] background_log_max_mb)`;
  if (log.droppedBytes > 0) notes.push(`[... ${skippedBytes} earlier bytes not shown; ${cap}: ${log.droppedBytes} older bytes were dropped from ${path}]`);
  else if (skippedBytes > 0) notes.push(`[... ${skippedBytes} earlier bytes not shown; the whole log is ${path}, and ${cap}]`);
  if (log.problem) notes.push(`[${log.problem}]`);
  return notes;
}

/** `64 MB`, `0.5 MB`. */
function formatMib(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  return `${Number.isInteger(mib) ? mib : mib.toFixed(1)} MB`;
}

/** Why a wait returned, in words. */
export function describeWaitEnd(end: WaitEnd, pattern: string | undefined, timeoutSecs: number): string {
  switch (end) {
    case "pattern":
      return `Wait ended: the pattern /${pattern}/ appeared in new output.`;
    case "exited":
      return "Wait ended: the process ended.";
    case "timeout":
      return `Wait ended: ${timeoutSecs} s passed${pattern ? ` without /${pattern}/ in new output` : ""}; it still runs.`;
    case "cancelled":
      return "Wait ended: cancelled by the user.";
  }
}

/** `42 s`, `3 min`, `2 h`. */
function formatAge(ms: number): string {
  const secs = Math.max(Math.round(ms / 1000), 0);
  if (secs < 120) return `${secs} s`;
  if (secs < 7200) return `${Math.round(secs / 60)} min`;
  return `${Math.round(secs / 3600)} h`;
}

function oneLine(command: string): string {
  const flat = command.replace(/\s*\n\s*/g, " ; ");
  return flat.length > 120 ? `${flat.slice(0, 117)}...` : flat;
}

/**
 * What a stop did, as one sentence without the final period: how many processes it ended and
 * with which signals, how many of them had left the command's process group, and every pid
 * it could not end. Never claims more than the report shows.
 */
export function describeStop(report: StopReport, platform: NodeJS.Platform = process.platform): string {
  const signals = report.escalated ? "SIGTERM, then SIGKILL" : "SIGTERM";
  let text: string;
  if (!report.counted && platform === "win32") {
    text = "Ended its process tree with taskkill /T /F (processes that left the tree were not looked for)";
  } else if (!report.counted) {
    text = `Signalled its process group with ${signals} (this system has no /proc, so processes that left the group were not looked for)`;
  } else if (report.stopped.length === 0) {
    text = report.survivors.length ? "Stopped nothing" : "Nothing of it was still running";
  } else {
    const left = report.leftGroup.length;
    const including = left ? ` (including ${left} that had left the command's process group)` : "";
    text = `Stopped ${plural(report.stopped.length, "process", "processes")}${including} with ${signals}`;
  }
  if (!report.survivors.length) return text;
  const list = report.survivors.map((s) => `pid ${s.pid} (${s.why})`).join(", ");
  return `${text}; still running: ${list}`;
}

/**
 * The log line of a shutdown's stop, or undefined when it had nothing to stop (a second stop
 * after dispose finds nothing, and says nothing).
 */
export function describeShutdownStop(report: StopReport | void): string | undefined {
  if (!report || (!report.stopped.length && !report.survivors.length)) return undefined;
  return `agent-lsp shutdown: ${describeStop(report)}.`;
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}
