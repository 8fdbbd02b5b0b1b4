/**
 * phase_report: reports a finished phase (what was done, how it was verified, what comes next)
 * without ending the turn. With `requires_acknowledgment` the turn waits for the user to go on
 * or stop, through the editor's question prompt.
 */
import { z } from "zod";
import { lazySchema } from "../../util/lazy-schema.js";
import { newRequestId } from "../../editor/session-ui.js";
import { defineTool, errorResult, textResult } from "../define-tool.js";
import { reportUpdate, sessionNoteTool } from "./report-updates.js";

const input = lazySchema(() => z.object({
  completed: z.string().min(1).describe("What this phase completed."),
  verification: z.string().min(1).describe("How it was verified and the result (tests run, output checked)."),
  next_phase: z.string().min(1).optional().describe("What the next phase will do."),
  requires_acknowledgment: z.boolean().optional().describe("Wait for the user to acknowledge before going on (default false)."),
}));

/** The answers the acknowledgement prompt offers. */
export const PHASE_ANSWERS = { go: "Continue", stop: "Stop here" } as const;

/** The phase_report tool. */
export const phaseReportTool = defineTool({
  name: "phase_report",
  aliases: ["status_update"],
  description:
    "Report a finished phase of a longer task: what was completed, the verification result, and the next phase. " +
    "It does not end your turn. Set requires_acknowledgment to wait for the user to continue or stop.",
  input,
  ...sessionNoteTool("reporting"),
  help: {
    whenToUse: "Between phases of a long task, so the user sees progress; with requires_acknowledgment before a risky or costly next phase.",
    examples: ['{"completed": "Parser rewritten", "verification": "npm test: 212 passed", "next_phase": "Migrate the callers", "requires_acknowledgment": true}'],
    failureModes: ["With requires_acknowledgment, a user who stops (or cannot be asked) ends the turn: do not go on with the next phase."],
  },
  title: (i) => `Phase report${i.requires_acknowledgment ? " (waits for you)" : ""}`,
  async execute(i, ctx) {
    ctx.emit(reportUpdate("phase_report", i)!);
    if (!i.requires_acknowledgment) return "Reported to the user. Go on with the next phase.";
    const answer = await ctx.editor.askUser(
      { sessionId: ctx.sessionId, requestId: newRequestId(), question: `Phase done: ${i.completed}${i.next_phase ? `\nNext: ${i.next_phase}` : ""}\nContinue?`, choices: [PHASE_ANSWERS.go, PHASE_ANSWERS.stop] },
      ctx.signal,
    );
    if (ctx.signal.aborted) return errorResult("Cancelled while waiting for the user's acknowledgement.");
    if (answer === PHASE_ANSWERS.go) return "The user acknowledged the report: go on with the next phase.";
    const why = answer === undefined ? "No acknowledgement could be had (the prompt was dismissed or the editor cannot ask)" : `The user answered "${answer}"`;
    // Ending the turn is the point: the next phase must not start without the user.
    return textResult(`${why}: the turn ends here. Do not start the next phase until the user says so.`, { endTurn: true });
  },
});
