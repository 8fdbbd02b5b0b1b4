/**
 * Trust: who a session acts for. `operator` is the person at the editor (and the headless CLI);
 * `guest` is anything that did not say, later subagents and unreviewed tool sources. A missing
 * trust is guest: it degrades to read-only and never silently grants more.
 */
import { POLICY_CLASSES, type PolicySpec, type ToolDescriptor } from "../vocabulary/policy.js";
import type { Trust } from "./types.js";

/** The policy classes a trust level admits. */
export function policyForTrust(trust: Trust | undefined): PolicySpec {
  if (trust === "operator") return { allow: POLICY_CLASSES, deny: [] };
  return { allow: ["read_only"], deny: POLICY_CLASSES.filter((c) => c !== "read_only") };
}

/** Why `trust` may not use `capability`, or undefined when it may. */
export function trustRefusal(trust: Trust | undefined, capability: ToolDescriptor): string | undefined {
  const policy = policyForTrust(trust);
  if (policy.allow.includes(capability.policyClass) && !policy.deny?.includes(capability.policyClass)) return undefined;
  return `${capability.name} is not available: this session has guest trust, which allows read-only tools only.`;
}
