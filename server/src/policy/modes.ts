/**
 * What each safety mode lets through before anyone is asked (docs/safety.md):
 * - read_only: reads and searches; every other class is refused with a reason the model reads.
 * - plan: as read_only, and the file-writing tools are refused by name even if misclassified;
 *   make_plan is offered (and only here).
 * - ask / auto / full_access: nothing is refused by mode; the gate asks, classifies or allows.
 * Denied tools stay offered on purpose: a refusal the model can read beats a tool that vanished.
 */
import type { SafetyMode } from "../config/schema.js";
import type { ToolDescriptor } from "../vocabulary/policy.js";

/** Tools plan mode rejects whatever their class says (strict plan mode). */
const PLAN_REJECTED_TOOLS: readonly string[] = ["write_file", "edit_file", "replace_in_file", "apply_patch", "delete_file"];

/** Tools offered only in plan mode. */
export const PLAN_ONLY_TOOLS: readonly string[] = ["make_plan"];

/** True in the modes where nothing but reading runs. */
export function isReadOnlyMode(mode: SafetyMode): boolean {
  return mode === "read_only" || mode === "plan";
}

/** Why `mode` refuses `capability` outright, or undefined when the mode lets it through. */
export function modeRefusal(mode: SafetyMode, capability: ToolDescriptor): string | undefined {
  const name = capability.name;
  if (mode === "plan" && (PLAN_REJECTED_TOOLS.includes(name) || capability.policyClass !== "read_only")) {
    return `${name} is not allowed in plan mode: investigate with read-only tools, then submit your plan with make_plan. Nothing was changed.`;
  }
  if (mode === "read_only" && capability.policyClass !== "read_only") {
    return `${name} is not allowed: the session is read-only (only reading and searching run). Nothing was changed; say what you would do instead. The user can switch modes to let you act.`;
  }
  return undefined;
}

/** Why `mode` refuses an action found while a tool ran (a change, a command, an outside path). */
export function modeActionRefusal(mode: SafetyMode, what: string): string | undefined {
  if (mode === "plan") return `${what} is not allowed in plan mode; submit your plan with make_plan instead.`;
  if (mode === "read_only") return `${what} is not allowed: the session is read-only.`;
  return undefined;
}
