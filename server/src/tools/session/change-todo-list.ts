/**
 * change_todo_list: proposes a whole new checklist in place of the current one. The user sees
 * the change as a diff in an editor prompt, and nothing changes unless they approve it.
 */
import { z } from "zod";
import { lazySchema } from "../../util/lazy-schema.js";
import type { PlanEntry } from "../../protocol/updates.js";
import { unifiedDiff } from "../../workspace/diff.js";
import { formatChecklist, MAX_TASKS, saveChecklist, TASK_STATUSES } from "./checklist.js";
import { sessionNoteTool } from "./report-updates.js";
import { defineTool, errorResult } from "../define-tool.js";
import { sessionToolsOf } from "./session-tools.js";
import { askApproval, declinedText } from "../user-approval.js";

const item = z.union([
  z.string().min(1),
  z.object({ content: z.string().min(1), status: z.enum(TASK_STATUSES).optional().describe("Default pending.") }),
]);

const input = lazySchema(() => z.object({
  tasks: z.array(item).min(1).max(MAX_TASKS).describe("The whole new list, in order. Each a string, or {content, status}."),
  reason: z.string().min(1).optional().describe("Why the list changes, in a sentence, for the user."),
}));

/** The change_todo_list tool. */
export const changeTodoListTool = defineTool({
  name: "change_todo_list",
  description:
    "Replace your whole checklist with a new one, after the user approves it in the editor. Use it when the plan " +
    "changed (steps added, dropped, reordered); for one item use task_update.",
  input,
  ...sessionNoteTool("checklist"),
  help: {
    whenToUse: "When the task turned out differently and several checklist items change at once.",
    examples: ['{"tasks": ["Reproduce the bug", {"content": "Read the parser", "status": "completed"}, "Fix the off-by-one"], "reason": "The bug is in the parser, not the lexer"}'],
    failureModes: ["The user declines: the checklist stays as it was; carry on with it or ask what they want."],
  },
  title: (i) => `Replace the checklist (${i.tasks.length} item${i.tasks.length === 1 ? "" : "s"})`,
  async execute(i, ctx) {
    const current = sessionToolsOf(ctx, "change_todo_list").checklist(ctx.sessionId);
    const proposed: PlanEntry[] = i.tasks.map((t, k) =>
      typeof t === "string" ? { id: String(k + 1), content: t, status: "pending" } : { id: String(k + 1), content: t.content, status: t.status ?? "pending" },
    );
    const answer = await askApproval(ctx, {
      tool: "change_todo_list",
      title: `Replace the checklist (${proposed.length} items)`,
      input: i,
      summary: `Replace the checklist: ${current.length} item(s) become ${proposed.length}${i.reason ? `. ${i.reason}` : ""}`,
      diff: unifiedDiff("checklist", "checklist", `${formatChecklist(current)}\n`, `${formatChecklist(proposed)}\n`).text,
    });
    if (ctx.signal.aborted) return errorResult("Cancelled before the user answered; the checklist is unchanged.");
    if (!answer.approved) return errorResult(`${declinedText("the new checklist", answer)}\n${formatChecklist(current)}`);
    return `The user approved the new checklist.\n${saveChecklist(ctx, "change_todo_list", proposed)}`;
  },
});
