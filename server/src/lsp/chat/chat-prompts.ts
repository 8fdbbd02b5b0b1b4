/**
 * Permission prompts and questions as blocks in the chat file, for clients that cannot answer
 * window/showMessageRequest (Helix 25.01). The block names what is asked; the user answers with
 * a code action on it (chat-actions.ts), which settles the waiting promise here. No answer within
 * the approval timeout, or the turn's cancel, counts as No.
 */
import { randomBytes } from "node:crypto";
import type { PermissionAnswer, PermissionOptionId, PermissionRequest, Question } from "../../editor/session-ui.js";
import { approvalHeading, freeTextHint, questionHeading } from "./chat-text.js";

/** How a block is written and the user told about it. */
export interface BlockSink {
  /** Appends the block to the chat file. */
  write(text: string): Promise<void>;
  /** Tells the user a block waits (status line, showDocument). */
  announce(sessionId: string, kind: PendingBlock["kind"]): void;
}

/** One waiting block. */
export interface PendingBlock {
  /** Random per block: an id seen before a restart, or written by someone else, names no waiting block. */
  id: string;
  kind: "approval" | "question";
  /** Approval: whether "don't ask again" is offered. */
  rememberable: boolean;
  /** Question: the choices, one code action each; none for a free-text answer written under the block. */
  choices: string[];
  /** Question: an answer written under the block is taken too ("Send answer"). */
  freeText: boolean;
  settle(answer: string): void;
}

/** The labels of the approval answers, as the code actions show them. */
export const APPROVAL_ANSWERS: readonly { optionId: PermissionOptionId; title: string }[] = [
  { optionId: "allow_once", title: "Approve" },
  { optionId: "allow_always", title: "Approve, don't ask again" },
  { optionId: "reject", title: "Reject" },
];

/** The blocks waiting for an answer. */
export class ChatPrompts {
  private readonly pending = new Map<string, PendingBlock>();

  constructor(
    private readonly sink: BlockSink,
    private readonly timeoutMs: () => number,
  ) {}

  /** The waiting block with `id`, if it still waits. */
  get(id: string): PendingBlock | undefined {
    return this.pending.get(id);
  }

  /** Writes an approval block and waits for its answer. */
  async requestPermission(request: PermissionRequest, signal: AbortSignal): Promise<PermissionAnswer> {
    const body = request.diff ? `\n\`\`\`diff\n${request.diff.trimEnd()}\n\`\`\`\n` : commandBody(request);
    const text = (id: string) => `${approvalHeading(id, request.summary)}\n${body}\nPick "Approve", "Approve, don't ask again" or "Reject" (space a) on this block.\n\n`;
    const answer = await this.wait("approval", text, request.sessionId, signal, { rememberable: request.rememberable !== false, choices: [], freeText: false });
    if (answer.kind !== "answer") return { optionId: "reject", note: answer.note };
    const optionId = answer.value as PermissionOptionId;
    return { optionId };
  }

  /**
   * Writes a question block and waits for the answer: a choice picked as a code action, or, for
   * a question without choices, the text the user writes under the block; undefined when none came.
   */
  async askUser(question: Question, signal: AbortSignal): Promise<string | undefined> {
    const choices = question.choices ?? [];
    const freeText = !choices.length || question.allowFreeText === true;
    const list = choices.map((c) => `- ${c}`).join("\n");
    const pick = choices.length ? `${list}\n\nPick an answer (space a) on this block.` : "";
    const body = [pick, freeText ? freeTextHint(choices.length > 0) : ""].filter(Boolean).join("\n");
    const text = (id: string) => `${questionHeading(id, question.question)}\n\n${body}\n\n`;
    const answer = await this.wait("question", text, question.sessionId, signal, { rememberable: false, choices, freeText });
    return answer.kind === "answer" ? answer.value : undefined;
  }

  private async wait(
    kind: PendingBlock["kind"],
    text: (id: string) => string,
    sessionId: string,
    signal: AbortSignal,
    offer: Pick<PendingBlock, "rememberable" | "choices" | "freeText">,
  ): Promise<{ kind: "answer"; value: string } | { kind: "none"; note: string }> {
    const id = newBlockId();
    let settle!: (outcome: { kind: "answer"; value: string } | { kind: "none"; note: string }) => void;
    const outcome = new Promise<{ kind: "answer"; value: string } | { kind: "none"; note: string }>((resolve) => (settle = resolve));
    this.pending.set(id, { id, kind, ...offer, settle: (value) => settle({ kind: "answer", value }) });
    const timer = setTimeout(() => settle({ kind: "none", note: `No answer in the chat file within ${Math.round(this.timeoutMs() / 1000)} s.` }), this.timeoutMs());
    // A string reason says why the block no longer waits (answered in the message box).
    const onAbort = () => settle({ kind: "none", note: typeof signal.reason === "string" ? signal.reason : "Cancelled." });
    signal.addEventListener("abort", onAbort, { once: true });
    if (signal.aborted) onAbort();
    try {
      // A blank line first: the block stands apart from the answer streamed just before it.
      await this.sink.write(`\n${text(id)}`);
      this.sink.announce(sessionId, kind);
      const result = await outcome;
      await this.sink.write(`_#${id}: ${result.kind === "answer" ? answerWord(kind, result.value) : result.note}_\n\n`);
      return result;
    } finally {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      this.pending.delete(id);
    }
  }
}

function commandBody(request: PermissionRequest): string {
  const command = request.toolCall.command;
  if (!command) return "";
  return `\n\`\`\`sh\n${command.command}\n\`\`\`\nin ${command.cwd}\n`;
}

function answerWord(kind: PendingBlock["kind"], value: string): string {
  if (kind === "question") return `answered "${oneLine(value)}"`;
  return APPROVAL_ANSWERS.find((a) => a.optionId === value)?.title === "Reject" ? "rejected" : "approved";
}

/** An answer as one short line for the outcome note (a written answer may span lines). */
function oneLine(value: string): string {
  const line = value.split("\n")[0]!;
  return line.length > 80 || value.includes("\n") ? `${line.slice(0, 80)}…` : line;
}

/** A block id: random, so no id from an earlier run, another file or a guess names a waiting block. */
export function newBlockId(): string {
  return randomBytes(4).toString("hex");
}
