/**
 * Anthropic's computer toolset (`computer_toolset_20260801`): one `tools[]` entry without a name;
 * the model calls each member by its own name (`left_click`, `scroll`, `zoom` ...) with
 * `toolset_name: "computer"`. Every member is one action of our `computer` tool, so a call is
 * rewritten onto it with the member's name as the action. Pure.
 */
import { COMPUTER_ACTIONS } from "../../vocabulary/computer.js";
import type { NativeRewrite } from "./anthropic.js";

/** The toolset as agent-lsp offers it. */
export const ANTHROPIC_COMPUTER = Object.freeze({
  /** Our `NativeToolSpec.kind`. */
  kind: "anthropic_computer",
  /** Our tool it stands in for (and the toolset's `toolset_name`). */
  name: "computer",
  type: "computer_toolset_20260801",
  replaces: Object.freeze(["computer"]),
});

/** The toolset's members: exactly the actions of our computer tool. */
const COMPUTER_MEMBERS: readonly string[] = COMPUTER_ACTIONS;

/** Rewrites a call of member `member` onto our computer tool. */
export function rewriteAnthropicComputer(member: string, input: unknown): NativeRewrite {
  if (!COMPUTER_MEMBERS.includes(member)) return { error: `${member} is not a member of the computer toolset.` };
  const args = typeof input === "object" && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
  return { name: ANTHROPIC_COMPUTER.name, input: { ...args, action: member } };
}
