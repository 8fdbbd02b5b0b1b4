/**
 * The gate's contract with the agent loop. Every tool call passes `check` before it runs, and
 * every action a running tool discovers (a change set, an external path, a command) passes
 * `authorize`. The loop never runs a tool the gate did not allow.
 */
import type { SafetyMode } from "../config/schema.js";
import type { ToolCallFacts } from "../protocol/updates.js";
import type { ImageBlock } from "../vocabulary/messages.js";
import type { GateDecision, GatedAction, ListFilter, ToolDescriptor } from "../vocabulary/policy.js";
import type { ReviewGroup } from "./review-group.js";

/**
 * Who is asking: the person at the editor, a subagent working for them (everything but writing
 * files and the desktop), or something unreviewed.
 */
export type Trust = "operator" | "subagent" | "guest";

/** What the gate knows about the session a call comes from. */
export interface GateSession {
  sessionId: string;
  mode: SafetyMode;
  /** Missing means guest: it never silently grants more. */
  trust?: Trust;
  root: string;
}

/** A tool call as the gate sees it. */
export interface GateCall {
  id: string;
  name: string;
  title: string;
  input: unknown;
  /** What the call is about (kind, files, command), for prompts that render it. */
  facts?: ToolCallFacts;
  /** The calls of its model message whose file changes are reviewed together with its own. */
  review?: ReviewGroup;
}

/** One call of a batch, with the line that describes it. */
export interface BatchCall extends GateCall {
  description: string;
}

/**
 * ToolDescriptor metadata by which a tool tells the gate that it asks for its own actions, so the
 * gate asks at the right moment (with the diff, with the exact command) and exactly once. A
 * mutating tool without them is asked about before it runs, from its input alone.
 */
export interface GateMetadata {
  /**
   * Every file change the tool makes goes through `Workspace.apply` with `ctx.authorize`, which
   * shows the gate the diff (`file_change`) and each outside path (`external_path`).
   */
  authorizesChanges?: boolean;
  /** The tool calls `ctx.authorize({kind: "command"})` before it starts any process. */
  authorizesCommands?: boolean;
  /**
   * Set (to the reason, in words for the user) for tools whose "Yes" is never remembered: MCP
   * tools and resource reads are asked every time in ask mode.
   */
  askEveryTime?: string;
  /**
   * The tool is gated once per model message, as one batch (the computer tool). Returns a
   * one-line description of a call that needs approval (an input action), or undefined for a call
   * that runs in every mode without asking (a screenshot). Such a tool never passes `check`.
   */
  batchInput?: (input: unknown) => string | undefined;
}

/** The policy gate. */
export interface ToolGate {
  /** Which tools the model is offered in this session's trust and mode. */
  filter(session: GateSession): ListFilter;
  /** Decides whether `call` may start. */
  check(session: GateSession, call: GateCall, capability: ToolDescriptor, signal: AbortSignal): Promise<GateDecision>;
  /**
   * Decides once for the input calls of a batch-gated tool in one model message (GateMetadata
   * `batchInput`): `ask` shows them all in one prompt, `auto` gives the safety check them and
   * `screenshot` (the newest image the model saw), read-only modes refuse.
   */
  checkBatch(session: GateSession, capability: ToolDescriptor, calls: BatchCall[], screenshot: ImageBlock | undefined, signal: AbortSignal): Promise<GateDecision>;
  /** Decides about an action a running tool found. */
  authorize(
    session: GateSession,
    call: GateCall,
    capability: ToolDescriptor,
    action: GatedAction,
    signal: AbortSignal,
  ): Promise<GateDecision>;
}
