/**
 * What the gate reads from a tool's descriptor: whether it shows its own changes or commands to
 * the gate (GateMetadata), and so whether check asks now or leaves it to authorize.
 */
import type { ToolDescriptor } from "../vocabulary/policy.js";
import type { GateMetadata } from "./types.js";

/** The gate's metadata of a capability. */
export function metadata(capability: ToolDescriptor): GateMetadata {
  return capability.metadata as GateMetadata;
}

/** The tool shows its file changes to the gate itself (with the diff). */
export function asksChanges(capability: ToolDescriptor): boolean {
  return metadata(capability).authorizesChanges === true;
}

/**
 * Whether check reads the paths a call's input names. Only for our own tools, whose `path` and
 * `cwd` are files (an MCP tool's `path` may be a URL path); and not for tools that show their
 * outside writes to the gate with the diff.
 */
export function readsPaths(capability: ToolDescriptor): boolean {
  return capability.kind === "builtin" && !asksChanges(capability);
}

/** The tool asks for its own effect, so check lets it start. */
export function asksItself(capability: ToolDescriptor): boolean {
  const m = metadata(capability);
  if (capability.policyClass === "read_write") return m.authorizesChanges === true || m.authorizesCommands === true;
  if (capability.policyClass === "exec") return m.authorizesCommands === true;
  return false;
}

