/**
 * Permission prompts and questions as blocks in the chat file, for clients without agent-lsp's
 * own review ([editor] approvals). A block is the server's text (its heading with a random id,
 * the diff or the command, what to do), then one empty line that is the user's (a reason for
 * Reject, an answer in their own words), then a line the server keeps saying it waits. The user
 * answers with a code action on the block (chat-actions.ts), which settles the waiting promise
 * here; no answer within the approval timeout, or the turn's cancel, counts as No. Only blocks
 * this server wrote and still waits on can be answered: what a block is comes from the server's
 * record, never from the file's text.
 */
import { randomBytes } from "node:crypto";
import type { PermissionAnswer, PermissionOptionId, PermissionRequest, Question } from "../../editor/session-ui.js";
import { approvalHeading, approvalHint, escapeText, oneLine, outcomeLine, questionHeading, questionHint, waitingLine } from "./chat-text.js";

/** How blocks are written and the user told about them. */
export interface BlockSink {
  /** Adds a block's pieces at the end of the session's section of the file. */
  place(sessionId: string, pieces: { key: string; owner: "server" | "user"; text: string }[]): Promise<void>;
  /** What the user wrote on a block's answer lines. */
  written(key: string): Promise<string>;
  /** Ends a block: its answer lines become the server's as they are, its last line says how it ended. */
  settle(answerKey: string, tailKey: string, tail: string): Promise<void>;
  /** Tells the user a block waits (message line, status, the file shown). */
  announce(sessionId: string, kind: PendingBlock["kind"]): void;
}

/** One waiting block. */
export interface PendingBlock {
  /** Random per block: an id seen before a restart, or written by someone else, names no waiting block. */
  id: string;
  kind: "approval" | "question";
  /** The session whose turn (or the run about to start one) waits on it. */
  sessionId: string;
  /** Approval: whether "don't ask again" is offered. */
  rememberable: boolean;
  /** Question: the choices, one code action each; none for a free-text answer written under the block. */
  choices: string[];
  /** Question: an answer written on the block's answer line is taken too ("Send answer"). */
  freeText: boolean;
  /** The keys of its pieces in the file: heading and body, answer lines, last line. */
  pieces: { head: string; answer: string; tail: string };
  /** Settles it with an answer (an option id, a choice, or the written text). */
  settle(answer: string): void;
}

/** The labels of the approval answers, as the code actions show them. */
export const APPROVAL_ANSWERS: readonly { optionId: PermissionOptionId; title: string }[] = [
  { optionId: "allow_once", title: "Approve" },
  { optionId: "allow_always", title: "Approve, don't ask again" },
  { optionId: "reject", title: "Reject" },
];

type Outcome = { kind: "answer"; value: string; written: string } | { kind: "none"; note: string };

/** The blocks waiting for an answer, and how the settled ones ended. */
export class ChatPrompts {
  private readonly pending = new Map<string, PendingBlock>();
  /** How each block this server settled ended, by id. */
  private readonly settled = new Map<string, string>();
  private readonly settleListeners = new Set<() => void>();

  constructor(
    private readonly sink: BlockSink,
    private readonly timeoutMs: () => number,
    /** How the user opens the code-action menu, for the blocks' hints. */
    private readonly actionKey: () => string,
  ) {}

  /** The waiting block with `id`, if it still waits. */
  get(id: string): PendingBlock | undefined {
    return this.pending.get(id);
  }

  /** The waiting block one of whose pieces is `key`. */
  byPiece(key: string): PendingBlock | undefined {
    return [...this.pending.values()].find((b) => Object.values(b.pieces).includes(key));
  }

  /** The sessions with a block waiting for an answer. */
  waitingSessions(): Set<string> {
    return new Set([...this.pending.values()].map((b) => b.sessionId));
  }

  /** The waiting blocks of `sessionId`. */
  waitingOf(sessionId: string): PendingBlock[] {
    return [...this.pending.values()].filter((b) => b.sessionId === sessionId);
  }

  /** Calls `listener` each time a block stops waiting; returns how to stop. */
  onSettled(listener: () => void): () => void {
    this.settleListeners.add(listener);
    return () => this.settleListeners.delete(listener);
  }

  /** How the block with `id` ended, when this server wrote and settled it. */
  outcome(id: string): string | undefined {
    return this.settled.get(id);
  }

  /** The id of the settled block one of whose pieces is `key`. */
  settledByPiece(key: string): string | undefined {
    const id = /^b-([0-9a-z]+)-/.exec(key)?.[1];
    return id && this.settled.has(id) ? id : undefined;
  }

  /** Writes an approval block and waits for its answer; a Reject carries the words written under it. */
  async requestPermission(request: PermissionRequest, signal: AbortSignal): Promise<PermissionAnswer> {
    const body = request.diff ? `\n\`\`\`diff\n${request.diff.trimEnd()}\n\`\`\`\n` : commandBody(request);
    const head = (id: string) => `\n${approvalHeading(id, request.summary)}\n${body}\n${approvalHint(this.actionKey())}\n`;
    const outcome = await this.wait("approval", head, request, signal, { rememberable: request.rememberable !== false, choices: [], freeText: false });
    if (outcome.kind !== "answer") return { optionId: "reject", note: outcome.note };
    const optionId = outcome.value as PermissionOptionId;
    const reason = outcome.written.trim();
    return optionId === "reject" && reason ? { optionId, reason } : { optionId };
  }

  /**
   * Writes a question block and waits for the answer: a choice picked as a code action, or the
   * text written on its answer line; undefined when none came.
   */
  async askUser(question: Question, signal: AbortSignal): Promise<string | undefined> {
    const choices = question.choices ?? [];
    const freeText = !choices.length || question.allowFreeText === true;
    const list = choices.map((c) => `- ${oneLine(c, 200)}`).join("\n");
    const head = (id: string) => `\n${questionHeading(id, question.question)}\n\n${list ? `${list}\n\n` : ""}${questionHint(choices.length > 0, freeText, this.actionKey())}\n`;
    const outcome = await this.wait("question", head, question, signal, { rememberable: false, choices, freeText });
    return outcome.kind === "answer" ? outcome.value : undefined;
  }

  private async wait(
    kind: PendingBlock["kind"],
    head: (id: string) => string,
    { sessionId, requestId }: { sessionId: string; requestId: string },
    signal: AbortSignal,
    offer: Pick<PendingBlock, "rememberable" | "choices" | "freeText">,
  ): Promise<Outcome> {
    const id = blockId(requestId);
    const pieces = { head: `b-${id}-head`, answer: `b-${id}-answer`, tail: `b-${id}-tail` };
    let settle!: (outcome: Outcome) => void;
    const outcome = new Promise<Outcome>((resolve) => (settle = resolve));
    const answer = (value: string) => void this.sink.written(pieces.answer).then((written) => settle({ kind: "answer", value, written }));
    this.pending.set(id, { id, kind, sessionId, ...offer, pieces, settle: answer });
    const timer = setTimeout(() => settle({ kind: "none", note: `no answer within ${Math.round(this.timeoutMs() / 1000)} s` }), this.timeoutMs());
    // A string reason says why the block no longer waits (answered in the message box).
    const onAbort = () => settle({ kind: "none", note: typeof signal.reason === "string" ? signal.reason : "cancelled" });
    signal.addEventListener("abort", onAbort, { once: true });
    if (signal.aborted) onAbort();
    try {
      await this.sink.place(sessionId, [
        { key: pieces.head, owner: "server", text: head(id) },
        { key: pieces.answer, owner: "user", text: "\n" },
        { key: pieces.tail, owner: "server", text: waitingLine(id) },
      ]);
      this.sink.announce(sessionId, kind);
      const result = await outcome;
      this.pending.delete(id);
      const said = result.kind === "answer" ? answerWords(kind, result.value, result.written) : result.note;
      this.settled.set(id, said);
      await this.sink.settle(pieces.answer, pieces.tail, outcomeLine(id, said));
      return result;
    } finally {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      this.pending.delete(id);
      for (const listener of [...this.settleListeners]) listener();
    }
  }
}

/**
 * A block's id: the start of its request's random id (a UUID's first 8 hex digits, short enough
 * for a heading), so no id from an earlier run, another file or a guess names a waiting block.
 */
function blockId(requestId: string): string {
  const head = /^[0-9a-f]{8}/.exec(requestId)?.[0];
  return head ?? randomBytes(4).toString("hex");
}

function commandBody(request: PermissionRequest): string {
  const command = request.toolCall.command;
  if (!command) return "";
  return `\n\`\`\`sh\n${escapeText(command.command)}\n\`\`\`\nin ${command.cwd}\n`;
}

/** How a settled block's last line says it ended. */
function answerWords(kind: PendingBlock["kind"], value: string, written: string): string {
  if (kind === "question") return `answered "${oneLine(value)}"`;
  if (value !== "reject") return "approved";
  const reason = written.trim();
  return reason ? `rejected: ${oneLine(reason)}` : "rejected";
}
