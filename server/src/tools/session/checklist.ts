/**
 * The checklist the checklist tools share: numbering, the text the model reads back, and the
 * `plan` update that shows it in the editor.
 */
import type { PlanEntry } from "../../protocol/updates.js";
import type { ToolContext } from "../types.js";
import { sessionToolsOf } from "./session-tools.js";

/** The statuses of a checklist item. */
export const TASK_STATUSES = ["pending", "in_progress", "completed"] as const;

/** Most items a checklist holds: a longer list is a plan to split, not a checklist. */
export const MAX_TASKS = 100;

/** The next free id: one more than the highest number in use. */
export function nextTaskId(entries: readonly PlanEntry[]): number {
  return entries.reduce((max, e) => Math.max(max, Number(e.id) || 0), 0) + 1;
}

/** Stores the list, shows it in the editor, and returns it as the model reads it. */
export function saveChecklist(ctx: ToolContext, tool: string, entries: PlanEntry[]): string {
  sessionToolsOf(ctx, tool).setChecklist(ctx.sessionId, entries);
  ctx.emit({ kind: "plan", entries });
  return formatChecklist(entries);
}

const MARK: Record<PlanEntry["status"], string> = { pending: "[ ]", in_progress: "[~]", completed: "[x]" };

/** The checklist as text: one line per item with its id and status. */
export function formatChecklist(entries: readonly PlanEntry[]): string {
  if (!entries.length) return "The checklist is empty. Add items with task_create.";
  const done = entries.filter((e) => e.status === "completed").length;
  const lines = entries.map((e) => `${MARK[e.status]} ${e.id ?? "?"}. ${e.content}${e.status === "in_progress" ? " (in progress)" : ""}`);
  return [`Checklist (${done} of ${entries.length} done):`, ...lines].join("\n");
}
