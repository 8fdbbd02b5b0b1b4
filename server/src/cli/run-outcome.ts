/**
 * How an `agent-lsp run` ended, for its exit status and its `result` line: the final answer (the
 * last model call's text, or attempt_completion's result), the run's cost from its usage updates,
 * and the gated actions refused for want of someone to approve them.
 */
import type { TurnOutcome } from "../agent/agent.js";
import type { SessionEvents } from "../editor/session-events.js";
import type { ResultLine } from "../protocol/headless-stream.js";
import { EXIT_CANCELLED, EXIT_FAILED, EXIT_NEEDS_APPROVAL, EXIT_OK } from "./exit-codes.js";

/** Follows one session's events and keeps what its result reports. */
export class RunRecord {
  /** The current model call's text; a tool call in between starts a new one. */
  private answer = "";
  private afterOther = false;
  private completion: string | undefined;
  private cost: number | undefined;
  private readonly stop: () => void;

  constructor(events: SessionEvents, sessionId: string) {
    this.stop = events.subscribe((_id, event) => {
      // A subagent's words are its own, not the answer.
      if ("parentToolCallId" in event && event.parentToolCallId) return;
      if (event.kind === "text") {
        if (this.afterOther) this.answer = "";
        this.afterOther = false;
        this.answer += event.text;
      } else if (event.kind === "tool_call") this.afterOther = true;
      else if (event.kind === "completion") this.completion = event.result;
      else if (event.kind === "usage" && event.cost !== undefined) this.cost = (this.cost ?? 0) + event.cost;
    }, sessionId);
  }

  /** Text the run answered itself (a command's message): the final answer when the model gave none. */
  said(text: string): void {
    if (!this.answer && this.completion === undefined) this.answer = text;
  }

  /** The result line of a run that ended with `outcome`, `refused` gated actions refused on the way. */
  result(sessionId: string, outcome: TurnOutcome, refused: number): Omit<ResultLine, "schemaVersion"> {
    return {
      type: "result",
      sessionId,
      stopReason: outcome.stopReason,
      text: this.completion ?? this.answer,
      usage: outcome.usage,
      cost: this.cost ?? null,
      exitCode: exitCodeOf(outcome, refused),
      ...(outcome.error ? { error: outcome.error } : {}),
      ...(refused ? { refusedApprovals: refused } : {}),
    };
  }

  /** Stops following the session. */
  dispose(): void {
    this.stop();
  }
}

/** 0 ended normally, 130 cancelled, 3 when something needed an approval no one could give, else 1. */
export function exitCodeOf(outcome: TurnOutcome, refused: number): number {
  if (outcome.stopReason === "cancelled") return EXIT_CANCELLED;
  if (refused > 0) return EXIT_NEEDS_APPROVAL;
  return outcome.stopReason === "end_turn" ? EXIT_OK : EXIT_FAILED;
}
