/**
 * Running one slash command for any front end: an MCP prompt's command appears once its server
 * is ready, an unknown name lists the commands there are, and a command's failure is a
 * RequestFailed naming it.
 */
import { AgentRequestError, ErrorCodes } from "../errors.js";
import type { Session } from "../session.js";
import type { CommandInput, CommandRun, SlashCommands } from "./slash-commands.js";

/** What running a command needs of the agent. */
export interface RunCommandDeps {
  commands: SlashCommands;
  /** Starts the session's MCP servers (their prompts are commands). */
  prepare(sessionId: string): Promise<void> | undefined;
}

/** Runs `/command args` in `session`; the prompt's other parts go only to a command that takes them. */
export async function runCommand(deps: RunCommandDeps, session: Session, command: string, args: string[], input: CommandInput): Promise<CommandRun> {
  if (!deps.commands.find(command, session)) await deps.prepare(session.id);
  const cmd = deps.commands.find(command, session);
  if (!cmd) {
    throw new AgentRequestError(ErrorCodes.InvalidParams, `Unknown command "${command}". Available:\n${deps.commands.help(session)}`);
  }
  try {
    const ran = await cmd.run(args, session, cmd.takesContext ? input : {});
    return typeof ran === "string" ? { message: ran } : ran;
  } catch (err) {
    if (err instanceof AgentRequestError) throw err;
    throw new AgentRequestError(ErrorCodes.RequestFailed, `/${cmd.name} failed: ${(err as Error).message}`);
  }
}
