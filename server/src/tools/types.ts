/**
 * The Tool seam: what a capability is, what it gets when it runs, and what it returns.
 * See DESIGN.md "The four seams" (3).
 */
import type { Editor } from "../editor/editor.js";
import type { ContentBlock } from "../providers/messages.js";
import type { Workspace } from "../workspace/workspace.js";

/** What a tool's effect is; the policy gate decides by it. */
export type PolicyClass =
  | "read_only"
  | "read_write"
  | "exec"
  | "network"
  | "external_api"
  | "gui_control";

/** Every policy class, least to most dangerous. */
export const POLICY_CLASSES: readonly PolicyClass[] = [
  "read_only",
  "read_write",
  "exec",
  "network",
  "external_api",
  "gui_control",
];

/** Where a capability comes from. */
export type ToolKind = "builtin" | "mcp";

/** What a tool hands back to the model. */
export interface ToolResult {
  isError: boolean;
  content: ContentBlock[];
  /** Unified diff of the files the tool changed, for the editor's tool_call_update. */
  diff?: string;
}

/** An action a running tool asks the gate about (a change set, an external path, a command). */
export type GatedAction =
  | {
      kind: "file_change";
      /** One line: tool, paths, +N/-M. */
      summary: string;
      diff: string;
      files: { uri: string; path: string; oldText: string; newText: string }[];
      /** Some path lies outside the project root. */
      external: boolean;
    }
  | { kind: "external_path"; path: string; access: "read" | "write" }
  | { kind: "command"; command: string; cwd: string };

/** The gate's answer. `accepted` replaces the proposed final text of some files. */
export type GateDecision =
  | { allowed: true; accepted?: { uri: string; text: string }[] }
  | { allowed: false; reason: string };

/** Long-lived helpers a tool may reach (filled in by the server; each optional by design). */
export interface ToolServices {
  [name: string]: unknown;
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
  services: ToolServices;
}

/** A tool as the registry holds it. */
export interface Capability {
  name: string;
  description: string;
  /** JSON Schema (object) of the input, as providers get it. */
  inputSchema: Record<string, unknown>;
  kind: ToolKind;
  policyClass: PolicyClass;
  /** file, system, web, memory, delegation, computer, mcp, ... */
  category: string;
  hiddenFromAgent: boolean;
  /** Changes state (when unsure, a tool is mutating). */
  isMutating: boolean;
  metadata: Record<string, unknown>;
  /** A short title for the editor ("Read src/a.ts"). */
  title(input: unknown): string;
  execute(input: unknown, ctx: ToolContext): Promise<ToolResult>;
}
