/**
 * Tool profiles (`[tools] profile`): `standard` offers every tool; `lite` offers the small core
 * set with short descriptions, so a small local model gets a short request it can follow.
 * docs/tools.md lists each profile's tools; a test keeps that list and this one in step.
 */
import type { Capability } from "./types.js";

/** The profiles. */
export const TOOL_PROFILES = ["standard", "lite"] as const;

/** A profile's name. */
export type ToolProfile = (typeof TOOL_PROFILES)[number];

/** The tools the lite profile offers (each still only where the mode and trust offer it). */
export const LITE_TOOLS: readonly string[] = [
  "read_file",
  "write_file",
  "replace_in_file",
  "search_files",
  "list_files",
  "list_code_definition_names",
  "execute_command",
  "kill_command",
  "ask_user_question",
  "make_plan",
  "task_create",
  "task_update",
  "task_list",
  "working_respond",
  "phase_report",
  "attempt_completion",
  "tool_help",
];

/** True when `profile` offers the capability. */
export function profileAdmits(profile: ToolProfile | undefined, capability: Capability): boolean {
  return profile !== "lite" || LITE_TOOLS.includes(capability.name);
}

/**
 * The capabilities as a request under `profile` describes them: under lite each gets its short
 * description (`metadata.liteDescription`, else its first sentence); `tool_help` has the rest.
 */
export function describedFor(profile: ToolProfile | undefined, offered: Capability[]): Capability[] {
  if (profile !== "lite") return offered;
  // A view over the capability, not a copy: its schema getter and execute stay its own.
  return offered.map((c) => Object.create(c, { description: { value: liteDescription(c), enumerable: true } }) as Capability);
}

/** The short description of a capability. */
export function liteDescription(capability: Capability): string {
  const given = capability.metadata.liteDescription;
  if (typeof given === "string") return given;
  const first = /^[\s\S]*?[.!?](?=\s|$)/.exec(capability.description)?.[0];
  return first ?? capability.description;
}
