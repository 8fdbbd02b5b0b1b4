/**
 * workspace/executeCommand: agent actions for clients that can run commands but speak no custom
 * protocol (code actions and Helix's command palette).
 */
import { ResponseError, type Connection } from "vscode-languageserver/node.js";
import type { Agent } from "../agent/agent.js";
import { AgentRequestError, ErrorCodes } from "../agent/errors.js";
import type { Logger } from "../util/log.js";
import type { AgentCommandRunner } from "./agent-commands.js";
import { EXECUTE_COMMANDS } from "./capabilities.js";

/**
 * Routes workspace/executeCommand to the agent. `actions` runs the code-action commands
 * (agent.fix, agent.explain, ...); the request's cancellation stops their turn.
 */
export function registerExecuteCommands(connection: Connection, agent: () => Agent, log: Logger, actions?: AgentCommandRunner): void {
  connection.onExecuteCommand(async ({ command, arguments: args = [] }, token) => {
    try {
      if (actions?.handles(command)) return await actions.run(command, args, token);
      switch (command) {
        case "agent.newSession":
          return agent().newSession((args[0] as object) ?? {});
        case "agent.prompt": {
          const [sessionId, prompt] = args as [unknown, unknown];
          if (typeof sessionId !== "string" || typeof prompt !== "string") {
            throw new AgentRequestError(ErrorCodes.InvalidParams, "agent.prompt takes [sessionId: string, prompt: string].");
          }
          return await agent().prompt({ sessionId, prompt });
        }
        case "agent.cancel":
          if (typeof args[0] !== "string") throw new AgentRequestError(ErrorCodes.InvalidParams, "agent.cancel takes [sessionId: string].");
          agent().cancel(args[0]);
          return null;
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
