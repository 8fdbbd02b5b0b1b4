/**
 * spawn_task: starts an independent new session on the same project, working on a prompt the
 * model writes, once the user approves it in an editor prompt showing that prompt. The editor is
 * told the new session's id (a `task_spawned` update) so the user can open it.
 */
import { z } from "zod";
import { lazySchema } from "../../util/lazy-schema.js";
import { defineTool, errorResult } from "../define-tool.js";
import { sessionToolsOf } from "./session-tools.js";
import { askApproval, declinedText } from "../user-approval.js";

const input = lazySchema(() => z.object({
  prompt: z.string().min(1).describe("The new task's whole prompt: it starts with none of this conversation."),
  title: z.string().min(1).max(80).optional().describe("A short name for the task (default: the prompt's first line)."),
}));

/** The spawn_task tool. */
export const spawnTaskTool = defineTool({
  name: "spawn_task",
  description:
    "Start an independent new task (a session of its own, in this project) with a prompt you write, after the user approves it. " +
    "It runs on its own; you do not get its result. Use it for separate work the user should follow apart from this task.",
  input,
  policyClass: "external_api",
  callKind: "other",
  category: "delegation",
  isMutating: true,
  help: {
    whenToUse: "For follow-up work outside this task (a refactor noticed on the way, a second bug). For help with this task use agent or use_subagents.",
    examples: ['{"prompt": "Upgrade vitest to 4.x in this repo and fix what breaks; run npm test.", "title": "Upgrade vitest"}'],
    failureModes: ["The user declines: nothing is started.", "Not available inside subagents or spawned tasks."],
  },
  title: (i) => `New task: ${i.title ?? firstLine(i.prompt)}`,
  async execute(i, ctx) {
    const tools = sessionToolsOf(ctx, "spawn_task");
    const title = i.title ?? firstLine(i.prompt);
    const answer = await askApproval(ctx, {
      tool: "spawn_task",
      title: `New task: ${title}`,
      input: i,
      summary: `Start a new task "${title}" in its own session, with this prompt:\n${i.prompt}`,
    });
    if (ctx.signal.aborted) return errorResult("Cancelled before the user answered; no task was started.");
    if (!answer.approved) return errorResult(declinedText(`starting the task "${title}"`, answer));
    const spawned = await tools.spawnTask(ctx.sessionId, i.prompt, title);
    ctx.emit({ kind: "task_spawned", sessionId: spawned.sessionId, title });
    return `Started the task "${title}" as session ${spawned.sessionId}; it runs on its own and the user can open it.`;
  },
});

function firstLine(text: string): string {
  const line = text.trim().split("\n")[0] ?? "";
  return line.length > 60 ? `${line.slice(0, 57)}...` : line;
}
