/**
 * Subagents (`agent`, `use_subagents`): the same turn loop on a fresh context, working for a
 * parent session's tool call. A subagent has the parent's mode and model (or the session's
 * `subagent` model route), the parent's tool
 * classes minus `read_write` and `gui_control` (trust "subagent"), no delegation, checklist or
 * reporting tools, its own turn limit (`[subagents] max_turns`) and the parent's abort signal, so
 * a cancel stops every child. Its updates reach the parent's stream tagged with the parent's
 * tool call id; its tokens count towards the parent session's totals. At most
 * `[subagents] max_concurrent` run at once across the server; the rest wait for a slot.
 */
import { SessionEvents } from "../../editor/session-events.js";
import type { Trust } from "../../policy/types.js";
import type { SubagentOutcome, SubagentTask } from "../../tools/session/session-tools.js";
import type { Agent } from "../agent.js";
import { HistoryLog } from "../history/history-log.js";
import { Session } from "../session.js";
import { runTurn, type TurnResult } from "../turn/turn.js";

/** Tool categories a subagent is never offered: it cannot delegate, keep the checklist or end the parent's turn. */
const WITHHELD_CATEGORIES = ["delegation", "checklist", "reporting"];

/** Folder (under the conversations folder) of subagents' logs: kept, but not listed as sessions. */
const SUBAGENT_LOGS = "subagents";

/** The call a batch of subagents works for. */
export interface ParentCall {
  sessionId: string;
  toolCallId: string;
  signal: AbortSignal;
}

/** Runs subagents for the agent's sessions, within the concurrency cap. */
export class Subagents {
  private active = 0;
  /** Wake-ups of runs waiting for a slot, oldest first. */
  private readonly waiting = new Set<() => void>();

  constructor(private readonly agent: Agent) {}

  /** Runs every task (concurrently up to the cap); one outcome per task, in order. Never throws. */
  run(call: ParentCall, tasks: SubagentTask[]): Promise<SubagentOutcome[]> {
    const parent = this.agent.get(call.sessionId);
    return Promise.all(tasks.map((task, i) => this.inSlot(call.signal, () => this.runOne(parent, call, i + 1, task))));
  }

  private async inSlot(signal: AbortSignal, work: () => Promise<SubagentOutcome>): Promise<SubagentOutcome> {
    if (!(await this.acquire(signal))) return { isError: true, text: "Cancelled before this subagent started." };
    try {
      return await work();
    } catch (err) {
      return { isError: true, text: `The subagent failed: ${(err as Error).message}` };
    } finally {
      this.release();
    }
  }

  /** Waits for a free slot; false when cancelled first. */
  private async acquire(signal: AbortSignal): Promise<boolean> {
    while (this.active >= this.agent.deps.config().subagents.max_concurrent) {
      if (signal.aborted) return false;
      await new Promise<void>((resolve) => {
        const wake = () => {
          signal.removeEventListener("abort", wake);
          this.waiting.delete(wake);
          resolve();
        };
        this.waiting.add(wake);
        signal.addEventListener("abort", wake, { once: true });
      });
    }
    if (signal.aborted) return false;
    this.active += 1;
    return true;
  }

  private release(): void {
    this.active -= 1;
    const next = this.waiting.values().next();
    if (!next.done) next.value();
  }

  private async runOne(parent: Session, call: ParentCall, index: number, task: SubagentTask): Promise<SubagentOutcome> {
    const child = this.childOf(parent, call, index);
    const events = new SessionEvents();
    // The child acts as its parent's session (the gate asks about its commands in the parent's
    // name); its updates go out on the parent's stream, tagged so the editor nests them.
    const forward = events.subscribe((_id, event) => {
      if (event.kind !== "turn_end") this.agent.deps.events.emit(parent.id, { ...event, parentToolCallId: call.toolCallId, subagent: index });
    });
    try {
      const deps = this.agent.turnDeps({ events, maxTurns: this.agent.deps.config().subagents.max_turns });
      const result = await runTurn(child, [{ type: "text", text: task.prompt }], deps, call.signal);
      return outcomeOf(result, child);
    } finally {
      parent.addDelegatedUsage(child.usage, child.cost);
      forward();
      child.log.close();
    }
  }

  private childOf(parent: Session, call: ParentCall, index: number): Session {
    const logId = `${parent.id}.${call.toolCallId.replace(/[^A-Za-z0-9_-]/g, "_")}.${index}`;
    // The session's subagent route (model_routing_config, /model subagent) when one is set.
    const model = parent.modelRoutes.subagent ?? parent.model;
    const log = HistoryLog.create(
      parent.root,
      { type: "session", sessionId: logId, created: new Date().toISOString(), cwd: parent.root, mode: parent.mode, model },
      SUBAGENT_LOGS,
    );
    const child = new Session(parent.id, parent.workspace, log, { mode: parent.mode, model });
    child.trust = subagentTrust(parent.trust);
    for (const category of WITHHELD_CATEGORIES) child.withheldCategories.add(category);
    return child;
  }
}

/** A subagent of the operator gets the subagent's classes; of anyone else, no more than they had. */
function subagentTrust(parent: Trust): Trust {
  return parent === "operator" ? "subagent" : parent;
}

/** The subagent's final answer, or why it has none (an error is a result the parent reads, not a crash). */
function outcomeOf(result: TurnResult, child: Session): SubagentOutcome {
  const answer = lastAnswer(child);
  if (result.stopReason === "error") return { isError: true, text: `The subagent failed: ${result.error ?? "unknown error"}${answer ? `\nIts last words: ${answer}` : ""}` };
  if (result.stopReason === "cancelled") return { isError: true, text: "The subagent was cancelled." };
  if (result.stopReason === "max_turns") return { isError: true, text: `The subagent reached its turn limit before finishing.${answer ? ` Its last answer:\n${answer}` : ""}` };
  return { isError: false, text: answer || "(The subagent ended without an answer.)" };
}

/** The text of the child's last assistant message. */
function lastAnswer(child: Session): string {
  for (let i = child.history.length - 1; i >= 0; i--) {
    const message = child.history[i]!;
    if (message.role !== "assistant") continue;
    const text = message.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("").trim();
    if (text) return text;
  }
  return "";
}
