/**
 * The words the policy gate, the tools and the Workspace share: what a tool's effect is, what a
 * running tool asks the gate about, and the gate's answer. A leaf: it imports nothing, so the
 * gate (policy/) and the Workspace can speak of tools without depending on tools/.
 */

/** What a tool's effect is; the policy gate decides by it. */
export type PolicyClass = "read_only" | "read_write" | "exec" | "network" | "external_api" | "gui_control";

/** Every policy class, least to most dangerous. */
export const POLICY_CLASSES: readonly PolicyClass[] = ["read_only", "read_write", "exec", "network", "external_api", "gui_control"];

/** Where a capability comes from. */
export type ToolKind = "builtin" | "mcp";

/** A tool as the gate sees it: who it is and what it may do, not how it runs. */
export interface ToolDescriptor {
  name: string;
  description: string;
  kind: ToolKind;
  policyClass: PolicyClass;
  /** file, system, web, memory, delegation, computer, mcp, ... */
  category: string;
  metadata: Record<string, unknown>;
}

/** Which policy classes a listing admits. */
export interface PolicySpec {
  allow: readonly PolicyClass[];
  deny?: readonly PolicyClass[];
}

/**
 * A listing filter. Composed in this order: kind, policy, allowlist of names, excluded names,
 * excluded categories, hidden.
 */
export interface ListFilter {
  /** Absent or "all": every kind. */
  kind?: ToolKind | "all";
  policy?: PolicySpec;
  /** `[]` admits nothing; absent does not narrow. */
  allowedTools?: readonly string[];
  excludedNames?: readonly string[];
  excludedCategories?: readonly string[];
  /** Include capabilities flagged hiddenFromAgent (default false). */
  includeHidden?: boolean;
}

/** True when `spec` admits the class. */
export function admitsClass(spec: PolicySpec, cls: PolicyClass): boolean {
  return spec.allow.includes(cls) && !(spec.deny ?? []).includes(cls);
}

/**
 * An action a running tool asks the gate about (a change set, an external path, a command, a
 * request to an MCP server).
 */
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
  | {
      kind: "command";
      command: string;
      cwd: string;
      /** Said with the command in its approval ("and save 2 files first: a.ts, b.ts"). */
      note?: string;
      /** Where it would run; absent for a command that never meets the sandbox (as `off`). */
      sandbox?: CommandSandbox;
    }
  | {
      /** A request to an MCP server made by a tool that is itself local (mcp_tools read, complete). */
      kind: "mcp_request";
      server: string;
      /** One line: what is asked of which server. */
      summary: string;
    };

/**
 * Where a command would run, as the gate is told before deciding: inside the kernel sandbox
 * (exec/sandbox/), outside it because it cannot run here, outside it because the model asked
 * (with its reason), or with the sandbox switched off (`[exec] sandbox = "off"`).
 */
export type CommandSandbox =
  | { state: "inside" }
  | { state: "unavailable"; why: string }
  | { state: "asked"; reason: string }
  | { state: "off" };

/**
 * The gate's answer. `accepted` replaces the proposed final text of some files, and `userWords`
 * are what the user said about the parts they did not take. A denial is `declined` when the user
 * said No (or took nothing of a change they reviewed), not a rule, the mode or the safety check.
 */
export type GateDecision =
  | { allowed: true; accepted?: { uri: string; text: string }[]; userWords?: string }
  | { allowed: false; reason: string; declined?: boolean };
