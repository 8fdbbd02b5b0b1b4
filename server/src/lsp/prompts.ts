/**
 * Permission prompts and questions over LSP. Clients that declare
 * `experimental.agent.requestPermission` / `askUser` get the rich requests; every other client
 * gets window/showMessageRequest. No answer is never a hang and never an exception: a dismissed
 * prompt, a client that cannot answer (MethodNotFound, null), a timeout or a cancel counts as No.
 * Each request carries its `requestId` (in the params, or on every action of a message prompt to
 * clients that keep an action's extra properties): an answer naming another request is refused.
 */
import type { CancellationToken, Connection, MessageActionItem } from "vscode-languageserver/node.js";
import { ErrorCodes as RpcErrorCodes, MessageType, ResponseError, ShowMessageRequest } from "./lsp-library.js";
import type { PermissionAnswer, PermissionOptionId, PermissionRequest, Question } from "../editor/session-ui.js";
import { sendWithdrawable } from "./client-requests.js";
import type { Withdrawal } from "./late-answers.js";

/** Told of a choice the user made after the prompt was withdrawn (its box stayed on screen). */
export type OnLateAnswer = (answer: string, withdrawn: Withdrawal) => void;

/**
 * The options sent with agent/requestPermission. Their names, in this order, are also the
 * buttons of the plain prompt, so both kinds of client see the same three answers.
 */
const PERMISSION_OPTIONS = [
  { optionId: "allow_once", name: "Yes", kind: "allow_once" },
  { optionId: "allow_always", name: "Yes, don't ask again", kind: "allow_always" },
  { optionId: "reject", name: "No", kind: "reject_once" },
] as const satisfies readonly { optionId: PermissionOptionId; name: string; kind: string }[];

/** How a prompt is sent to this client. */
export interface PromptChannel {
  connection: Connection;
  /** The client declared the agent protocol's request for this prompt. */
  rich: boolean;
  /** The client keeps extra properties of a message prompt's actions (`requestId` on each). */
  actionProperties: boolean;
  timeoutMs: number;
}

/** Asks the user to allow an action; always resolves. */
export async function requestPermissionOverLsp(channel: PromptChannel, request: PermissionRequest, signal: AbortSignal, onLate?: OnLateAnswer): Promise<PlainAnswer<PermissionAnswer>> {
  const { connection, rich } = channel;
  // Nothing to remember (a sensitive place, a shell line): do not offer "don't ask again".
  const options = request.rememberable === false ? PERMISSION_OPTIONS.filter((o) => o.optionId !== "allow_always") : PERMISSION_OPTIONS;
  const outcome = await sendCancellable(signal, channel.timeoutMs, (token) =>
    rich
      ? connection.sendRequest(
          "agent/requestPermission",
          {
            sessionId: request.sessionId,
            requestId: request.requestId,
            toolCall: request.toolCall,
            summary: request.summary,
            ...(request.diff ? { diff: request.diff } : {}),
            ...(request.files ? { files: request.files } : {}),
            options,
          },
          token,
        )
      : connection.sendRequest(
          ShowMessageRequest.type,
          { type: MessageType.Warning, message: request.summary, actions: options.map((o) => action(channel, o.name, request.requestId)) },
          token,
        ),
    onLate && ((value, withdrawn) => onLate(permissionLabel(value), withdrawn)),
  );
  if (outcome.kind !== "answer") return { optionId: "reject", note: outcome.note, ...(outcome.unsupported ? { unsupported: true } : {}) };
  const other = otherRequest(outcome.value, request.requestId);
  if (other) return { optionId: "reject", note: other, refused: other };
  return rich ? readRichAnswer(outcome.value) : readPlainAnswer(outcome.value as MessageActionItem | null);
}

/** The name of the option a late answer chose, as the prompt showed it. */
function permissionLabel(value: unknown): string {
  const v = value as { optionId?: unknown; title?: unknown };
  if (typeof v.title === "string") return v.title;
  return PERMISSION_OPTIONS.find((o) => o.optionId === v.optionId)?.name ?? String(v.optionId);
}

/** A message prompt's action, carrying the request's id where the client keeps it. */
function action(channel: PromptChannel, title: string, requestId: string): MessageActionItem {
  return channel.actionProperties ? { title, requestId } : { title };
}

/**
 * Why an answer is refused: it names a request other than this one (an answer meant for an
 * earlier prompt). An answer that names none is this request's: the JSON-RPC id it came back
 * under is random and was sent with this request alone.
 */
function otherRequest(value: unknown, requestId: string): string | undefined {
  const named = (value as { requestId?: unknown } | null)?.requestId;
  if (named === undefined || named === requestId) return undefined;
  return `The editor's answer was for another request (${JSON.stringify(named)}), not this one (${requestId}); it was refused.`;
}

function readRichAnswer(value: unknown): PermissionAnswer {
  if (!value || typeof value !== "object") return { optionId: "reject", note: "The editor gave no answer to the permission request." };
  const v = value as { optionId?: unknown; accepted?: unknown; reason?: unknown };
  const optionId = PERMISSION_OPTIONS.find((o) => o.optionId === v.optionId)?.optionId;
  if (!optionId) return { optionId: "reject", note: `The editor answered with an unknown option ${JSON.stringify(v.optionId)}.` };
  const accepted = Array.isArray(v.accepted)
    ? v.accepted.filter((a): a is { uri: string; text: string } => typeof a?.uri === "string" && typeof a?.text === "string")
    : undefined;
  const reason = typeof v.reason === "string" && v.reason.trim() ? v.reason.trim() : undefined;
  return { optionId, ...(accepted ? { accepted } : {}), ...(reason ? { reason } : {}) };
}

function readPlainAnswer(item: MessageActionItem | null): PermissionAnswer {
  if (!item) return { optionId: "reject", note: "The prompt was dismissed." };
  const optionId = PERMISSION_OPTIONS.find((o) => o.name === item.title)?.optionId;
  return optionId ? { optionId } : { optionId: "reject", note: `Unknown answer "${item.title}".` };
}

/** Asks the user a question; undefined when no answer could be had. */
export async function askUserOverLsp(channel: PromptChannel, question: Question, signal: AbortSignal, onLate?: OnLateAnswer): Promise<PlainAnswer<{ answer?: string }>> {
  const { connection, rich } = channel;
  if (!rich && !question.choices?.length) return {};
  const { sessionId, requestId } = question;
  const outcome = await sendCancellable(signal, channel.timeoutMs, (token) =>
    rich
      ? connection.sendRequest("agent/askUser", { sessionId, requestId, question: question.question, choices: question.choices ?? [], allowFreeText: question.allowFreeText ?? true }, token)
      : connection.sendRequest(ShowMessageRequest.type, { type: MessageType.Info, message: question.question, actions: question.choices!.map((title) => action(channel, title, requestId)) }, token),
    onLate && ((value, withdrawn) => onLate(String((value as { answer?: unknown; title?: unknown }).answer ?? (value as { title?: unknown }).title), withdrawn)),
  );
  if (outcome.kind !== "answer") return outcome.unsupported ? { unsupported: true } : {};
  if (!outcome.value) return {};
  const other = otherRequest(outcome.value, requestId);
  if (other) return { refused: other };
  const v = outcome.value as { answer?: unknown; title?: unknown };
  const answer = rich ? v.answer : v.title;
  return typeof answer === "string" ? { answer } : {};
}

/**
 * An answer, marked `unsupported` when the client answered MethodNotFound: it cannot show the
 * prompt at all, and the caller asks some other way from then on; `refused` says why an answer
 * that named another request was not taken.
 */
export type PlainAnswer<T> = T & { unsupported?: true; refused?: string };

type Outcome = { kind: "answer"; value: unknown } | { kind: "none"; note: string; unsupported: boolean };

/**
 * Sends a request that the turn's cancel or a timeout withdraws ($/cancelRequest). A client that
 * keeps showing the prompt anyway may still answer it: `onLate` hears of a choice made then.
 */
async function sendCancellable(
  signal: AbortSignal,
  timeoutMs: number,
  send: (token: CancellationToken) => Promise<unknown>,
  onLate?: (value: unknown, withdrawn: Withdrawal) => void,
): Promise<Outcome> {
  const sent = sendWithdrawable(signal, timeoutMs, send);
  const outcome = await sent.outcome;
  if (outcome.kind === "answer") return outcome;
  if (outcome.kind !== "error") {
    const withdrawn = outcome.kind;
    // null is a dismissed box (or a client that withdrew it): nothing was chosen.
    if (onLate) void sent.late.then((late) => late.kind === "answer" && late.value && onLate(late.value, withdrawn));
    return { kind: "none", note: outcome.note, unsupported: false };
  }
  return { kind: "none", note: describeRequestError(outcome.error), unsupported: isMethodNotFound(outcome.error) };
}

function isMethodNotFound(err: unknown): boolean {
  return err instanceof ResponseError && err.code === RpcErrorCodes.MethodNotFound;
}

function describeRequestError(err: unknown): string {
  if (isMethodNotFound(err)) {
    return "The editor cannot answer permission prompts (MethodNotFound).";
  }
  return `The editor could not show the prompt: ${(err as Error).message}`;
}
