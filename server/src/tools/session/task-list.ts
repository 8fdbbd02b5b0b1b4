/** task_list: the session's checklist as it stands. */
import { z } from "zod";
import { lazySchema } from "../../util/lazy-schema.js";
import { formatChecklist } from "./checklist.js";
import { sessionNoteTool } from "./report-updates.js";
import { defineTool } from "../define-tool.js";
import { sessionToolsOf } from "./session-tools.js";

/** The task_list tool. */
export const taskListTool = defineTool({
  name: "task_list",
  description: "Show your checklist for this task: each item's id, text and status.",
  input: lazySchema(() => z.object({})),
  ...sessionNoteTool("checklist"),
  help: {
    whenToUse: "To see where you stand after a long stretch of work or after the session was resumed.",
    examples: ["{}"],
    failureModes: ["None: an empty checklist says so."],
  },
  title: () => "Checklist",
  async execute(_i, ctx) {
    return formatChecklist(sessionToolsOf(ctx, "task_list").checklist(ctx.sessionId));
  },
});
