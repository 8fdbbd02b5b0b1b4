/**
 * A question with choices that also takes the user's own words, asked of a client whose message
 * box shows only buttons (`[editor] approvals = "message"`): the box offers the choices and a
 * chat-file block offers them with room for an answer in the user's words, both at once. The
 * first answer wins and the other prompt is withdrawn: the block notes where the question was
 * answered, and a click in a box the client keeps on screen is reported as late.
 */
import type { PlainAnswer } from "./prompts.js";

/** The two ways of asking, each withdrawn by its signal. */
export interface QuestionRace {
  /** The message box (window/showMessageRequest with the choices). */
  box(signal: AbortSignal): Promise<PlainAnswer<{ answer?: string }>>;
  /** The chat-file block; its signal's reason (a string) is the note written under it. */
  block(signal: AbortSignal): Promise<string | undefined>;
}

/** How the race ended: the answer, and which prompt gave it. */
export interface RaceResult {
  answer?: string;
  from?: "box" | "block";
  /** The client answered the box with MethodNotFound: it cannot show one. */
  unsupported?: true;
}

/** What is noted under the block when the box answered first. */
export const ANSWERED_IN_BOX = "Answered in the message box.";

/** Asks both ways; `signal` (the turn's) withdraws both. */
export async function raceQuestion(race: QuestionRace, signal: AbortSignal): Promise<RaceResult> {
  const boxControl = linked(signal);
  const blockControl = linked(signal);
  const box = race.box(boxControl.signal).then((r) => ({ from: "box" as const, answer: r.answer, unsupported: r.unsupported }));
  const block = race.block(blockControl.signal).then((answer) => ({ from: "block" as const, answer, unsupported: undefined }));
  try {
    const first = await Promise.race([box, block]);
    if (first.answer !== undefined) {
      if (first.from === "box") blockControl.abort(ANSWERED_IN_BOX);
      else boxControl.abort();
      return { answer: first.answer, from: first.from };
    }
    // No answer from one of them (a dismissed box, a block that timed out): the other may still give one.
    const other = await (first.from === "box" ? block : box);
    if (other.answer !== undefined) return { answer: other.answer, from: other.from, ...(first.unsupported ? { unsupported: true } : {}) };
    return first.unsupported || other.unsupported ? { unsupported: true } : {};
  } finally {
    boxControl.abort();
    blockControl.abort();
  }
}

/** A controller aborted with `parent` (and on its own). */
function linked(parent: AbortSignal): AbortController {
  const control = new AbortController();
  if (parent.aborted) control.abort(parent.reason);
  else parent.addEventListener("abort", () => control.abort(parent.reason), { once: true });
  return control;
}
