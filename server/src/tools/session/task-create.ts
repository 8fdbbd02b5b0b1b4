/**
 * task_create: adds items to the session's checklist, which the editor shows at the top of the
 * chat (`plan` updates) and a resumed session keeps.
 */
import { z } from "zod";
import { lazySchema } from "../../util/lazy-schema.js";
import type { PlanEntry } from "../../protocol/updates.js";
import { MAX_TASKS, nextTaskId, saveChecklist } from "./checklist.js";
import { sessionNoteTool } from "./report-updates.js";
import { defineTool, ToolError } from "../define-tool.js";
import { sessionToolsOf } from "./session-tools.js";

const input = lazySchema(() => z.object({
  tasks: z.array(z.string().min(1)).min(1).max(50).describe("The items to add, in order; each one concrete step."),
}));

/** The task_create tool. */
export const taskCreateTool = defineTool({
  name: "task_create",
  description:
    "Add items to your checklist for this task (shown to the user at the top of the chat). Use it for work of " +
    "three steps or more, before you start; then mark each item in_progress and completed with task_update as you go.",
  input,
  ...sessionNoteTool("checklist"),
  liteDescription: "Add items to your checklist (shown to the user).",
  help: {
    whenToUse: "At the start of work with several steps, or when new steps turn up; not for a one-step task.",
    examples: ['{"tasks": ["Find where the config is parsed", "Add the timeout key", "Run the config tests"]}'],
    failureModes: [`More than ${MAX_TASKS} items in all is refused: finish or replace items first (change_todo_list).`],
  },
  title: (i) => `Checklist: add ${i.tasks.length} item${i.tasks.length === 1 ? "" : "s"}`,
  async execute(i, ctx) {
    const current = sessionToolsOf(ctx, "task_create").checklist(ctx.sessionId);
    if (current.length + i.tasks.length > MAX_TASKS) {
      throw new ToolError(`The checklist would have ${current.length + i.tasks.length} items; at most ${MAX_TASKS}. Complete or replace items (change_todo_list) first.`);
    }
    let id = nextTaskId(current);
    const added: PlanEntry[] = i.tasks.map((content) => ({ id: String(id++), content, status: "pending" }));
    return saveChecklist(ctx, "task_create", [...current, ...added]);
  },
});
