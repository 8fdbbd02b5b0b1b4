/**
 * Decides one gated action the mode did not settle: rules first ("don't ask again"), then the
 * classifier in auto mode, then the user in the editor. Every way of not getting a Yes (No, a
 * dismissed prompt, a client that cannot answer, a timeout, a cancel) is a denial whose reason
 * tells the model what happened; nothing here throws or waits forever.
 */
import type { Config } from "../config/schema.js";
import { newRequestId, type PermissionAnswer, type SessionUI } from "../editor/session-ui.js";
import type { SessionEvents } from "../editor/session-events.js";
import type { ImageBlock, Message } from "../vocabulary/messages.js";
import type { GateDecision } from "../vocabulary/policy.js";
import { classifierPrompt, classify, recentContext, type Complete, type Verdict } from "./classifier.js";
import type { ApprovalBook } from "./rule-book.js";
import { describeRule, ruleCovers, type ApprovalRule, type Scope } from "./rules.js";
import type { SensitivePlaces } from "./sensitive.js";
import { guardScopes, ruleIsUsable } from "./sensitive-scopes.js";
import type { GateCall, GateSession } from "./types.js";
import { boundedInput } from "../util/bounded-input.js";

/** One action to decide. */
export interface Proposal {
  session: GateSession;
  call: GateCall;
  /** One line: tool, path or command, +N/-M lines. */
  summary: string;
  /** A few lines for the classifier (command and folder, paths, start of the diff). */
  details: string;
  /** The parts that need approval; the action runs unasked when rules cover every one. */
  scopes: Scope[];
  diff?: string;
  files?: { uri: string; oldText: string; newText: string }[];
  /** Pictures the safety check sees with the action (the screen a desktop batch will act on). */
  images?: ImageBlock[];
}

/** What the approver needs. */
export interface ApproverDeps {
  editor: SessionUI;
  book: ApprovalBook;
  config(): Config;
  /** The classifier's model call; without it auto mode asks the user. */
  complete?: Complete;
  /** A session's conversation, for the classifier's context. */
  history?(sessionId: string): readonly Message[];
  /** Where status updates go (what the safety check decided, what was remembered). */
  events: SessionEvents;
  /** The sensitive locations (never remembered, always asked by the user). */
  places(): SensitivePlaces;
}

/** The decision that lets an action run. */
export const ALLOW: GateDecision = { allowed: true };

/** Decides proposals. */
export class Approver {
  constructor(private readonly deps: ApproverDeps) {}

  /** Rules, then (auto) the classifier, then the user. Sensitive locations skip the first two. */
  async decide(proposal: Proposal, signal: AbortSignal): Promise<GateDecision> {
    const p = withSensitiveHeadlines({ ...proposal, scopes: guardScopes(proposal.scopes, this.deps.places()) });
    const mode = p.session.mode;
    const sensitive = p.scopes.filter((s) => s.sensitive);
    if (mode === "full_access") {
      // full_access asks nothing, but credentials are never touched silently.
      if (sensitive.some((s) => s.sensitive?.kind === "credential")) this.status(p, `full_access: ${p.summary}`);
      return ALLOW;
    }
    if (!(await this.needsDecision(p))) return ALLOW;
    if (signal.aborted) return cancelled();
    if (mode === "auto" && sensitive.length) {
      this.status(p, `Asking you: ${p.summary} (sensitive locations are never left to the safety check)`);
    } else if (mode === "auto") {
      const verdict = await this.classify(p, signal);
      if (signal.aborted) return cancelled();
      if (verdict.decision === "allow") return ALLOW;
      if (verdict.decision === "deny") {
        return { allowed: false, reason: `The safety check refused ${p.summary}: ${verdict.reason}. Nothing was done; take another approach or ask the user.` };
      }
    }
    return this.ask(p, signal);
  }

  /** True when some part is neither run by the mode (auto) nor covered by a rule. */
  private async needsDecision(p: Proposal): Promise<boolean> {
    const pending = p.scopes.filter((scope) => !(p.session.mode === "auto" && scope.autoAllowed));
    if (!pending.length) return false;
    if (pending.some((scope) => !scope.rule)) return true;
    const places = this.deps.places();
    // A rule that would grant a sensitive place wholesale (a hand-written one for ~) covers nothing.
    const rules = (await this.deps.book.rules(p.session, this.deps.config().remember_approvals)).filter((r) => ruleIsUsable(r, places));
    return pending.some((scope) => !rules.some((r) => ruleCovers(r, scope.rule!)));
  }

  private async classify(p: Proposal, signal: AbortSignal): Promise<Verdict> {
    const verdict = this.deps.complete ? await this.runClassifier(p, this.deps.complete, signal) : noClassifier();
    const shown = { allow: "allowed", deny: "refused", ask: "asking you" }[verdict.decision];
    this.status(p, `Safety check ${shown}: ${p.summary} (${verdict.reason})`);
    return verdict;
  }

  private runClassifier(p: Proposal, complete: Complete, signal: AbortSignal): Promise<Verdict> {
    const config = this.deps.config();
    const context = recentContext(this.deps.history?.(p.session.sessionId) ?? []);
    const { system, prompt } = classifierPrompt({ summary: p.summary, details: p.details, root: p.session.root }, context);
    const request = {
      sessionId: p.session.sessionId,
      system,
      prompt,
      maxTokens: 300,
      ...(p.images?.length ? { images: p.images } : {}),
      ...(config.policy.classifier_model ? { model: config.policy.classifier_model } : {}),
    };
    return classify(complete, request, signal, config.policy.classifier_timeout_s * 1000);
  }

  /** Asks the user in the editor and turns the answer into a decision. */
  private async ask(p: Proposal, signal: AbortSignal): Promise<GateDecision> {
    // A file change of a call reviewed with others of its message is asked with theirs, once.
    const review = p.files ? p.call.review : undefined;
    const answer = review ? await review.ask(p, (joined) => this.requestPermission(joined, signal)) : await this.requestPermission(p, signal);
    if (signal.aborted) return cancelled();
    if (answer.optionId === "reject") {
      if (answer.note) this.status(p, `No answer to the permission prompt for ${p.summary}: ${answer.note} Counted as No.`);
      // A note means nobody answered (a timeout, an editor that could not ask): not the user's No.
      if (answer.note) return { allowed: false, reason: unanswered(p.summary, answer.note) };
      return { allowed: false, declined: true, reason: declined(p.summary, undefined, answer.reason) };
    }
    // A change reviewed and left as it was is a No, whatever the button: nothing of it is applied.
    if (tookNothing(p.files, answer.accepted)) {
      return { allowed: false, declined: true, reason: declined(p.summary, "the user reviewed it and took none of it", answer.reason) };
    }
    if (answer.optionId === "allow_always") await this.remember(p);
    if (!answer.accepted) return ALLOW;
    return { allowed: true, accepted: answer.accepted, ...(answer.reason ? { userWords: answer.reason } : {}) };
  }

  private async requestPermission(p: Proposal, signal: AbortSignal): Promise<PermissionAnswer> {
    try {
      return await this.deps.editor.requestPermission(
        {
          sessionId: p.session.sessionId,
          requestId: newRequestId(),
          toolCall: { id: p.call.id, name: p.call.name, title: p.call.title, input: boundedInput(p.call.input), ...p.call.facts },
          summary: promptSummary(p),
          rememberable: p.scopes.some((s) => s.rule !== undefined),
          ...(p.diff ? { diff: p.diff } : {}),
          ...(p.files ? { files: p.files } : {}),
        },
        signal,
      );
    } catch (err) {
      // Editors promise never to throw here; one that does still gets a No, not a crash.
      return { optionId: "reject", note: `The permission prompt failed: ${(err as Error).message}.` };
    }
  }

  /** Keeps the rules of a "don't ask again", and says what was (and was not) remembered. */
  private async remember(p: Proposal): Promise<void> {
    const rules = p.scopes.map((s) => s.rule).filter((r): r is ApprovalRule => r !== undefined);
    const persist = this.deps.config().remember_approvals;
    await this.deps.book.remember(p.session, rules, persist);
    const notes: string[] = [];
    if (rules.length) notes.push(`Won't ask again ${persist ? "in this project" : "in this session"} for ${rules.map(describeRule).join("; ")}.`);
    const never = unrememberedReasons(p.scopes);
    if (never.length) notes.push(`Allowed this time only: ${never.join("; ")}.`);
    this.status(p, notes.join(" "));
  }

  private status(p: Proposal, text: string): void {
    if (text) this.deps.events.emit(p.session.sessionId, { kind: "status", text });
  }
}

/**
 * Whether a review kept every file of the proposal at its old text: each file has an accepted text
 * and it is the file's old one (line endings aside, which the client may have changed).
 */
export function tookNothing(files: Proposal["files"], accepted: PermissionAnswer["accepted"]): boolean {
  if (!files?.length || !accepted) return false;
  const kept = new Map(accepted.map((a) => [a.uri, lf(a.text)]));
  return files.every((f) => kept.get(f.uri) === lf(f.oldText) && lf(f.newText) !== lf(f.oldText));
}

function lf(text: string): string {
  return text.replace(/\r\n/g, "\n");
}

/** The proposal with its sensitive places named first: the prompt opens with what is at stake. */
function withSensitiveHeadlines(p: Proposal): Proposal {
  const headlines = [...new Set(p.scopes.flatMap((s) => (s.sensitive ? [s.sensitive.headline] : [])))];
  return headlines.length ? { ...p, summary: `${headlines.join("; ")} — ${p.summary}` } : p;
}

/** Why parts of an action cannot be remembered, each once. */
function unrememberedReasons(scopes: readonly Scope[]): string[] {
  return [...new Set(scopes.map((s) => s.unremembered).filter((u): u is string => u !== undefined))];
}

/**
 * The prompt's line: the summary and why parts without a headline of their own are not
 * remembered (`commands run through "python" ...`), so the user knows before answering.
 */
function promptSummary(p: Proposal): string {
  const never = unrememberedReasons(p.scopes.filter((s) => !s.sensitive));
  return never.length ? `${p.summary} (${never.join("; ")})` : p.summary;
}

/**
 * The reason a model gets when the user did not approve; the user's own words, when they gave
 * some, are quoted so the model can act on them instead of asking again.
 */
export function declined(summary: string, note?: string, userReason?: string): string {
  const why = note ? ` — ${note.replace(/\.$/, "")}` : "";
  if (userReason) {
    return `The user declined ${summary}${why}. It was not done. The user said: ${JSON.stringify(userReason)}. Follow what they said; do not retry it as it is.`;
  }
  return `The user declined ${summary}${why}. It was not done. Do not retry it as it is; ask the user what they want, or take another approach.`;
}

/**
 * The reason a model gets when no answer came (the editor could not ask, nobody answered in
 * time, no terminal to ask in): nothing was approved, and the user did not say No either.
 */
export function unanswered(summary: string, note: string): string {
  return `${summary} was not approved: the user was not asked or gave no answer (${note.replace(/\.$/, "")}). It was not done. Do not retry it as it is; say what you wanted to do, or take another approach.`;
}

function cancelled(): GateDecision {
  return { allowed: false, reason: "Cancelled by the user before it was approved; nothing was done." };
}

function noClassifier(): Verdict {
  return { decision: "ask", reason: "no model is available for the safety check" };
}
