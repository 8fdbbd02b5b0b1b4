/**
 * workspace/executeCommand: agent actions for clients that can run commands but speak no custom
 * protocol (code actions, eglot's and Helix's command palettes).
 */
import { ResponseError, type Connection } from "vscode-languageserver/node.js";
import type { Agent } from "../agent/agent.js";
import { AgentRequestError, ErrorCodes } from "../agent/errors.js";
import type { Logger } from "../util/log.js";
import type { AgentCommandRunner } from "./agent-commands.js";
import { EXECUTE_COMMANDS } from "./capabilities.js";

/**
 * Routes workspace/executeCommand to the agent. `runs` starts the turns (the code-action
 * commands and agent.prompt), answering as soon as a turn runs; `agent.cancel` without a
 * session id stops every running turn (palettes send no arguments).
 */
export function registerExecuteCommands(connection: Connection, agent: () => Agent, log: Logger, runs: AgentCommandRunner): void {
  connection.onExecuteCommand(async ({ command, arguments: args = [] }, token) => {
    try {
      if (runs.handles(command)) return await runs.run(command, args, token);
      switch (command) {
        case "agent.newSession":
          return agent().newSession((args[0] as object) ?? {});
        case "agent.prompt":
          return await runs.prompt(args, token);
        case "agent.cancel": {
          const sessionId = args[0];
          if (sessionId !== undefined && sessionId !== null && typeof sessionId !== "string") {
            throw new AgentRequestError(ErrorCodes.InvalidParams, "agent.cancel takes [sessionId?: string] (none: every running turn).");
          }
          if (typeof sessionId === "string") agent().get(sessionId);
          return { cancelled: runs.cancel(sessionId ?? undefined) };
        }
        default:
          throw new AgentRequestError(ErrorCodes.InvalidParams, `Unknown command "${command}". Known: ${EXECUTE_COMMANDS.join(", ")}.`);
      }
    } catch (err) {
      if (err instanceof AgentRequestError) throw new ResponseError(err.code, err.message);
      log.error(`executeCommand ${command}: ${(err as Error).message}`);
      throw new ResponseError(ErrorCodes.InternalError, (err as Error).message);
    }
  });
}
