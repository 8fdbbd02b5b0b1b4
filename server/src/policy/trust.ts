/**
 * Trust: who a session acts for. `operator` is the person at the editor (and the headless CLI);
 * `guest` is anything that did not say, later subagents and unreviewed tool sources. A missing
 * trust is guest: it degrades to read-only and never silently grants more.
 */
import { POLICY_CLASSES, type PolicyClass, type PolicySpec, type ToolDescriptor } from "../vocabulary/policy.js";
import type { Trust } from "./types.js";

/** The policy classes a trust level admits. */
export function policyForTrust(trust: Trust | undefined): PolicySpec {
  if (trust === "operator") return { allow: POLICY_CLASSES, deny: [] };
  if (trust === "subagent") return { allow: POLICY_CLASSES, deny: SUBAGENT_DENIED };
  return { allow: ["read_only"], deny: POLICY_CLASSES.filter((c) => c !== "read_only") };
}

/** What a subagent never does: it reads, searches, runs gated commands and calls APIs only. */
const SUBAGENT_DENIED: readonly PolicyClass[] = ["read_write", "gui_control"];

/** Why a subagent may not do `what` (change files). */
export function subagentWriteRefusal(what: string): string {
  return `${what} is not allowed: a subagent never changes files or drives the desktop. Report what should change to the agent that started you.`;
}

/** Why `trust` may not use `capability`, or undefined when it may. */
export function trustRefusal(trust: Trust | undefined, capability: ToolDescriptor): string | undefined {
  const policy = policyForTrust(trust);
  if (policy.allow.includes(capability.policyClass) && !policy.deny?.includes(capability.policyClass)) return undefined;
  if (trust === "subagent") return subagentWriteRefusal(`${capability.name} (${capability.policyClass})`);
  return `${capability.name} is not available: this session has guest trust, which allows read-only tools only.`;
}
