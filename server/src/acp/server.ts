/**
 * The ACP front end: the agent side of the Agent Client Protocol (stable v1) mapped onto the
 * same runtime as the LSP front end. Only translation lives here: sessions, turns, modes and
 * history are the core's. Agent errors become JSON-RPC errors with their code.
 */
import path from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import { AgentRequestError, ErrorCodes } from "../agent/errors.js";
import type { createRuntime } from "../agent/runtime.js";
import type { Logger } from "../util/log.js";
import { projectRoot, type ProjectRoot } from "../workspace/project-root.js";
import { AcpClient } from "./connection.js";
import { initializeResult } from "./initialize.js";
import { queueUntilInitialized, watchWrites } from "./pipelining.js";
import { WrittenAnswers } from "../util/written-answers.js";
import { availableCommands, configOptions, MODE_OPTION, MODEL_OPTION, modeState, safetyMode } from "./session-options.js";
import { runPrompt } from "./prompt-turn.js";

/** What the front end is started with. */
export interface AcpServerOptions {
  stream: acp.Stream;
  logger: Logger;
  create?: typeof createRuntime;
}

/** A running ACP front end. */
export interface AcpServer {
  connection: acp.AgentConnection;
  client: AcpClient;
  /** Cancels every turn and stops what the runtime started (processes), once. */
  dispose(): Promise<void>;
}

/** Serves ACP on `stream`. */
export function startAcpServer(options: AcpServerOptions): AcpServer {
  let connection: acp.AgentConnection | undefined;
  const client = new AcpClient(() => connection!.client, { logger: options.logger, ...(options.create ? { create: options.create } : {}) });
  const app = acp.agent({ name: "agent-lsp" });
  const answers = new WrittenAnswers();
  register(app, client, options.logger, answers);
  connection = app.connect(queueUntilInitialized(watchWrites(options.stream, answers)));
  let disposing: Promise<void> | undefined;
  const dispose = () => (disposing ??= client.dispose());
  return { connection, client, dispose };
}

type Handler<M extends acp.AgentRequestMethod> = (ctx: acp.AgentRequestContext<acp.AgentRequestParamsByMethod[M]>) => Promise<acp.AgentRequestResponsesByMethod[M]> | acp.AgentRequestResponsesByMethod[M];

function register(app: acp.AgentApp, client: AcpClient, log: Logger, answers: WrittenAnswers): void {
  const on = <M extends acp.AgentRequestMethod>(method: M, handler: Handler<M>) =>
    app.onRequest(method, (async (ctx: acp.AgentRequestContext<acp.AgentRequestParamsByMethod[M]>) => {
      try {
        return await handler(ctx);
      } catch (err) {
        throw toRequestError(method, err, log);
      }
    }) as never);
  const agentFor = (sessionId: string) => client.agentFor(sessionId);

  on("initialize", ({ params }) => {
    client.capabilities = params.clientCapabilities ?? {};
    return initializeResult(params.protocolVersion);
  });

  // Answered from the configuration alone: the runtime loads after the answer (agent/runtime-start.ts).
  on("session/new", ({ params, requestId }) => {
    const { root: cwd, refused: notAProject } = sessionRoot(params.cwd);
    const refused = client.addMcpServers(params.mcpServers);
    const start = client.start(cwd);
    const info = start.newSession(cwd, { cwd });
    client.sessions.set(info.sessionId, cwd);
    answers.afterAnswerTo(requestId, () => {
      start.ready().then(
        () => announce(client, info.sessionId, refused, notAProject),
        (err: Error) => log.error(`the agent failed to load: ${err.stack ?? err.message}`),
      );
    });
    return { sessionId: info.sessionId, modes: modeState(info.mode), configOptions: configOptions(info, start.config()) };
  });

  on("session/load", async ({ params, requestId }) => {
    const cwd = sessionRoot(params.cwd).root;
    const refused = client.addMcpServers(params.mcpServers);
    client.start(cwd);
    const runtime = await client.ready();
    // Known before the replay, so the replayed history reaches this client as session/update.
    const known = client.sessions.get(params.sessionId);
    client.sessions.set(params.sessionId, cwd);
    try {
      const info = runtime.agent.loadSession(params.sessionId, cwd);
      answers.afterAnswerTo(requestId, () => announce(client, info.sessionId, refused));
      return { modes: modeState(info.mode), configOptions: configOptions(info, runtime.config()) };
    } catch (err) {
      if (known === undefined) client.sessions.delete(params.sessionId);
      throw err;
    }
  });

  on("session/list", async ({ params }) => {
    const asked = params.cwd ?? process.cwd();
    const cwd = sessionRoot(asked).root;
    client.start(cwd);
    const { sessions } = (await client.ready()).agent.listSessions(cwd);
    // Named by the client's own cwd, so a client that filters by it finds them.
    return { sessions: sessions.map((s) => ({ sessionId: s.sessionId, cwd: path.normalize(asked), title: s.title, updatedAt: s.updatedAt })) };
  });

  on("session/prompt", async ({ params }) => runPrompt(client, await agentFor(params.sessionId), params));

  on("session/set_mode", async ({ params, requestId }) => {
    const mode = safetyMode(params.modeId);
    (await agentFor(params.sessionId)).setMode(params.sessionId, mode);
    answers.afterAnswerTo(requestId, () => client.modeChanged(params.sessionId));
    return {};
  });

  on("session/set_config_option", async ({ params, requestId }) => {
    const agent = await agentFor(params.sessionId);
    if (params.configId === MODE_OPTION) {
      agent.setMode(params.sessionId, safetyMode(String(params.value)));
      // Older clients follow the mode through current_mode_update.
      answers.afterAnswerTo(requestId, () => client.notify(params.sessionId, { sessionUpdate: "current_mode_update", currentModeId: agent.get(params.sessionId).mode }));
      return { configOptions: client.configOptionsOf(params.sessionId) };
    }
    if (params.configId !== MODEL_OPTION) {
      throw new AgentRequestError(ErrorCodes.InvalidParams, `configId: "${params.configId}" is not an option; the options are: ${MODE_OPTION}, ${MODEL_OPTION}.`);
    }
    if (typeof params.value !== "string") throw new AgentRequestError(ErrorCodes.InvalidParams, "value: the model is a string such as anthropic/claude-sonnet-4-6.");
    agent.setModel(params.sessionId, params.value);
    return { configOptions: client.configOptionsOf(params.sessionId) };
  });

  app.onNotification("session/cancel", ({ params }) => {
    agentFor(params.sessionId).then(
      (agent) => agent.cancel(params.sessionId),
      (err: Error) => log.warn(`session/cancel: ${err.message}`),
    );
  });
}

/** After a new or loaded session is answered: its commands, and the MCP servers not taken. */
function announce(client: AcpClient, sessionId: string, refusedMcp: string[], notAProject?: string): void {
  const cwd = client.sessions.get(sessionId);
  const session = cwd === undefined ? undefined : client.built()?.agent.all().find((s) => s.id === sessionId);
  client.notify(sessionId, { sessionUpdate: "available_commands_update", availableCommands: availableCommands(client.built()!.commands, session) });
  if (refusedMcp.length) client.notify(sessionId, { sessionUpdate: "notice", severity: "warning", title: `MCP servers not used: ${refusedMcp.join("; ")}` });
  if (notAProject) client.notify(sessionId, { sessionUpdate: "notice", severity: "warning", title: notAProject });
}

/** The session's root for the client's cwd: never `/`, the home or a system folder (workspace/project-root.ts). */
function sessionRoot(cwd: string): ProjectRoot {
  if (!path.isAbsolute(cwd)) throw new AgentRequestError(ErrorCodes.InvalidParams, `cwd: "${cwd}" is not an absolute path.`);
  return projectRoot(path.normalize(cwd));
}

function toRequestError(method: string, err: unknown, log: Logger): acp.RequestError {
  if (err instanceof acp.RequestError) return err;
  if (err instanceof AgentRequestError) return new acp.RequestError(err.code, err.message);
  log.error(`${method} failed: ${(err as Error).stack ?? String(err)}`);
  return new acp.RequestError(ErrorCodes.InternalError, `${method} failed: ${(err as Error).message}`);
}
