/**
 * kill_command: stops a foreground command that is still running for this session, with every
 * process it started. read_only-class: it can only stop what the agent itself started.
 */
import { z } from "zod";
import { lazySchema } from "../../util/lazy-schema.js";
import { describeStop } from "../../exec/format.js";
import type { StopReport } from "../../exec/stop-tree.js";
import { defineTool, errorResult } from "../define-tool.js";
import { requireProcessManager, summarizeCommand } from "./execute-command.js";

const input = lazySchema(() => z.object({
  id: z
    .string()
    .optional()
    .describe("Which foreground command: its id (fg-N) or the tool call id of its execute_command. Default: every one still running."),
}));

/** The kill_command tool. */
export const killCommandTool = defineTool({
  name: "kill_command",
  description:
    "Stop a foreground command started by execute_command that is still running in this session, with every process it started. " +
    "For background processes use background_process with action stop.",
  input,
  policyClass: "read_only",
  category: "system",
  help: {
    whenToUse: "To stop a foreground command of this session that hangs or runs too long; background processes are stopped with background_process.",
    examples: ["{}", '{"id": "cmd-2"}'],
    failureModes: ["No command of this session is running: the result says so."],
  },
  isMutating: true,
  title: (i) => (i.id ? `Kill ${i.id}` : "Kill the running command"),
  async execute(i, ctx) {
    const processes = requireProcessManager(ctx);
    const killed = processes.killForeground(ctx.sessionId, "kill_command", i.id?.trim() || undefined);
    if (!killed.length) {
      return i.id
        ? errorResult(`No foreground command "${i.id}" is running in this session.`)
        : "No foreground command is running in this session.";
    }
    const reports = await Promise.all(killed.map((k) => k.settled));
    return killed.map((k, i) => `Killed ${k.id} ($ ${summarizeCommand(k.command, 80)}): ${stopSentence(reports[i])}`).join("\n");
  },
});

/** What killing one command ended, as a sentence. */
function stopSentence(report: StopReport | undefined): string {
  return report ? `${describeStop(report)}.` : "it had ended by itself just before.";
}
