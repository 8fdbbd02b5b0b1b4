/**
 * A sub-turn: a turn run inside a tool call (skill_run), on the ordinary turn loop, with a
 * history of its own and a narrower tool set. It shares the caller's session id, so its tool
 * calls, approvals and progress show in the caller's chat and pass the same gate, mode and trust;
 * its messages go to a log of their own beside the session's. Written so that any runner of
 * restricted turns (subagents) can share it: nothing here knows about skills.
 */
import type { ToolGate } from "../../policy/types.js";
import type { SubTurnRequest, SubTurnResult } from "../../tools/knowledge/skill-services.js";
import { addUsage, type Message } from "../../vocabulary/messages.js";
import { HistoryLog } from "../history/history-log.js";
import { Session } from "../session.js";
import { runTurn, type TurnDeps } from "../turn/turn.js";

/** Runs `request` as a sub-turn of `parent`; never throws (a failure is the result's stopReason). */
export async function runSubTurn(parent: Session, request: SubTurnRequest, deps: TurnDeps, signal: AbortSignal): Promise<SubTurnResult> {
  const child = new Session(parent.id, parent.workspace, childLog(parent, request.label), {
    mode: parent.mode,
    model: parent.modelRoutes.subagent ?? parent.model,
    activatedTools: [...parent.activatedTools],
  });
  child.trust = parent.trust;
  child.focusFile = parent.focusFile;
  try {
    const end = await runTurn(child, [{ type: "text", text: request.prompt }], { ...deps, gate: restrictedGate(deps.gate, request) }, signal);
    parent.usage = addUsage(parent.usage, end.usage);
    parent.cost += child.cost;
    return { text: lastAnswer(child.history), stopReason: end.stopReason, ...(end.error ? { error: end.error } : {}) };
  } finally {
    child.log.close();
  }
}

/** A gate offering only the request's tools; everything else is the caller's gate unchanged. */
export function restrictedGate(gate: ToolGate, limits: Pick<SubTurnRequest, "allowedTools" | "excludedTools">): ToolGate {
  return {
    filter: (session) => {
      const base = gate.filter(session);
      return {
        ...base,
        ...(limits.allowedTools ? { allowedTools: [...limits.allowedTools] } : {}),
        excludedNames: [...(base.excludedNames ?? []), ...(limits.excludedTools ?? [])],
      };
    },
    check: (...args) => gate.check(...args),
    checkBatch: (...args) => gate.checkBatch(...args),
    authorize: (...args) => gate.authorize(...args),
  };
}

/** The sub-turn's log, in a folder named after the session (not listed as a session of its own). */
function childLog(parent: Session, label: string): HistoryLog {
  const safe = label.replace(/[^\w.-]/g, "_");
  return HistoryLog.beside(parent.root, parent.log, parent.id, `${safe}-${Date.now().toString(36)}`);
}

/** The text of the last assistant message that has any. */
function lastAnswer(history: readonly Message[]): string {
  for (let i = history.length - 1; i >= 0; i--) {
    const m = history[i]!;
    if (m.role !== "assistant") continue;
    const text = m.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("");
    if (text.trim()) return text.trim();
  }
  return "";
}
