/**
 * The session UI over ACP: every gated action is a `session/request_permission` carrying the
 * structured tool call (kind, locations, the command, the change as `diff` content). No answer
 * is never a hang: a cancelled prompt, an error, a timeout or the turn's cancel counts as reject,
 * with a note saying which. ACP has no questions of its own in v1, so a question with choices is
 * asked as a permission request whose options are the choices.
 */
import { fileURLToPath } from "node:url";
import type * as acp from "@agentclientprotocol/sdk";
import type { PermissionAnswer, PermissionOptionId, PermissionRequest, ProgressHandle, Question, SessionUI } from "../editor/session-ui.js";
import type { Logger } from "../util/log.js";
import { acpLocations, type DiffTexts } from "./updates.js";

/** The client's permission method, as the connection offers it. */
export type AskPermission = (params: acp.RequestPermissionRequest, signal: AbortSignal) => Promise<acp.RequestPermissionResponse>;

const OPTIONS: { optionId: PermissionOptionId | "reject_once"; name: string; kind: acp.PermissionOptionKind }[] = [
  { optionId: "allow_once", name: "Allow", kind: "allow_once" },
  { optionId: "allow_always", name: "Always allow", kind: "allow_always" },
  { optionId: "reject_once", name: "Reject", kind: "reject_once" },
];

/** Prompts and questions through the ACP client. */
export class AcpSessionUI implements SessionUI {
  /** Seconds a prompt waits for its answer (config `approval_timeout_s`). */
  timeoutS = 600;
  /** The full texts each prompted tool call proposed, for the diff content of its update. */
  private readonly texts = new Map<string, DiffTexts[]>();

  constructor(
    private readonly ask: AskPermission,
    private readonly cwdOf: (sessionId: string) => string,
    private readonly log: Logger,
  ) {}

  /** Asks for a gated action; always resolves. */
  async requestPermission(request: PermissionRequest, signal: AbortSignal): Promise<PermissionAnswer> {
    const cwd = this.cwdOf(request.sessionId);
    const files = (request.files ?? []).map((f) => ({ path: fileURLToPath(f.uri), oldText: f.oldText, newText: f.newText }));
    if (files.length) this.texts.set(request.toolCall.id, files);
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
    const options = OPTIONS.filter((o) => request.rememberable !== false || o.optionId !== "allow_always");
    const answer = await this.send({ sessionId: request.sessionId, toolCall, options }, signal);
    if (answer.kind !== "selected") return { optionId: "reject", note: answer.note };
    if (answer.optionId === "allow_once" || answer.optionId === "allow_always") return { optionId: answer.optionId };
    return { optionId: "reject" };
  }

  /** The texts a prompt showed for `toolCallId` (read once, when its update maps them). */
  textsOf(toolCallId: string): DiffTexts[] | undefined {
    const found = this.texts.get(toolCallId);
    this.texts.delete(toolCallId);
    return found;
  }

  /** A question with choices, as a permission request whose options are the choices. */
  async askUser(question: Question, signal: AbortSignal): Promise<string | undefined> {
    const choices = question.choices ?? [];
    if (!choices.length) {
      this.log.warn(`ACP clients cannot be asked a free-text question; "${question.question}" went unanswered`);
      return undefined;
    }
    const options = choices.map((name, i) => ({ optionId: `choice-${i}`, name, kind: "allow_once" as const }));
    const toolCall: acp.ToolCallUpdate = { toolCallId: `question-${Date.now()}`, title: question.question, kind: "think", status: "pending" };
    const answer = await this.send({ sessionId: question.sessionId, toolCall, options }, signal);
    if (answer.kind !== "selected") return undefined;
    return choices[Number(answer.optionId.slice("choice-".length))];
  }

  /** ACP has no progress outside a session's stream, where the session's work already shows. */
  progress(): ProgressHandle {
    return { report: () => undefined, done: () => undefined };
  }

  /** ACP has no message outside a session: it goes to the log (stderr and the log file). */
  showMessage(type: "error" | "warning" | "info", message: string): void {
    this.log[type === "warning" ? "warn" : type](message);
  }

  /** Sends one prompt, bounded by the timeout and the turn's signal. */
  private async send(params: acp.RequestPermissionRequest, signal: AbortSignal): Promise<{ kind: "selected"; optionId: string } | { kind: "none"; note: string }> {
    const withdraw = new AbortController();
    const stop = () => withdraw.abort();
    signal.addEventListener("abort", stop, { once: true });
    const timer = setTimeout(stop, this.timeoutS * 1000);
    try {
      const response = await this.ask(params, withdraw.signal);
      if (response.outcome.outcome === "selected") return { kind: "selected", optionId: response.outcome.optionId };
      return { kind: "none", note: signal.aborted ? "the turn was cancelled" : withdraw.signal.aborted ? `no answer within ${this.timeoutS} s` : "the client cancelled the prompt" };
    } catch (err) {
      const why = signal.aborted ? "the turn was cancelled" : withdraw.signal.aborted ? `no answer within ${this.timeoutS} s` : `the client could not answer (${(err as Error).message})`;
      return { kind: "none", note: why };
    } finally {
      clearTimeout(timer);
      signal.removeEventListener("abort", stop);
    }
  }
}
