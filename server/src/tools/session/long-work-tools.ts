/**
 * The tools for long work, for the server to register together: the checklist, reporting
 * without ending the turn, subagents, spawned tasks, and tool_help.
 */
import { agentTool } from "./agent-tool.js";
import { attemptCompletionTool } from "./attempt-completion.js";
import { changeTodoListTool } from "./change-todo-list.js";
import { phaseReportTool } from "./phase-report.js";
import { spawnTaskTool } from "./spawn-task.js";
import { taskCreateTool } from "./task-create.js";
import { taskListTool } from "./task-list.js";
import { taskUpdateTool } from "./task-update.js";
import { toolHelpTool } from "./tool-help.js";
import type { Capability } from "../types.js";
import { useSubagentsTool } from "./use-subagents.js";
import { workingRespondTool } from "./working-respond.js";

/** Every long-work tool; they need the agent's session tools service (tools/session/session-tools.ts). */
export const longWorkTools: Capability[] = [
  taskCreateTool,
  taskUpdateTool,
  taskListTool,
  changeTodoListTool,
  workingRespondTool,
  phaseReportTool,
  attemptCompletionTool,
  agentTool,
  useSubagentsTool,
  spawnTaskTool,
  toolHelpTool,
];
