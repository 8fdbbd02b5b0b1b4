/**
 * Everything the server needs beyond the LSP connection: config, the runtime (agent, tools,
 * providers) and the handlers of the agent protocol. Loaded right after initialize has been
 * answered, so the editor never waits for it to start.
 */
import type { Connection, InitializeParams } from "vscode-languageserver/node.js";
import { buildRuntime, type ConfiguredRuntime } from "../agent/configured-runtime.js";
import type { createRuntime } from "../agent/runtime.js";
import type { RuntimeConfig } from "../agent/runtime-config.js";
import type { Logger } from "../util/log.js";
import { registerAgentMethods } from "./agent-methods.js";
import { registerCodeActions } from "./code-actions.js";
import type { ObservableDocuments } from "./document-sync.js";
import { registerExecuteCommands } from "./execute-commands.js";
import { LspEditor } from "./lsp-editor.js";
import { clientProfile } from "./client-profile.js";
import { CLIENT_REQUESTS } from "../protocol/method-names.js";
import { ChatFile } from "./chat/chat-file.js";

/** A handler the deferred dispatch calls. */
export type Handler = (params: unknown, token?: unknown) => unknown;

/** What boot hands back to the server. */
export interface Booted {
  runtime: ConfiguredRuntime;
  editor: LspEditor;
  /** Handlers by method name, registered through the capturing connection. */
  handlers: Map<string, Handler>;
}

/** What boot needs from the light server. */
export interface BootContext {
  connection: Connection;
  documents: ObservableDocuments;
  logger: Logger;
  params: InitializeParams;
  root: string;
  createRuntime?: typeof createRuntime;
  /** The configuration, when a session was answered before the agent loaded (early-session.ts). */
  settings?: RuntimeConfig;
  /** Whether the client has called the agent protocol already (so it wants agent/update). */
  agentCalled?: boolean;
}

/** Loads config, builds the runtime and collects the protocol handlers. */
export function boot(ctx: BootContext): Booted {
  const { logger, root } = ctx;
  const editor = new LspEditor(ctx.connection, ctx.documents, logger);
  editor.capabilities = ctx.params.capabilities;
  editor.profile = clientProfile(ctx.params);
  // The chat file is for clients without the agent protocol, or on request ([editor] chat_file).
  const declaresAgent = editor.profile.agentProtocol;
  let chatWanted = !declaresAgent;
  let chat: ChatFile | undefined;
  const runtime = buildRuntime({
    editor,
    root,
    initializationOptions: ctx.params.initializationOptions,
    logger,
    onConfig: (config, errors) => {
      editor.approvalTimeoutS = config.approval_timeout_s;
      editor.approvals = config.editor.approvals;
      chatWanted = !declaresAgent || config.editor.chat_file;
      if (chat) setChatMode(chat, chatWanted);
      editor.applyEditSettings.timeoutMs = config.apply_edit_timeout_s * 1000;
      editor.languageServiceTimeoutMs = config.tools.language_service_timeout_s * 1000;
      if (errors.length) editor.showMessage("error", `agent-lsp configuration: ${errors.join("; ")}`);
    },
    ...(ctx.createRuntime ? { create: ctx.createRuntime } : {}),
    ...(ctx.settings ? { settings: ctx.settings } : {}),
  });
  editor.events = runtime.events;
  chat = new ChatFile({
    root,
    connection: ctx.connection,
    host: editor,
    ui: editor,
    capabilities: () => editor.capabilities,
    events: runtime.events,
    agent: () => runtime.agent,
    log: logger,
    timeoutS: () => editor.approvalTimeoutS,
    stuckAfterMs: () => editor.applyEditSettings.timeoutMs,
    actionKey: () => editor.profile.codeActionKey,
  });
  const setChatMode = (c: ChatFile, on: boolean) => {
    const was = c.enabled;
    c.enabled = on;
    editor.chatPrompts = on ? c.prompts : undefined;
    // A chat file left by an earlier run names its session: it goes on where it was.
    if (on && !was) void c.start();
  };
  setChatMode(chat, chatWanted);
  editor.lateAnswerNote = (_sessionId, text) => {
    if (chat.enabled) chat.renderer.standalone(`_${text}_\n\n`).catch((err: Error) => logger.warn(`chat file: the late answer's note not written: ${err.message}`));
  };
  // A client of the agent protocol sees the stream as agent/update (how a turn ended is the
  // agent/prompt answer); any other (Helix) would only log each notification as one it ignores.
  // Declaring experimental.agent says so, and so does calling one of the protocol's methods.
  let streams = declaresAgent || ctx.agentCalled === true;
  runtime.events.subscribe((sessionId, event) => {
    if (streams && event.kind !== "turn_end") editor.sendUpdate(sessionId, event);
  });
  const handlers = new Map<string, Handler>();
  const capture = capturingConnection(ctx.connection, handlers);
  const agent = () => runtime.agent;
  const runs = registerCodeActions(capture, agent, editor, logger, chat);
  // agent/cancel also withdraws what a run asks before its turn starts (the refactor goal).
  registerAgentMethods(capture, agent, logger, (sessionId) => runs.cancel(sessionId), { reload: (env) => runtime.reloadWithEnv(env) });
  registerExecuteCommands(capture, agent, logger, runs, chat, editor);
  for (const method of CLIENT_REQUESTS) {
    const handler = handlers.get(method);
    if (handler) {
      handlers.set(method, (params, token) => {
        streams = true;
        return handler(params, token);
      });
    }
  }
  handlers.set("workspace/didChangeConfiguration", () => runtime.reloadConfig());
  return { runtime, editor, handlers };
}

/**
 * A view of the connection whose handler registrations are collected instead of installed: the
 * light server installed its own dispatchers for these methods before the handlers existed.
 */
function capturingConnection(connection: Connection, handlers: Map<string, Handler>): Connection {
  const capture = Object.create(connection) as Connection;
  const set = (method: string) => (handler: Handler) => {
    handlers.set(method, handler);
    return { dispose: () => handlers.delete(method) };
  };
  Object.assign(capture, {
    onRequest: (method: string, handler: Handler) => set(method)(handler),
    onNotification: (method: string, handler: Handler) => set(method)(handler),
    onExecuteCommand: set("workspace/executeCommand"),
    onCodeAction: set("textDocument/codeAction"),
  });
  return capture;
}
