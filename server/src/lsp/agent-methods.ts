/**
 * The custom agent protocol on an LSP connection: each request's params are validated with its
 * schema (bad params: -32602 naming the field), agent errors become JSON-RPC errors with their
 * code, and nothing a client sends can take the server down.
 */
import { ResponseError, type Connection } from "vscode-languageserver/node.js";
import type { z } from "zod";
import type { Agent } from "../agent/agent.js";
import { AgentRequestError, ErrorCodes } from "../agent/errors.js";
import {
  cancelParams,
  commandParams,
  describeParamsError,
  listSessionsParams,
  loadSessionParams,
  newSessionParams,
  promptParams,
  setModeParams,
} from "../protocol/schemas.js";
import type { Logger } from "../util/log.js";

/**
 * Registers agent/* handlers on the connection. `agent()` is available after initialize.
 * `cancel` stops a session's turn (and whatever the front end started for it); the agent's own
 * cancel by default.
 */
export function registerAgentMethods(connection: Connection, agent: () => Agent, log: Logger, cancel: (sessionId: string) => void = (id) => agent().cancel(id)): void {
  const handle = <S extends z.ZodType>(method: string, schema: S, run: (params: z.infer<S>) => unknown) => {
    connection.onRequest(method, async (raw: unknown) => {
      const parsed = schema.safeParse(raw ?? {});
      if (!parsed.success) throw new ResponseError(ErrorCodes.InvalidParams, describeParamsError(method, parsed.error));
      try {
        return await run(parsed.data);
      } catch (err) {
        throw toResponseError(method, err, log);
      }
    });
  };
  handle("agent/newSession", newSessionParams, (p) => agent().newSession(p));
  handle("agent/prompt", promptParams, (p) => agent().prompt(p));
  handle("agent/listSessions", listSessionsParams, () => agent().listSessions());
  handle("agent/loadSession", loadSessionParams, (p) => agent().loadSession(p.sessionId));
  handle("agent/setMode", setModeParams, (p) => agent().setMode(p.sessionId, p.mode));
  handle("agent/command", commandParams, (p) => agent().command(p.sessionId, p.command, p.args));
  connection.onNotification("agent/cancel", (raw: unknown) => {
    const parsed = cancelParams.safeParse(raw ?? {});
    if (!parsed.success) return log.warn(describeParamsError("agent/cancel", parsed.error));
    try {
      agent().get(parsed.data.sessionId);
      cancel(parsed.data.sessionId);
    } catch (err) {
      log.warn(`agent/cancel: ${(err as Error).message}`);
    }
  });
}

function toResponseError(method: string, err: unknown, log: Logger): ResponseError<void> {
  if (err instanceof ResponseError) return err;
  if (err instanceof AgentRequestError) return new ResponseError(err.code, err.message);
  log.error(`${method} failed: ${(err as Error).stack ?? String(err)}`);
  return new ResponseError(ErrorCodes.InternalError, `${method} failed: ${(err as Error).message}`);
}
