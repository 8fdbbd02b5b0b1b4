/**
 * Answers that come after their prompt was withdrawn. A message box the client cannot take back
 * (Helix ignores `$/cancelRequest`) stays on screen after the turn's cancel or the approval
 * timeout counted it as No; a choice made there later changes nothing, and the user is told so
 * instead of hearing nothing.
 */

/** What was asked. */
export type PromptKind = "approval" | "question";

/** Why the prompt no longer waited: its timeout, the turn's cancel, or an answer given in the chat file. */
export type Withdrawal = "timeout" | "cancelled" | "answered";

/** A choice made in a prompt that no longer waited. */
export interface LateAnswer {
  sessionId: string;
  kind: PromptKind;
  withdrawn: Withdrawal;
  /** The button or option the user chose, as shown to them. */
  answer: string;
}

/** The sentence the message line and the chat file show for a late answer. */
export function lateAnswerText(late: Omit<LateAnswer, "sessionId">): string {
  const when =
    late.withdrawn === "timeout" ? "had already timed out" : late.withdrawn === "answered" ? "had already been answered in the chat file" : "had already been withdrawn (the turn was cancelled)";
  const outcome = late.kind === "approval" ? "nothing ran" : "the answer was not passed on";
  return `agent-lsp: that ${late.kind} ${when}; ${outcome} (you chose "${late.answer}")`;
}
