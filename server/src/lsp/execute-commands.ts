/**
 * workspace/executeCommand: agent actions for clients that can run commands but speak no custom
 * protocol (code actions, eglot's and Helix's command palettes).
 */
import type { Connection } from "vscode-languageserver/node.js";
import { ResponseError } from "./lsp-library.js";
import type { Agent } from "../agent/agent.js";
import { AgentRequestError, ErrorCodes } from "../agent/errors.js";
import type { Logger } from "../util/log.js";
import type { AgentCommandRunner } from "./agent-commands.js";
import type { SessionUI } from "../editor/session-ui.js";
import { CHAT_COMMANDS, EXECUTE_COMMANDS } from "./capabilities.js";
import { runChatCommand } from "./chat/chat-actions.js";
import type { ChatFile } from "./chat/chat-file.js";

const CHAT_COMMAND_SET = new Set<string>(CHAT_COMMANDS);

/**
 * Routes workspace/executeCommand to the agent. `runs` starts the turns (the code-action
 * commands and agent.prompt), answering as soon as a turn runs; `agent.cancel` without a
 * session id stops every running turn (palettes send no arguments).
 */
export function registerExecuteCommands(connection: Connection, agent: () => Agent, log: Logger, runs: AgentCommandRunner, chat?: ChatFile, ui?: Pick<SessionUI, "showMessage">): void {
  const chatOn = () => (chat?.enabled ? chat : undefined);
  connection.onExecuteCommand(async ({ command, arguments: args = [] }, token) => {
    try {
      if (runs.handles(command)) return await runs.run(command, args, token);
      const inChat = chatOn();
      if (inChat && CHAT_COMMAND_SET.has(command)) {
        return await runChatCommand(inChat, command, args, (sessionId, prompt, draft) => runs.chatTurn(sessionId, prompt, draft));
      }
      switch (command) {
        case "agent.newSession":
          // Without arguments (Helix's palette) the new session is the chat file's.
          return inChat ? await inChat.newSession((args[0] as object) ?? {}) : agent().newSession((args[0] as object) ?? {});
        case "agent.prompt":
          // [prompt] alone: a prompt in the chat file's session.
          if (inChat && args.length === 1 && typeof args[0] === "string") return await runs.chatTurn(await inChat.sessionId(), args[0]);
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
      // A palette shows no error answer (Helix logs it): a plain client also gets it as a message.
      if (chatOn()) ui?.showMessage("error", `${command}: ${(err as Error).message}`);
      if (err instanceof AgentRequestError) throw new ResponseError(err.code, err.message);
      log.error(`executeCommand ${command}: ${(err as Error).message}`);
      throw new ResponseError(ErrorCodes.InternalError, (err as Error).message);
    }
  });
}
