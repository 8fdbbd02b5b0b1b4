/**
 * working_respond: a short message to the user in the middle of the work (what the next step
 * does and why, an answer to a message that came in meanwhile), without ending the turn.
 */
import { z } from "zod";
import { lazySchema } from "../../util/lazy-schema.js";
import { defineTool } from "../define-tool.js";
import { reportUpdate, sessionNoteTool } from "./report-updates.js";

const input = lazySchema(() => z.object({
  message: z.string().min(1).max(4000).describe("What to tell the user, in a few sentences."),
}));

/** The working_respond tool. */
export const workingRespondTool = defineTool({
  name: "working_respond",
  // Its name in other agents' tool layers, which models trained on them still call.
  aliases: ["act_mode_respond"],
  description:
    "Tell the user something while you keep working: what your next step does and why, or a reply to a correction. " +
    "It never ends your turn: always follow it with the work tool call it announces.",
  input,
  ...sessionNoteTool("reporting"),
  help: {
    whenToUse: "Before a long or surprising step, or to acknowledge a correction, when you are not done yet. Use attempt_completion for the final result.",
    examples: ['{"message": "The tests fail on a missing fixture; I will add it and run them again."}'],
    failureModes: ["None; but a turn that ends right after it leaves the user waiting for the step it announced."],
  },
  title: () => "Message to the user",
  async execute(i, ctx) {
    ctx.emit(reportUpdate("working_respond", i)!);
    return "Shown to the user. Now make the work tool call you announced; this did not end your turn.";
  },
});
