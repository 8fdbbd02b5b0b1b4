/** What the user reads in a prompt the gate asks at check: the one-line summary and the details. */
import type { ToolDescriptor } from "../vocabulary/policy.js";
import { callSummary, commandSummary, oneLine } from "./call-facts.js";
import type { GateCall, GateSession } from "./types.js";

/** The prompt's one line: the command or the call, and any outside paths. */
export function checkSummary(session: GateSession, call: GateCall, command: { command: string; cwd: string } | undefined, external: string[]): string {
  const base = command ? commandSummary(call.name, command.command, command.cwd, session.root) : callSummary(call.name, call.title, call.input);
  return external.length ? `${base} — outside the project: ${oneLine(external.join(", "), 120)}` : base;
}

export function checkDetails(capability: ToolDescriptor, call: GateCall, command: { command: string; cwd: string } | undefined, external: string[]): string {
  const lines = command
    ? [`Command: ${command.command.slice(0, 2000)}`, `Folder: ${command.cwd}`]
    : [`Tool: ${call.name} (${capability.policyClass}): ${oneLine(capability.description, 200)}`, `Input: ${JSON.stringify(call.input ?? {}).slice(0, 1500)}`];
  if (external.length) lines.push(`Outside the project: ${external.join(", ")}`);
  return lines.join("\n");
}
