/**
 * What `agent-lsp run` does with its prompt: a turn, or, when the prompt is a slash command
 * (`/compact`, `/model NAME`, a project workflow, `/mcp__server__prompt args`), that command, as the
 * editors run it. A command that sends a message (a workflow, a skill, an MCP prompt) is a turn;
 * the others only answer. A prompt whose first word holds another slash (`/usr/bin/env is what?`)
 * is a path, sent to the model.
 */
import type { Agent, TurnOutcome } from "../agent/agent.js";
import { ZERO_USAGE } from "../vocabulary/messages.js";

/** How the prompt went: the turn's outcome, and a command's own message when it ran one. */
export interface RunOutcome {
  outcome: TurnOutcome;
  /** A command's answer (what it did, its usage line, its error). */
  message?: string;
  /** The command, when the prompt was one. */
  command?: string;
}

/** The command a prompt is: `/name args...`; undefined for any other prompt. */
export function slashCommandOf(prompt: string): { name: string; args: string[] } | undefined {
  const match = /^\/([^\s/]+)(?:\s+([\s\S]*))?$/.exec(prompt.trim());
  if (!match) return undefined;
  const args = match[2]?.trim();
  return { name: match[1]!, args: args ? args.split(/\s+/) : [] };
}

/** Runs the prompt in the session: its command when it is one, else a turn. */
export async function runPrompt(agent: Agent, sessionId: string, prompt: string): Promise<RunOutcome> {
  const slash = slashCommandOf(prompt);
  if (!slash) return { outcome: await agent.prompt({ sessionId, prompt }) };
  const command = `/${slash.name}`;
  try {
    const ran = await agent.command(sessionId, slash.name, slash.args);
    // One that sent a message ended as its turn did (its message only repeats how); one that only answered ended normally.
    if (ran.turn) return { outcome: ran.turn.outcome, command };
    return { outcome: { stopReason: "end_turn", usage: ZERO_USAGE }, message: ran.message, command };
  } catch (err) {
    const message = (err as Error).message;
    return { outcome: { stopReason: "error", usage: ZERO_USAGE, error: message }, command };
  }
}
