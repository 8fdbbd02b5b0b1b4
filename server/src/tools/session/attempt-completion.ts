/**
 * attempt_completion: the final result of the task. The editor shows it as the turn's result,
 * apart from the running commentary, and the turn ends with it.
 */
import { z } from "zod";
import { lazySchema } from "../../util/lazy-schema.js";
import { defineTool, textResult } from "../define-tool.js";
import { reportUpdate, sessionNoteTool } from "./report-updates.js";

const input = lazySchema(() => z.object({
  result: z.string().min(1).describe("The final result: what was done and how it was verified. No question at the end."),
  command: z.string().min(1).optional().describe("A command the user can run to see the result (e.g. `npm test`)."),
}));

/** The attempt_completion tool. */
export const attemptCompletionTool = defineTool({
  name: "attempt_completion",
  description:
    "Present the final result of the task once it is done and verified. It ends your turn; the user answers if they want more.",
  input,
  ...sessionNoteTool("reporting"),
  help: {
    whenToUse: "Once, at the end, after the work is verified (tests run, output checked). Not for progress: use phase_report or working_respond.",
    examples: ['{"result": "Added the timeout key to the config schema and docs; npm test passes (214 tests).", "command": "npm test"}'],
    failureModes: ["Calls in the same message after it still run, but the model is not called again this turn."],
  },
  title: () => "Result",
  async execute(i, ctx) {
    ctx.emit(reportUpdate("attempt_completion", i)!);
    return textResult("The result was shown to the user; the turn ends here.", { endTurn: true });
  },
});
