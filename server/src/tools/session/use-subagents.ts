/** use_subagents: delegates a batch of independent tasks to subagents that run side by side. */
import { z } from "zod";
import { lazySchema } from "../../util/lazy-schema.js";
import { formatOutcomes, subagentTask, SUBAGENT_ABILITIES } from "./delegation.js";
import { defineTool } from "../define-tool.js";
import { sessionToolsOf } from "./session-tools.js";

const input = lazySchema(() => z.object({
  tasks: z.array(subagentTask).min(1).max(10).describe("Independent tasks, one subagent each."),
}));

/** The use_subagents tool. */
export const useSubagentsTool = defineTool({
  name: "use_subagents",
  description: `Run several independent tasks at once, one subagent each (up to the configured number at a time), and get each final answer. ${SUBAGENT_ABILITIES}`,
  input,
  policyClass: "external_api",
  callKind: "think",
  category: "delegation",
  isMutating: false,
  help: {
    whenToUse: "When a task splits into independent investigations (one per package, per failing test). Each subagent's prompt must stand on its own.",
    examples: ['{"tasks": [{"prompt": "Summarise what server/src/edits does", "description": "edits"}, {"prompt": "Summarise what server/src/policy does", "description": "policy"}]}'],
    failureModes: [
      "Each failed subagent is marked (failed) with its error; the others' answers still come back.",
      "Subagents beyond `[subagents] max_concurrent` wait for a free slot.",
    ],
  },
  title: (i) => `${i.tasks.length} subagent${i.tasks.length === 1 ? "" : "s"}`,
  async execute(i, ctx) {
    const outcomes = await sessionToolsOf(ctx, "use_subagents").runSubagents({ sessionId: ctx.sessionId, toolCallId: ctx.toolCallId, signal: ctx.signal }, i.tasks);
    const labels = i.tasks.map((t) => t.description ?? t.prompt.split("\n")[0]!.slice(0, 60));
    return { isError: outcomes.every((o) => o.isError), content: [{ type: "text", text: formatOutcomes(outcomes, labels) }] };
  },
});
