/** agent: delegates one task to a subagent and returns its final answer. */
import { z } from "zod";
import { subagentTask, SUBAGENT_ABILITIES } from "./delegation.js";
import { defineTool } from "../define-tool.js";
import { sessionToolsOf } from "./session-tools.js";

/** The agent tool. */
export const agentTool = defineTool({
  name: "agent",
  aliases: ["use_subagent"],
  description: `Delegate one self-contained task (a search across the code base, an investigation) to a subagent and get its final answer. ${SUBAGENT_ABILITIES}`,
  input: subagentTask,
  policyClass: "external_api",
  callKind: "think",
  category: "delegation",
  isMutating: false,
  help: {
    whenToUse: "For a side investigation whose details would fill your context (where is X used, why does test Y fail) and whose answer fits in a few paragraphs. For several independent ones use use_subagents.",
    examples: ['{"prompt": "Find every place the config key `timeout_s` is read in server/src and list file:line with one line of context each.", "description": "find timeout_s readers"}'],
    failureModes: [
      "The subagent's error or turn limit comes back as an error result with what it had found.",
      "A subagent cannot write files: asking it to is refused; have it report the change and make it yourself.",
    ],
  },
  title: (i) => `Subagent: ${i.description ?? (i.prompt.length > 60 ? `${i.prompt.slice(0, 57)}...` : i.prompt)}`,
  async execute(i, ctx) {
    const [outcome] = await sessionToolsOf(ctx, "agent").runSubagents({ sessionId: ctx.sessionId, toolCallId: ctx.toolCallId, signal: ctx.signal }, [i]);
    return { isError: outcome!.isError, content: [{ type: "text", text: outcome!.text }] };
  },
});
