/**
 * `session/prompt`: a slash command or a turn, answered as the spec orders it. Every update of the
 * turn (a cancelled tool's last status, the usage) goes out before the answer, also after a
 * cancel; a turn that fails is answered with the error once (its error notice is not also sent);
 * a mode the turn changed (`/mode`, a plan approved) is told as the client follows modes. A
 * command that sends a message (a workflow, a skill, an MCP prompt) is a turn too, with the
 * prompt's other blocks as its context; other commands answer at once.
 */
import type * as acp from "@agentclientprotocol/sdk";
import type { Agent, TurnOutcome } from "../agent/agent.js";
import { ZERO_USAGE } from "../vocabulary/messages.js";
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
  const command = slash && client.built()!.commands.find(slash.command, agent.get(params.sessionId));
  if (slash && command) {
    if (!command.takesContext) return runPlainCommand(client, agent, params.sessionId, slash);
    // A command that sends a message is a turn: answered as one, its other blocks with it.
    return answerTurn(client, params.sessionId, async () => {
      const ran = await agent.command(params.sessionId, slash.command, slash.args, { context: toPromptBlocks(slash.context) });
      if (ran.turn) return ran.turn;
      // It answered without sending anything (a usage line for a missing argument).
      client.notify(params.sessionId, { sessionUpdate: "agent_message_chunk", content: { type: "text", text: ran.message } });
      const ended: TurnOutcome = { stopReason: "end_turn", usage: ZERO_USAGE };
      return { outcome: ended, settled: Promise.resolve(ended) };
    });
  }
  return answerTurn(client, params.sessionId, async () => {
    const started = await agent.startTurn({ sessionId: params.sessionId, prompt: toPromptBlocks(params.prompt) });
    return { outcome: await started.finished, settled: started.settled };
  });
}

/** A command that only answers (no turn): its message, and a word on the blocks it could not use. */
async function runPlainCommand(client: AcpClient, agent: Agent, sessionId: string, slash: { command: string; args: string[]; context: acp.ContentBlock[] }): Promise<acp.PromptResponse> {
  const { message } = await agent.command(sessionId, slash.command, slash.args);
  const n = slash.context.length;
  const unused = n ? `\n\n(${n} other part${n === 1 ? "" : "s"} of the prompt went with /${slash.command}, which takes none.)` : "";
  client.notify(sessionId, { sessionUpdate: "agent_message_chunk", content: { type: "text", text: message + unused } });
  return { stopReason: "end_turn" };
}

/** Runs a turn and answers for it: a cancelled turn's updates first, a failed turn as one error. */
async function answerTurn(client: AcpClient, sessionId: string, run: () => Promise<{ outcome: TurnOutcome; settled: Promise<TurnOutcome> }>): Promise<acp.PromptResponse> {
  client.holdErrors(sessionId);
  let outcome: TurnOutcome | undefined;
  try {
    const turn = await run();
    outcome = turn.outcome;
    // ACP: the cancelled turn's updates come before the answer, and its usage is what it used.
    if (outcome.stopReason === "cancelled") outcome = { ...(await within(turn.settled, CANCEL_SETTLE_MS, outcome)), stopReason: "cancelled" as const };
  } finally {
    client.releaseErrors(sessionId, outcome?.stopReason === "error" ? outcome.error : undefined);
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
