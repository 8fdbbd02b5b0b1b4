/**
 * background_process: read, wait for, stop and list the background jobs execute_command started
 * for this session. It reaches nothing else (no raw pids, no other session's jobs), so it is
 * read_only-class, `stop` included: it only stops what the agent itself started.
 */
import { z } from "zod";
import { lazySchema } from "../../util/lazy-schema.js";
import { describeStop, describeWaitEnd, formatJobList, formatJobOutput } from "../../exec/format.js";
import { UnknownProcessError, type ProcessManager } from "../../exec/processes.js";
import { defineTool, errorResult, ToolError } from "../define-tool.js";
import { requireProcessManager } from "./execute-command.js";

/** wait's timeout when the model names none. */
const DEFAULT_WAIT_SECS = 300;
/** The longest wait the model may ask for. */
const MAX_WAIT_SECS = 3600;

const input = lazySchema(() => z.object({
  action: z
    .enum(["read", "wait", "stop", "list"])
    .describe(
      "read: output since the last read (newest 32 KiB) and whether it still runs. " +
        "wait: block until it ends, `pattern` appears in new output, or timeout_secs pass; then read. " +
        "stop: stop it and every process it started. list: this session's background processes.",
    ),
  id: z.string().optional().describe('The id execute_command returned, such as "bg-1234" (not needed for list).'),
  pattern: z.string().optional().describe("wait only: a JavaScript regular expression (multiline) to wait for in new output."),
  timeout_secs: z
    .number()
    .positive()
    .max(MAX_WAIT_SECS)
    .optional()
    .describe(`wait only: most seconds to wait (default ${DEFAULT_WAIT_SECS}, max ${MAX_WAIT_SECS}).`),
}));

/** The background_process tool. */
export const backgroundProcessTool = defineTool({
  name: "background_process",
  description:
    'Manage background processes that execute_command started with mode "background" in this session: ' +
    "read their new output, wait for them (until they end, a pattern appears, or a timeout), stop them, or list them.",
  input,
  policyClass: "read_only",
  category: "system",
  help: {
    whenToUse: "To follow a server or watcher started by execute_command with mode background: read its new output, wait for a line, stop it, list them.",
    examples: ['{"action": "wait", "id": "bg-1234", "pattern": "listening on", "timeout_secs": 30}', '{"action": "read", "id": "bg-1234"}', '{"action": "list"}'],
    failureModes: ["An id that is not this session's background process is refused with the ids there are.", "wait times out: the output so far comes back; the process goes on."],
  },
  // stop ends a process: that changes state, even though it needs no approval.
  isMutating: true,
  title: (i) => (i.action === "list" ? "List background processes" : `${capitalize(i.action)} ${i.id ?? "background process"}`),
  async execute(i, ctx) {
    const processes = requireProcessManager(ctx);
    if (i.action === "list") return formatJobList(processes.list(ctx.sessionId));
    if (!i.id) throw new ToolError(`background_process ${i.action} needs an id. Call it with action "list" to see this session's processes.`);
    const id = i.id.trim();
    try {
      switch (i.action) {
        case "read": {
          const output = await processes.read(ctx.sessionId, id);
          return formatJobOutput(processes.info(ctx.sessionId, id), output, refusals(processes, ctx.sessionId, id, output.text));
        }
        case "wait": {
          const pattern = i.pattern === undefined ? undefined : compilePattern(i.pattern);
          const timeoutSecs = i.timeout_secs ?? DEFAULT_WAIT_SECS;
          const { end, output } = await processes.wait(ctx.sessionId, id, { pattern, timeoutMs: timeoutSecs * 1000, signal: ctx.signal });
          const heading = [describeWaitEnd(end, i.pattern, timeoutSecs), refusals(processes, ctx.sessionId, id, output.text)].filter(Boolean).join("\n");
          return formatJobOutput(processes.info(ctx.sessionId, id), output, heading);
        }
        case "stop": {
          const report = await processes.stop(ctx.sessionId, id, "stopped by background_process");
          const output = await processes.read(ctx.sessionId, id);
          const heading = report ? `${describeStop(report)}.` : "It had already ended.";
          return formatJobOutput(processes.info(ctx.sessionId, id), output, heading);
        }
      }
    } catch (err) {
      if (err instanceof UnknownProcessError) return errorResult(err.message);
      throw err;
    }
  },
});

/** What the sandbox refused the job, read from the output handed over (empty when nothing). */
function refusals(processes: ProcessManager, sessionId: string, id: string, output: string): string {
  return processes.explainJob(sessionId, id, output).join("\n");
}

function compilePattern(pattern: string): RegExp {
  try {
    return new RegExp(pattern, "m");
  } catch (err) {
    throw new ToolError(`pattern is not a valid regular expression: ${(err as Error).message}`);
  }
}

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
