/**
 * The Tool seam: what a capability is, what it gets when it runs, and what it returns.
 * See DESIGN.md "The four seams" (3).
 */
import type { ChangedText } from "../editor/session-events.js";
import type { Editor } from "../editor/editor.js";
import type { SessionUpdate, ToolCallKind } from "../protocol/updates.js";
import type { ContentBlock } from "../vocabulary/messages.js";
import type { GateDecision, GatedAction, ToolDescriptor } from "../vocabulary/policy.js";
import type { Workspace } from "../workspace/workspace.js";

/** What a tool hands back to the model. */
export interface ToolResult {
  isError: boolean;
  content: ContentBlock[];
  /** Unified diff of the files the tool changed, for the editor's tool_call_update. */
  diff?: string;
  /** Their whole texts before and after (an event detail, never sent to the model). */
  texts?: ChangedText[];
  /** The files the tool's change set wrote, relative to the root (the diagnostics after an edit look at them). */
  changedFiles?: string[];
  /** End the turn once this batch of calls is done: the model is not called again (attempt_completion). */
  endTurn?: boolean;
  /**
   * Set when agent-lsp's own state could not be written (a full disk, a read-only file system,
   * a link in the state folder): the turn ends as failed with this message once the batch is done.
   */
  fault?: string;
  /** The user said No to it (or took nothing of the change they reviewed): shown as declined, not failed. */
  declined?: boolean;
}

/** Long-lived helpers a tool may reach (filled in by the server; each optional by design). */
export interface ToolServices {
  [name: string]: unknown;
}

/**
 * The calls of one model message, run as one batch: the computer tool's input is approved once
 * per batch, and after one of its actions fails the rest of the batch does not run.
 */
export interface ToolBatch {
  /** Unique per model message. */
  id: string;
  /** How many messages the user had sent when the batch began (a new one lifts a stop). */
  userMessages: number;
}

/** Everything a tool gets when it runs. */
export interface ToolContext {
  workspace: Workspace;
  editor: Editor;
  sessionId: string;
  toolCallId: string;
  /** Aborted by agent/cancel (and by the tool's own timeout where it has one). */
  signal: AbortSignal;
  /** Most characters of text the result may carry; defineTool trims beyond it. */
  outputBudget: number;
  /** Asks the policy gate about an action found while running. */
  authorize(action: GatedAction): Promise<GateDecision>;
  /** Reports progress of a long-running tool (streamed as a tool_call_update). */
  progress(output: string): void;
  /** Streams an update of the tool's session (a plan, a status line). */
  emit(update: SessionUpdate): void;
  services: ToolServices;
  /** The batch this call is part of; absent when a tool runs on its own (tests, `agent-lsp tool`). */
  batch?: ToolBatch;
  /**
   * The provider-native tool the model called, when this call is the rewrite of one
   * (`str_replace_based_edit_tool`): the tool words its errors in that tool's terms.
   */
  nativeTool?: string;
}

/** A tool as the registry holds it: what the gate sees of it, and how it runs. */
export interface Capability extends ToolDescriptor {
  /** JSON Schema (object) of the input, as providers get it. */
  inputSchema: Record<string, unknown>;
  hiddenFromAgent: boolean;
  /** Changes state (when unsure, a tool is mutating). */
  isMutating: boolean;
  /** What a call does, for the editor to show it (absent: "other"). */
  callKind?: ToolCallKind;
  /** Older names a call may still use; never offered, they run this capability. */
  aliases?: readonly string[];
  /** A short title for the editor ("Read src/a.ts"). */
  title(input: unknown): string;
  execute(input: unknown, ctx: ToolContext): Promise<ToolResult>;
}
