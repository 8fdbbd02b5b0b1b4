/**
 * What `agent` and `use_subagents` share: the task's input shape, the words that tell a model
 * what a subagent can do, and how outcomes read back.
 */
import { z } from "zod";
import type { SubagentOutcome } from "./session-tools.js";

/** One task's input. */
export const subagentTask = z.object({
  prompt: z
    .string()
    .min(1)
    .describe("The whole task: the subagent sees none of this conversation, so say what to find or do, where, and what to report back."),
  description: z.string().min(1).max(80).optional().describe("A few words for the user's view of the running subagents."),
});

/** What every delegation tool's description says about the subagent. */
export const SUBAGENT_ABILITIES =
  "A subagent starts with a fresh context, in this session's mode, and can read, search, run gated commands and fetch, " +
  "but never changes files or starts subagents; it returns its final answer.";

/** The outcomes as the parent model reads them. */
export function formatOutcomes(outcomes: SubagentOutcome[], labels: string[]): string {
  if (outcomes.length === 1) return outcomes[0]!.text;
  return outcomes.map((o, i) => `## Subagent ${i + 1}: ${labels[i]}${o.isError ? " (failed)" : ""}\n${o.text}`).join("\n\n");
}
