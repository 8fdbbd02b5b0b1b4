/**
 * One review for the file changes of several tool calls of one model message. When the model
 * edits three files with three calls, the user reviews the three together (one permission
 * request listing every file, reviewed hunk by hunk in one tab) instead of three prompts in a
 * row. The calls run side by side up to their question; each one that has to ask joins the
 * group, each that finishes without asking (a rule covered it, it failed, it changed nothing)
 * leaves it; when every member has done one or the other, the joined questions go out as one,
 * and each call gets its part of the answer (its own files of a partial accept).
 */
import type { PermissionAnswer } from "../editor/session-ui.js";
import type { Proposal } from "./approver.js";

interface Waiter {
  proposal: Proposal;
  resolve(answer: PermissionAnswer): void;
}

/** Sends a proposal to the user and returns the answer. */
export type SendProposal = (proposal: Proposal) => Promise<PermissionAnswer>;

/** The file-change questions of one model message's calls. */
export class ReviewGroup {
  private readonly pending: Set<string>;
  private readonly waiters: Waiter[] = [];
  private send: SendProposal | undefined;

  /** @param memberIds the tool call ids that may ask, in the model's order (the review's order) */
  constructor(private readonly memberIds: readonly string[]) {
    this.pending = new Set(memberIds);
  }

  /** Joins with a file change the user must be asked about; resolves with this call's part of the answer. */
  ask(proposal: Proposal, send: SendProposal): Promise<PermissionAnswer> {
    this.pending.delete(proposal.call.id);
    this.send ??= send;
    const answer = new Promise<PermissionAnswer>((resolve) => this.waiters.push({ proposal, resolve }));
    this.flushWhenComplete();
    return answer;
  }

  /** A member finished (or will not ask): the others need not wait for it. */
  leave(callId: string): void {
    if (this.pending.delete(callId)) this.flushWhenComplete();
  }

  private flushWhenComplete(): void {
    if (this.pending.size || !this.waiters.length || !this.send) return;
    const order = (w: Waiter) => this.memberIds.indexOf(w.proposal.call.id);
    const waiters = this.waiters.splice(0).sort((a, b) => order(a) - order(b));
    const send = this.send;
    if (waiters.length === 1) {
      void send(waiters[0]!.proposal).then(waiters[0]!.resolve);
      return;
    }
    void send(merged(waiters.map((w) => w.proposal))).then((answer) => {
      for (const w of waiters) w.resolve(partFor(answer, w.proposal));
    });
  }
}

/** The proposals as one: every file and diff, the summaries in order, the first call's facts. */
export function merged(proposals: Proposal[]): Proposal {
  const first = proposals[0]!;
  const files = proposals.flatMap((p) => p.files ?? []);
  return {
    session: first.session,
    call: { ...first.call, title: `${proposals.length} changes: ${proposals.map((p) => p.call.title).join("; ")}` },
    summary: `${proposals.length} changes in one review: ${proposals.map((p) => p.summary).join("; ")}`,
    details: proposals.map((p) => p.details).join("\n\n"),
    scopes: proposals.flatMap((p) => p.scopes),
    diff: proposals.map((p) => p.diff ?? "").join(""),
    files,
  };
}

/** One call's part of the answer to the merged review: the same choice, its own files' accepted texts. */
export function partFor(answer: PermissionAnswer, proposal: Proposal): PermissionAnswer {
  if (!answer.accepted) return answer;
  const mine = new Set((proposal.files ?? []).map((f) => f.uri));
  return { ...answer, accepted: answer.accepted.filter((a) => mine.has(a.uri)) };
}
