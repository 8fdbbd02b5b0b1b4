/**
 * What the session tools (the checklist, subagents, spawn_task) need from the agent that runs
 * them. The agent puts one into `ToolContext.services`; tools run without it in the headless
 * `tool` command and unit tests, where these tools say they need a session.
 */
import type { PlanEntry } from "../../protocol/updates.js";
import { ToolError } from "../define-tool.js";
import type { Capability, ToolContext } from "../types.js";

/** The key of the session tools in `ToolContext.services`. */
export const SESSION_TOOLS_SERVICE = "sessionTools";

/** One delegated task. */
export interface SubagentTask {
  /** Everything the subagent needs to know: it sees nothing of the parent's conversation. */
  prompt: string;
  /** A few words for the editor's list. */
  description?: string;
}

/** How a subagent's run ended: its final answer, or why it has none. */
export interface SubagentOutcome {
  isError: boolean;
  text: string;
}

/** A session spawn_task started. */
export interface SpawnedTask {
  sessionId: string;
  title: string;
}

/** The agent's side of the session tools. */
export interface SessionTools {
  /** The session's checklist. */
  checklist(sessionId: string): PlanEntry[];
  /** Replaces the session's checklist (logged, so a resumed session has it). */
  setChecklist(sessionId: string, entries: PlanEntry[]): void;
  /** Runs subagents for the call `toolCallId` (at most `[subagents] max_concurrent` at once). */
  runSubagents(call: { sessionId: string; toolCallId: string; signal: AbortSignal }, tasks: SubagentTask[]): Promise<SubagentOutcome[]>;
  /** The tools the session is offered (its mode, trust and profile), as the model sees them. */
  offeredTools(sessionId: string): Capability[];
  /** Starts a new session on the same project working on `prompt`; resolves once it runs. */
  spawnTask(sessionId: string, prompt: string, title: string): Promise<SpawnedTask>;
}

/** The session tools, or a ToolError saying the tool needs a session. */
export function sessionToolsOf(ctx: ToolContext, tool: string): SessionTools {
  const tools = ctx.services[SESSION_TOOLS_SERVICE] as SessionTools | undefined;
  if (!tools) throw new ToolError(`${tool} needs an agent session (it cannot run on its own, as in \`agent-lsp tool\`).`);
  return tools;
}
