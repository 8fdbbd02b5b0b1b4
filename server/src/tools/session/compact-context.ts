/**
 * compact_context: the model asks for a checkpoint when it judges its context noisy. The
 * compaction runs before its next model call (the automatic trigger stays as the safety net).
 */
import { z } from "zod";
import { lazySchema } from "../../util/lazy-schema.js";
import { defineTool, ToolError } from "../define-tool.js";
import { SESSION_CONTEXT_SERVICE, type SessionContextService } from "./session-context.js";

const input = lazySchema(() => z.object({
  focus: z.string().max(2000).optional().describe("What the summary must keep above all (the handoff for the next phase)."),
}));

/** The compact_context tool. */
export const compactContextTool = defineTool({
  name: "compact_context",
  description:
    "Checkpoint the conversation: before your next model call the older history is summarised, and you continue from the summary. " +
    "Use it between phases of long work, when the context holds much that is no longer needed. Nothing is lost: context_archive reads every message back.",
  input,
  help: {
    whenToUse: "Between phases of long work, when much of the context is no longer needed; the summary runs before your next model call.",
    examples: ["{}", '{"focus": "the failing test in src/parse.test.ts and the fix planned"}'],
    failureModes: ["A summary call that fails changes nothing: a status says so and the full history stays."],
  },
  policyClass: "read_only",
  callKind: "think",
  category: "context",
  // It changes what the model sees next, not the project: nothing for the gate to ask.
  isMutating: false,
  title: () => "Compact the context",
  async execute(i, ctx) {
    const s = ctx.services[SESSION_CONTEXT_SERVICE] as SessionContextService | undefined;
    if (!s) throw new ToolError("compact_context is not available here (no session).");
    s.requestCompaction(ctx.sessionId, i.focus);
    return "The conversation will be compacted before your next step; continue the work from the checkpoint summary.";
  },
});
