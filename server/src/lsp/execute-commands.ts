/**
 * workspace/executeCommand: agent actions for clients that can run commands but speak no custom
 * protocol (code actions and Helix's command palette).
 */
import { ResponseError, type Connection } from "vscode-languageserver/node.js";
import type { Agent } from "../agent/agent.js";
import { AgentRequestError, ErrorCodes } from "../agent/errors.js";
import type { Logger } from "../util/log.js";

/** Commands advertised in executeCommandProvider. */
export const EXECUTE_COMMANDS = ["agent.newSession", "agent.prompt", "agent.cancel"] as const;

/** Routes workspace/executeCommand to the agent. */
export function registerExecuteCommands(connection: Connection, agent: () => Agent, log: Logger): void {
  connection.onExecuteCommand(async ({ command, arguments: args = [] }) => {
    try {
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
