/**
 * The custom agent protocol on an LSP connection: each request's params are validated with its
 * schema (bad params: -32602 naming the field), agent errors become JSON-RPC errors with their
 * code, and nothing a client sends can take the server down.
 */
import type { Connection } from "vscode-languageserver/node.js";
import { ResponseError } from "./lsp-library.js";
import type { z } from "zod";
import type { Agent } from "../agent/agent.js";
import { ErrorCodes } from "../agent/errors.js";
import { toResponseError } from "./response-errors.js";
import { listModels } from "../agent/model-routing.js";
import { CLIENT_REQUESTS, type ClientRequest } from "../protocol/method-names.js";
import { METHODS } from "../protocol/methods.js";
import {
  describeParamsError,
  type cancelParams,
  type commandParams,
  type listCommandsParams,
  type loadSessionParams,
  type newSessionParams,
  type promptParams,
  type setModeParams,
  type setModelParams,
  type listModelsParams,
  type reloadConfigParams,
} from "../protocol/schemas.js";
import type { ReloadReport } from "../agent/config-refresh.js";
import type { Logger } from "../util/log.js";

/**
 * Registers agent/* handlers on the connection. `agent()` is available after initialize.
 * `cancel` stops a session's turn (and whatever the front end started for it); the agent's own
 * cancel by default.
 */
export function registerAgentMethods(
  connection: Connection,
  agent: () => Agent,
  log: Logger,
  cancel: (sessionId: string) => void = (id) => agent().cancel(id),
  runtime: RuntimeMethods = { reload: () => ({ providers: [], env: [] }) },
): void {
  const handle = (method: string, schema: z.ZodType, run: (params: unknown) => unknown) => {
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
  for (const method of CLIENT_REQUESTS) handle(method, paramsSchema(method), (p) => REQUEST_HANDLERS[method](agent(), p as never, runtime));
  connection.onNotification("agent/cancel", (raw: unknown) => {
    const parsed = paramsSchema("agent/cancel").safeParse(raw ?? {}) as z.ZodSafeParseResult<z.infer<typeof cancelParams>>;
    if (!parsed.success) return log.warn(describeParamsError("agent/cancel", parsed.error));
    try {
      agent().get(parsed.data.sessionId);
      cancel(parsed.data.sessionId);
    } catch (err) {
      log.warn(`agent/cancel: ${(err as Error).message}`);
    }
  });
}

/** What the runtime itself serves, beside the agent's sessions. */
export interface RuntimeMethods {
  /** agent/reloadConfig: the editor's provider variables taken, every config layer read again. */
  reload(env: Record<string, string | null>): ReloadReport;
}

/** What each client request does; the Record type makes a name without a handler a compile error. */
const REQUEST_HANDLERS: { [M in ClientRequest]: (agent: Agent, params: never, runtime: RuntimeMethods) => unknown } = {
  "agent/newSession": (agent, p: z.infer<typeof newSessionParams>) => agent.newSession(p),
  "agent/prompt": (agent, p: z.infer<typeof promptParams>) => agent.prompt(p),
  "agent/listSessions": (agent) => agent.listSessions(),
  "agent/loadSession": (agent, p: z.infer<typeof loadSessionParams>) => agent.loadSession(p.sessionId),
  "agent/setMode": (agent, p: z.infer<typeof setModeParams>) => agent.setMode(p.sessionId, p.mode),
  "agent/command": async (agent, p: z.infer<typeof commandParams>) => ({ message: (await agent.command(p.sessionId, p.command, p.args)).message }),
  "agent/listCommands": (agent, p: z.infer<typeof listCommandsParams>) => agent.listCommands(p.sessionId),
  "agent/setModel": (agent, p: z.infer<typeof setModelParams>) => agent.setModel(p.sessionId, p.model),
  "agent/listModels": (agent, p: z.infer<typeof listModelsParams>) => listModels(agent.get(p.sessionId), agent.deps.config()),
  "agent/reloadConfig": (_agent, p: z.infer<typeof reloadConfigParams>, runtime) => runtime.reload(p.env ?? {}),
};

/** The params schema the method table documents for `method`: the one the server validates with. */
function paramsSchema(method: string): z.ZodType {
  const schema = METHODS.find((m) => m.method === method)?.params;
  if (!schema) throw new Error(`protocol/methods.ts documents no params schema for ${method}`);
  return schema;
}
