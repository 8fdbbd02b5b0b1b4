/**
 * `session/prompt`: a slash command or a turn, answered as the spec orders it. Every update of the
 * turn (a cancelled tool's last status, the usage) goes out before the answer, also after a
 * cancel; a turn that fails is answered with the error once (its error notice is not also sent);
 * a mode the turn changed (`/mode`, a plan approved) is told as the client follows modes.
 */
import type * as acp from "@agentclientprotocol/sdk";
import type { Agent } from "../agent/agent.js";
import { AgentRequestError, ErrorCodes } from "../agent/errors.js";
import type { StopReason } from "../protocol/schemas.js";
import type { AcpClient } from "./connection.js";
import { slashCommandOf, toPromptBlocks } from "./prompt.js";

/** ACP has no max-turns or error stop reason: those turns end as end_turn or as an error. */
const STOP_REASONS: Record<Exclude<StopReason, "error">, acp.StopReason> = {
  end_turn: "end_turn",
  cancelled: "cancelled",
  max_turns: "max_turn_requests",
  refusal: "refusal",
  max_tokens: "max_tokens",
};

/** How long a cancelled turn may take to stop its tools before the answer goes without them. */
const CANCEL_SETTLE_MS = 5_000;

/** Answers one session/prompt. */
export async function runPrompt(client: AcpClient, agent: Agent, params: acp.PromptRequest): Promise<acp.PromptResponse> {
  const modeBefore = agent.get(params.sessionId).mode;
  try {
    return await answer(client, agent, params);
  } finally {
    if (agent.get(params.sessionId).mode !== modeBefore) client.modeChanged(params.sessionId);
  }
}

async function answer(client: AcpClient, agent: Agent, params: acp.PromptRequest): Promise<acp.PromptResponse> {
  const slash = slashCommandOf(params.prompt);
  // The session's project may add commands (its workflows and skills).
  if (slash && client.built()!.commands.find(slash.command, agent.get(params.sessionId))) {
    const { message } = await agent.command(params.sessionId, slash.command, slash.args);
    const unused = slash.context.length ? `\n\n(${slash.context.length} other part${slash.context.length === 1 ? "" : "s"} of the prompt went with /${slash.command}, which takes none.)` : "";
    client.notify(params.sessionId, { sessionUpdate: "agent_message_chunk", content: { type: "text", text: message + unused } });
    return { stopReason: "end_turn" };
  }
  client.holdErrors(params.sessionId);
  let outcome;
  try {
    const started = await agent.startTurn({ sessionId: params.sessionId, prompt: toPromptBlocks(params.prompt) });
    outcome = await started.finished;
    // ACP: the cancelled turn's updates come before the answer, and its usage is what it used.
    if (outcome.stopReason === "cancelled") outcome = { ...(await within(started.settled, CANCEL_SETTLE_MS, outcome)), stopReason: "cancelled" as const };
  } finally {
    client.releaseErrors(params.sessionId, outcome?.stopReason === "error" ? outcome.error : undefined);
  }
  // A turn that failed is an error answer, as ACP has no error stop reason; its history stays.
  if (outcome.stopReason === "error") throw new AgentRequestError(ErrorCodes.InternalError, outcome.error ?? "The turn failed.");
  return { stopReason: STOP_REASONS[outcome.stopReason], _meta: { agentLsp: { usage: outcome.usage } } };
}

/** `promise`'s value, or `fallback` when it takes longer than `ms`. */
function within<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(fallback), ms);
    void promise.then((value) => {
      clearTimeout(timer);
      resolve(value);
    });
  });
}
