/**
 * task_update: changes one checklist item's status or text; the editor's checklist follows.
 */
import { z } from "zod";
import { lazySchema } from "../../util/lazy-schema.js";
import { formatChecklist, saveChecklist, TASK_STATUSES } from "./checklist.js";
import { sessionNoteTool } from "./report-updates.js";
import { defineTool, ToolError } from "../define-tool.js";
import { sessionToolsOf } from "./session-tools.js";

const input = lazySchema(() =>
  z
    .object({
      id: z.union([z.string().min(1), z.number().int()]).describe("The item's id, as task_list shows it."),
      status: z.enum(TASK_STATUSES).optional().describe("pending, in_progress or completed."),
      content: z.string().min(1).optional().describe("New text for the item."),
    })
    .refine((i) => i.status !== undefined || i.content !== undefined, { message: "give a status, a content, or both" }),
);

/** The task_update tool. */
export const taskUpdateTool = defineTool({
  name: "task_update",
  description:
    "Update one item of your checklist: set its status (pending, in_progress, completed) or its text. Mark an " +
    "item in_progress when you start it and completed as soon as it is done and verified.",
  input,
  ...sessionNoteTool("checklist"),
  liteDescription: "Set a checklist item's status (pending, in_progress, completed) or text.",
  help: {
    whenToUse: "Each time you start or finish a checklist item.",
    examples: ['{"id": "2", "status": "in_progress"}', '{"id": 3, "status": "completed"}'],
    failureModes: ["An id that is not on the checklist is refused with the list as it stands."],
  },
  title: (i) => `Checklist: item ${i.id}${i.status ? ` ${i.status.replace("_", " ")}` : ""}`,
  async execute(i, ctx) {
    const current = sessionToolsOf(ctx, "task_update").checklist(ctx.sessionId);
    const id = String(i.id);
    const index = current.findIndex((e) => e.id === id);
    if (index < 0) throw new ToolError(`There is no checklist item "${id}".\n${formatChecklist(current)}`);
    const entries = current.map((e, k) =>
      k === index ? { ...e, ...(i.status ? { status: i.status } : {}), ...(i.content ? { content: i.content } : {}) } : e,
    );
    return saveChecklist(ctx, "task_update", entries);
  },
});
