/**
 * The services the skill tools reach, filled in by the server: a restricted sub-turn (the agent
 * runs it on its own turn loop) and the one-time approval of project skills (policy). Tools
 * cannot import the agent, so they find these by name in ToolServices.
 */
import type { Skill } from "../../knowledge/skills.js";
import type { ToolServices } from "../types.js";

/** A turn run inside a tool call, on the caller's session, offered only some tools. */
export interface SubTurnRequest {
  /** The sub-turn's prompt (the user message it starts from). */
  prompt: string;
  /** The only tools it is offered (and may run); undefined: the session's own set. */
  allowedTools?: readonly string[];
  /** Tools it is never offered (the caller itself, so a sub-turn cannot recurse). */
  excludedTools?: readonly string[];
  /** Names its log: `<conversations>/<session>/<label>-<time>.jsonl`. */
  label: string;
}

/** How a sub-turn ended. */
export interface SubTurnResult {
  /** The sub-turn's last answer text. */
  text: string;
  stopReason: string;
  error?: string;
}

/** Runs sub-turns. */
export interface SubTurns {
  run(sessionId: string, request: SubTurnRequest, signal: AbortSignal): Promise<SubTurnResult>;
}

/** Approves project skills once. */
export interface SkillApprover {
  /** Undefined when the skill may be used (a user skill, or one approved before or now), else why not. */
  approve(skill: Skill, need: { sessionId: string; root: string }, signal: AbortSignal): Promise<string | undefined>;
}

export const SUB_TURN_SERVICE = "subTurns";
export const SKILL_APPROVAL_SERVICE = "skillApproval";

/** The sub-turn runner, or undefined where the server wired none (`agent-lsp tool`). */
export function subTurnsFrom(services: ToolServices): SubTurns | undefined {
  return services[SUB_TURN_SERVICE] as SubTurns | undefined;
}

/** The skill approver, or undefined where the server wired none. */
export function skillApproverFrom(services: ToolServices): SkillApprover | undefined {
  return services[SKILL_APPROVAL_SERVICE] as SkillApprover | undefined;
}
