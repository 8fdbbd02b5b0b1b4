/**
 * An approval a tool asks for itself, whatever the safety mode: replacing the checklist, starting
 * a new task. It is the user's call, not the gate's, so it is asked every time and never
 * remembered.
 */
import type { ToolContext } from "./types.js";
import { newRequestId } from "../editor/session-ui.js";

/** What to show in the prompt. */
export interface ApprovalAsk {
  tool: string;
  title: string;
  input: unknown;
  /** One line: what happens on Yes. */
  summary: string;
  /** The proposal as a unified diff, when it is a change of text. */
  diff?: string;
}

/** The user's answer. */
export interface ApprovalAnswer {
  approved: boolean;
  /** The user's own words with a No, or why no answer could be had. */
  why?: string;
}

/** Asks the user in the editor; a prompt that fails or goes unanswered counts as No. */
export async function askApproval(ctx: ToolContext, ask: ApprovalAsk): Promise<ApprovalAnswer> {
  try {
    const answer = await ctx.editor.requestPermission(
      {
        sessionId: ctx.sessionId,
        requestId: newRequestId(),
        toolCall: { id: ctx.toolCallId, name: ask.tool, title: ask.title, input: ask.input, toolKind: "think" },
        summary: ask.summary,
        rememberable: false,
        ...(ask.diff ? { diff: ask.diff } : {}),
      },
      ctx.signal,
    );
    if (answer.optionId !== "reject") return { approved: true };
    const why = answer.reason ?? answer.note;
    return why ? { approved: false, why } : { approved: false };
  } catch (err) {
    return { approved: false, why: `The prompt failed: ${(err as Error).message}` };
  }
}

/** The sentence the model reads after a No. */
export function declinedText(what: string, answer: ApprovalAnswer): string {
  return `The user declined ${what}.${answer.why ? ` (${answer.why})` : ""} Nothing was changed; go on without it or ask the user what they want.`;
}
