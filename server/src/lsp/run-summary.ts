/**
 * How a run ends, in words: one line for $/progress end, and the window/showMessage summary a
 * plain client shows (the outcome, the answer with its paragraphs, and what did not happen).
 */
import type { StopReason } from "../protocol/schemas.js";
import type { NotDone, NotDoneKind } from "./run-watch.js";

/** Most characters of the answer a summary carries (a message box is no chat). */
const SUMMARY_MAX = 1500;

/** What a summary is made of. */
export interface RunEnd {
  title: string;
  stopReason: StopReason;
  error?: string;
  files: string[];
  notDone: NotDone[];
  answer: string;
  /** US dollars, when the model's price is known. */
  cost?: number;
}

/** One line on how the run ended: never "done" when a step did not happen. */
export function outcome(end: Omit<RunEnd, "title" | "answer">): string {
  const changed = end.files.length ? ` (changed ${end.files.join(", ")})` : "";
  const skipped = end.notDone.length;
  switch (end.stopReason) {
    case "end_turn":
      return skipped ? `finished, but ${skipped === 1 ? "1 step" : `${skipped} steps`} did not happen${changed}` : `done${changed}`;
    case "cancelled":
      return `cancelled${changed}`;
    case "error":
      return `failed: ${end.error ?? "unknown error"}${changed}`;
    default:
      return `stopped (${stopReasonText(end.stopReason)})${changed}`;
  }
}

/** A cost in US dollars as the user reads it: cents, or four decimals below a cent. */
export function dollars(cost: number): string {
  return `$${cost.toFixed(cost < 0.01 ? 4 : 2)}`;
}

/** The message a plain client shows when the run ends. */
export function summaryText(end: RunEnd): string {
  const cost = end.cost === undefined ? "" : `, ${dollars(end.cost)}`;
  const parts = [`${end.title}: ${outcome(end)}${cost}`];
  const answer = shorten(end.answer.trim());
  if (answer) parts.push(answer);
  if (end.notDone.length) parts.push(["Not done:", ...end.notDone.map((s) => `- ${s.title}: ${notDoneText(s)}`)].join("\n"));
  return parts.join("\n\n");
}

/** The message type of the summary: an error, a warning when anything was left undone, else info. */
export function summaryType(end: Pick<RunEnd, "stopReason" | "notDone">): "error" | "warning" | "info" {
  if (end.stopReason === "error") return "error";
  return end.stopReason === "end_turn" && !end.notDone.length ? "info" : "warning";
}

const KIND_TEXT: Record<NotDoneKind, string> = {
  declined: "declined",
  refused: "refused",
  cancelled: "cancelled",
  failed: "failed",
};

function notDoneText(step: NotDone): string {
  return step.reason ? `${KIND_TEXT[step.kind]} (${step.reason})` : KIND_TEXT[step.kind];
}

function stopReasonText(reason: StopReason): string {
  if (reason === "max_turns") return "the step limit (max_turns) was reached";
  if (reason === "max_tokens") return "the answer hit the token limit (max_tokens)";
  if (reason === "refusal") return "the model refused";
  return reason;
}

/** Cuts a long answer at a paragraph (else a line) boundary, saying that it was cut. */
function shorten(answer: string): string {
  if (answer.length <= SUMMARY_MAX) return answer;
  const head = answer.slice(0, SUMMARY_MAX);
  const cut = Math.max(head.lastIndexOf("\n\n"), head.lastIndexOf("\n"));
  return `${(cut > SUMMARY_MAX / 2 ? head.slice(0, cut) : head).trimEnd()}\n[… the rest of the answer is in the session's transcript]`;
}
