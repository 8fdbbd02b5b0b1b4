/**
 * The session UI over ACP: every gated action is a `session/request_permission` carrying the
 * structured tool call (kind, locations, the command, the change as `diff` content). No answer
 * is never a hang: a cancelled prompt, an error, a timeout or the turn's cancel counts as reject,
 * with a note saying which. A question with choices is asked as a permission request whose
 * options are the choices (every client has those); one that wants the user's own words is an
 * `elicitation/create` form with one text field, for clients that declare form elicitation.
 */
import { fileURLToPath } from "node:url";
import type * as acp from "@agentclientprotocol/sdk";
import type { PermissionAnswer, PermissionOptionId, PermissionRequest, ProgressHandle, Question, SessionUI } from "../editor/session-ui.js";
import type { Logger } from "../util/log.js";
import { acpLocations } from "./updates.js";

/** The client's permission method, as the connection offers it. */
export type AskPermission = (params: acp.RequestPermissionRequest, signal: AbortSignal) => Promise<acp.RequestPermissionResponse>;

/** The client's elicitation method, when it declares form elicitation. */
export type Elicit = (params: acp.CreateElicitationRequest, signal: AbortSignal) => Promise<acp.CreateElicitationResponse>;

const OPTIONS: { optionId: PermissionOptionId | "reject_once"; name: string; kind: acp.PermissionOptionKind }[] = [
  { optionId: "allow_once", name: "Allow", kind: "allow_once" },
  { optionId: "allow_always", name: "Always allow", kind: "allow_always" },
  { optionId: "reject_once", name: "Reject", kind: "reject_once" },
];

/**
 * An option id that names its request (`allow_once@<requestId>`): the client answers with the id
 * it was offered, so an answer meant for another prompt cannot pass for this one's.
 */
function boundOption(optionId: string, requestId: string): string {
  return `${optionId}@${requestId}`;
}

/** Prompts and questions through the ACP client. */
export class AcpSessionUI implements SessionUI {
  /** Seconds a prompt waits for its answer (config `approval_timeout_s`). */
  timeoutS = 600;

  constructor(
    private readonly ask: AskPermission,
    private readonly cwdOf: (sessionId: string) => string,
    private readonly log: Logger,
    private readonly elicit?: Elicit,
  ) {}

  /** Asks for a gated action; always resolves. */
  async requestPermission(request: PermissionRequest, signal: AbortSignal): Promise<PermissionAnswer> {
    const cwd = this.cwdOf(request.sessionId);
    const files = (request.files ?? []).map((f) => ({ path: fileURLToPath(f.uri), oldText: f.oldText, newText: f.newText }));
    const content: acp.ToolCallContent[] = files.length
      ? files.map((f) => ({ type: "diff", ...f }))
      : [{ type: "content", content: { type: "text", text: request.summary } }];
    const call = request.toolCall;
    const toolCall: acp.ToolCallUpdate = {
      toolCallId: call.id,
      title: call.title,
      kind: call.toolKind ?? "other",
      status: "pending",
      rawInput: call.input,
      content,
      ...(call.locations ? { locations: acpLocations(call.locations, cwd) } : {}),
    };
    const offered = OPTIONS.filter((o) => request.rememberable !== false || o.optionId !== "allow_always");
    const options = offered.map((o) => ({ ...o, optionId: boundOption(o.optionId, request.requestId) }));
    const answer = await this.send({ sessionId: request.sessionId, toolCall, options }, signal, request.requestId);
    if (answer.kind !== "selected") return { optionId: "reject", note: answer.note };
    if (answer.optionId === "allow_once" || answer.optionId === "allow_always") return { optionId: answer.optionId };
    return { optionId: "reject" };
  }

  /** A question: its choices as a permission request, or a one-field form for the user's own words. */
  async askUser(question: Question, signal: AbortSignal): Promise<string | undefined> {
    const choices = question.choices ?? [];
    if (!choices.length) return this.askFreeText(question, signal);
    const options = choices.map((name, i) => ({ optionId: boundOption(`choice-${i}`, question.requestId), name, kind: "allow_once" as const }));
    const toolCall: acp.ToolCallUpdate = { toolCallId: `question-${question.requestId}`, title: question.question, kind: "think", status: "pending" };
    const answer = await this.send({ sessionId: question.sessionId, toolCall, options }, signal, question.requestId);
    if (answer.kind !== "selected") return undefined;
    return choices[Number(answer.optionId.slice("choice-".length))];
  }

  /** A question without choices, as a form with one text field; undefined when it cannot be asked or was declined. */
  private async askFreeText(question: Question, signal: AbortSignal): Promise<string | undefined> {
    if (!this.elicit) {
      this.log.warn(`this ACP client declares no form elicitation: the free-text question "${question.question}" went unanswered`);
      return undefined;
    }
    const params: acp.CreateElicitationRequest = {
      mode: "form",
      sessionId: question.sessionId,
      message: question.question,
      requestedSchema: { type: "object", properties: { answer: { type: "string", title: "Answer" } }, required: ["answer"] },
    };
    const outcome = await this.bounded(signal, (s) => this.elicit!(params, s));
    if (outcome.kind !== "answer" || outcome.value.action !== "accept") return undefined;
    const answer = (outcome.value as { content?: Record<string, unknown> | null }).content?.answer;
    return typeof answer === "string" && answer.trim() ? answer : undefined;
  }

  /** ACP has no progress outside a session's stream, where the session's work already shows. */
  progress(): ProgressHandle {
    return { report: () => undefined, done: () => undefined };
  }

  /** ACP has no message outside a session: it goes to the log (stderr and the log file). */
  showMessage(type: "error" | "warning" | "info", message: string): void {
    this.log[type === "warning" ? "warn" : type](message);
  }

  /**
   * Sends one permission prompt, bounded by the timeout and the turn's signal. The answer is the
   * option picked without its request id; an option of another request (or none offered) is refused.
   */
  private async send(params: acp.RequestPermissionRequest, signal: AbortSignal, requestId: string): Promise<{ kind: "selected"; optionId: string } | { kind: "none"; note: string }> {
    const outcome = await this.bounded(signal, (s) => this.ask(params, s));
    if (outcome.kind === "none") return outcome;
    const response = outcome.value.outcome;
    if (response.outcome !== "selected") return { kind: "none", note: signal.aborted ? "the turn was cancelled" : "the client cancelled the prompt" };
    if (!params.options.some((o) => o.optionId === response.optionId)) {
      const note = `the client answered with ${JSON.stringify(response.optionId)}, an option of another request (this one is ${requestId}); it was refused`;
      this.log.warn(note);
      return { kind: "none", note };
    }
    return { kind: "selected", optionId: response.optionId.slice(0, response.optionId.lastIndexOf("@")) };
  }

  /** Runs one request to the client, withdrawn at the timeout or the turn's cancel; says which ended it. */
  private async bounded<T>(signal: AbortSignal, request: (signal: AbortSignal) => Promise<T>): Promise<{ kind: "answer"; value: T } | { kind: "none"; note: string }> {
    const withdraw = new AbortController();
    const stop = () => withdraw.abort();
    signal.addEventListener("abort", stop, { once: true });
    const timer = setTimeout(stop, this.timeoutS * 1000);
    try {
      const value = await request(withdraw.signal);
      if (withdraw.signal.aborted) return { kind: "none", note: signal.aborted ? "the turn was cancelled" : `no answer within ${this.timeoutS} s` };
      return { kind: "answer", value };
    } catch (err) {
      const why = signal.aborted ? "the turn was cancelled" : withdraw.signal.aborted ? `no answer within ${this.timeoutS} s` : `the client could not answer (${(err as Error).message})`;
      return { kind: "none", note: why };
    } finally {
      clearTimeout(timer);
      signal.removeEventListener("abort", stop);
    }
  }
}
