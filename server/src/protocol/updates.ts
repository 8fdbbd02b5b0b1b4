/**
 * The `agent/update` notification payloads: everything a turn streams to the editor.
 * Shapes follow the Agent Client Protocol's session updates where it has one.
 */

/** Status of a tool call as the editor shows it. */
export type ToolCallStatus = "pending" | "running" | "completed" | "failed";

/** One entry of a plan/checklist. */
export interface PlanEntry {
  content: string;
  status: "pending" | "in_progress" | "completed";
  priority?: "high" | "medium" | "low";
}

/** A single streamed update. */
export type SessionUpdate =
  | { kind: "user_message"; text: string }
  | { kind: "text"; text: string }
  | { kind: "thought"; text: string }
  | {
      kind: "tool_call";
      id: string;
      name: string;
      title: string;
      input: unknown;
      status: ToolCallStatus;
    }
  | {
      kind: "tool_call_update";
      id: string;
      status: ToolCallStatus;
      /** A short summary of the result (first lines, capped). */
      output?: string;
      /** Unified diff of the change the tool made, when it changed files. */
      diff?: string;
    }
  | { kind: "plan"; entries: PlanEntry[] }
  | {
      kind: "usage";
      inputTokens: number;
      outputTokens: number;
      cachedTokens: number;
      /** Estimated cost in US dollars of this turn, when the model's price is known. */
      cost?: number;
      /** Cumulative over the session. */
      sessionCost?: number;
    }
  | { kind: "status"; text: string }
  | { kind: "error"; message: string };

/** Params of the `agent/update` notification. */
export interface UpdateParams {
  sessionId: string;
  update: SessionUpdate;
}
