/**
 * The agent's side of the session tools (tools/session/session-tools.ts): the checklist kept in the
 * session, subagents, and spawned tasks.
 */
import type { PlanEntry } from "../../protocol/updates.js";
import type { SessionTools, SpawnedTask, SubagentOutcome, SubagentTask } from "../../tools/session/session-tools.js";
import type { Capability } from "../../tools/types.js";
import type { Agent } from "../agent.js";
import { offeredTools } from "../turn/tool-runner.js";
import { Subagents, type ParentCall } from "./subagents.js";

/** Session tools over an agent's sessions. */
export class AgentSessionTools implements SessionTools {
  private readonly subagents: Subagents;

  constructor(private readonly agent: Agent) {
    this.subagents = new Subagents(agent);
  }

  checklist(sessionId: string): PlanEntry[] {
    return this.agent.get(sessionId).checklist;
  }

  setChecklist(sessionId: string, entries: PlanEntry[]): void {
    this.agent.get(sessionId).setChecklist(entries);
  }

  offeredTools(sessionId: string): Capability[] {
    return offeredTools(this.agent.get(sessionId), this.agent.turnDeps());
  }

  runSubagents(call: ParentCall, tasks: SubagentTask[]): Promise<SubagentOutcome[]> {
    return this.subagents.run(call, tasks);
  }

  /**
   * A new session on the parent's project, mode and model, marked spawned (it may not spawn
   * tasks itself), with its first turn started on `prompt`. It is saved like any session, so
   * agent/listSessions lists it and agent/loadSession opens it.
   */
  async spawnTask(sessionId: string, prompt: string, title: string): Promise<SpawnedTask> {
    const parent = this.agent.get(sessionId);
    const info = this.agent.newSession({ cwd: parent.root, mode: parent.mode, model: parent.model, spawned: true });
    await this.agent.startTurn({ sessionId: info.sessionId, prompt });
    return { sessionId: info.sessionId, title };
  }
}
