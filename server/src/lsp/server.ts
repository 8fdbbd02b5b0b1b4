/**
 * The LSP front end: connection, text sync, and the wiring of the agent protocol onto it.
 * Start-up loads only the LSP library and this file: initialize is answered at once, and the
 * agent (config, tools, providers; lsp/boot.ts) loads on the first request that needs it, which
 * waits for it.
 */
import type { Readable, Writable } from "node:stream";
import type { Connection, InitializeParams, InitializeResult, Message, MessageWriter } from "vscode-languageserver/node.js";
import { createConnection, ErrorCodes, ResponseError, StreamMessageWriter } from "./lsp-library.js";
import type { createRuntime, Runtime } from "../agent/runtime.js";
import { FileLogger, type Logger } from "../util/log.js";
import { VERSION } from "../version.js";
import { uriToPath } from "../workspace/paths.js";
import { projectRoot } from "../workspace/project-root.js";
import type { Booted } from "./boot.js";
import type { RuntimeStart } from "../agent/runtime-start.js";
import type { RuntimeConfig } from "../agent/runtime-config.js";
import { DEFERRED_NOTIFICATIONS, DEFERRED_REQUESTS, serverCapabilities } from "./capabilities.js";
import { observableDocuments } from "./document-sync.js";
import type { FramingError } from "./framing.js";
import { SourceMessageReader } from "./message-reader.js";
import { WireRequestIds } from "../util/wire-request-ids.js";
import { MessageSource } from "./message-source.js";
import { WrittenAnswers } from "../util/written-answers.js";

/** Options of one server instance. */
export interface ServerOptions {
  /** The byte stream, or a MessageSource that may already hold the first messages. */
  input: Readable | MessageSource;
  output: Writable;
  /** Where logs go; stderr and the project log file by default. */
  logger?: Logger;
  /** Injected by tests: a runtime factory (to swap the provider factory, for instance). */
  createRuntime?: typeof createRuntime;
  /** Whether `exit` ends the process (true for the binary, false in-process). */
  exitOnExit?: boolean;
  /** The id of an initialize request already answered (stdio start-up): its answer is not sent twice. */
  answeredInitializeId?: number | string;
}

/** A running server. */
export interface AgentLspServer {
  connection: Connection;
  /** The runtime, once it has loaded. */
  runtime(): Runtime | undefined;
  /** Loads the agent now (it loads on first use otherwise) and resolves with its runtime. */
  ready(): Promise<Runtime>;
  /** Calls `cb` once the agent has loaded, without making it load. */
  whenLoaded(cb: (runtime: Runtime) => void): void;
  /** The editor's process id from initialize, when it sent one. */
  clientProcessId(): number | undefined;
}

/** Starts an LSP server on the given streams. */
export function startServer(options: ServerOptions): AgentLspServer {
  const logger = options.logger ?? new FileLogger();
  let refuse = (_id: number | string) => undefined as void;
  const ids = new WireRequestIds({ cancelMethod: "$/cancelRequest", cancelParam: "id", onStray: (id) => refuse(id) });
  const answers = new WrittenAnswers();
  const writer = randomIds(watchWrites(skipResponse(new StreamMessageWriter(options.output), options.answeredInitializeId), answers), ids);
  const onFramingError = (e: FramingError) => {
    logger.warn(`protocol error: ${e.message}`);
    if (e.notification) return;
    void writer.write({ jsonrpc: "2.0", id: e.id, error: { code: e.code, message: e.message } } as never);
  };
  const source = options.input instanceof MessageSource ? options.input : new MessageSource(options.input, onFramingError);
  source.setFramingErrorHandler(onFramingError);
  const connection = createConnection(new SourceMessageReader(source, (m) => ids.incoming(m)), writer);
  refuse = (id) => {
    const text = `An answer came for a request this server is not waiting for (id ${JSON.stringify(id)}): it was meant for an earlier request or another server, and was ignored.`;
    logger.warn(text);
    connection.sendNotification("window/showMessage", { type: 2, message: `agent-lsp: ${text}` }).catch(() => undefined);
  };
  // Text sync starts with the connection: documents opened while the agent loads are kept.
  const synced = observableDocuments((message) => logger.warn(message));
  const { documents } = synced;
  let booted: Booted | undefined;
  let clientProcessId: number | undefined;
  let initialized: { params: InitializeParams; root: string } | undefined;
  let booting: Promise<Booted> | undefined;
  const onBooted: ((b: Booted) => void)[] = [];
  /** Set when agent/newSession was answered before the agent loaded: the agent loads on its configuration. */
  let early: RuntimeStart | undefined;
  let agentCalled = false;
  const make = async (settings?: RuntimeConfig): Promise<Booted> => {
    const { params, root } = initialized!;
    const { boot: load } = await import("./boot.js");
    return load({ connection, documents: synced, logger, params, root, createRuntime: options.createRuntime, agentCalled, ...(settings ? { settings } : {}) });
  };
  let made: Booted | undefined;
  // The agent (config, tools, providers: most of the server's memory) loads on first use, so an
  // editor that starts the server and never asks it anything pays for the LSP library alone.
  // Requests see it only once it holds the sessions answered before it loaded (runtime-start.ts).
  const boot = (): Promise<Booted> => {
    if (!initialized) return Promise.reject(new ResponseError(ErrorCodes.ServerNotInitialized, "The server is not initialized yet."));
    booting ??= (early ? early.ready().then(() => made!) : make()).then((b) => {
      booted = b;
      for (const cb of onBooted.splice(0)) cb(b);
      return b;
    });
    return booting;
  };
  // A new session before the agent has loaded is answered from the configuration alone (loaded
  // then, not at start: an idle server holds the LSP library only); the agent loads once that
  // answer is written.
  const newSession = async (raw: unknown, token?: unknown) => {
    agentCalled = true;
    if (booting || !initialized) return dispatch("agent/newSession", raw, token);
    const { RuntimeStart, earlyNewSession } = await import("./early-session.js");
    if (booting) return dispatch("agent/newSession", raw, token);
    const { params, root } = initialized;
    early ??= new RuntimeStart({ root, initializationOptions: params.initializationOptions, logger }, (settings) =>
      make(settings).then((b) => {
        made = b;
        return b.runtime;
      }),
    );
    const info = earlyNewSession(early, root, raw, logger);
    answers.after(
      (m) => (m.result as { sessionId?: unknown } | undefined)?.sessionId === info.sessionId,
      () => void boot().catch((err: Error) => logger.error(`agent failed to load: ${err.stack ?? err.message}`)),
    );
    return info;
  };

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    const { root, refused } = projectRoot(workspaceRoot(params));
    clientProcessId = params.processId ?? undefined;
    initialized = { params, root };
    if (logger instanceof FileLogger) logger.attachFile(root);
    logger.info(`agent-lsp ${VERSION} serving ${root}`);
    // window/showMessage is one of the notifications a server may send while it initializes.
    if (refused) {
      logger.warn(refused);
      void connection.sendNotification("window/showMessage", { type: 2, message: `agent-lsp: ${refused}` });
    }
    return { capabilities: serverCapabilities(params), serverInfo: { name: "agent-lsp", version: VERSION } };
  });

  const dispatch = async (method: string, params: unknown, token?: unknown) => {
    const ready = booted ?? (await boot().catch((err: Error) => {
      if (err instanceof ResponseError) throw err;
      logger.error(`agent failed to load: ${err.stack ?? err.message}`);
      throw new ResponseError(ErrorCodes.InternalError, `agent-lsp failed to start: ${err.message}`);
    }));
    const handler = ready.handlers.get(method);
    if (!handler) throw new ResponseError(ErrorCodes.MethodNotFound, `Unhandled method ${method}`);
    return handler(params, token);
  };
  for (const method of DEFERRED_REQUESTS) {
    connection.onRequest(method, (params: unknown, token) => (method === "agent/newSession" ? newSession(params, token) : dispatch(method, params, token)));
  }
  for (const method of DEFERRED_NOTIFICATIONS) {
    connection.onNotification(method, (params: unknown) => {
      dispatch(method, params).catch((err: Error) => logger.warn(`${method}: ${err.message}`));
    });
  }

  // An agent still loading (behind a session answered early) is waited for: it holds that session's log.
  connection.onShutdown(async () => {
    const loaded = booted ?? (await booting?.catch(() => undefined));
    await loaded?.runtime.dispose();
  });
  if (options.exitOnExit === false) connection.onExit(() => undefined);

  documents.listen(connection);
  connection.listen();
  return {
    connection,
    runtime: () => booted?.runtime,
    ready: () => boot().then((b) => b.runtime),
    whenLoaded: (cb) => (booted ? cb(booted.runtime) : onBooted.push((b) => cb(b.runtime))),
    clientProcessId: () => clientProcessId,
  };
}

/** A writer that sends every request under a random id (util/wire-request-ids.ts). */
function randomIds(inner: MessageWriter, ids: WireRequestIds): MessageWriter {
  return {
    onError: inner.onError,
    onClose: inner.onClose,
    end: () => inner.end(),
    dispose: () => inner.dispose(),
    write: (message: Message) => inner.write(ids.outgoing(message)),
  };
}

/** `inner` with each written message handed to `answers` once it has gone out. */
function watchWrites(inner: MessageWriter, answers: WrittenAnswers): MessageWriter {
  return {
    onError: inner.onError,
    onClose: inner.onClose,
    end: () => inner.end(),
    dispose: () => inner.dispose(),
    write: async (message: Message) => {
      await inner.write(message);
      answers.written(message as { method?: unknown });
    },
  };
}

/** A writer that drops the one response with `id` (an initialize answered before the library loaded). */
function skipResponse(inner: MessageWriter, id: number | string | undefined): MessageWriter {
  if (id === undefined) return inner;
  let pending = true;
  return {
    onError: inner.onError,
    onClose: inner.onClose,
    end: () => inner.end(),
    dispose: () => inner.dispose(),
    write(message: Message) {
      const response = message as { id?: unknown; method?: unknown };
      if (pending && response.method === undefined && response.id === id) {
        pending = false;
        return Promise.resolve();
      }
      return inner.write(message);
    },
  };
}

/** The project root an editor opened: first workspace folder, else rootUri/rootPath, else cwd. */
function workspaceRoot(params: InitializeParams): string {
  const fromFolder = params.workspaceFolders?.[0]?.uri;
  const candidates = [fromFolder, params.rootUri].filter((u): u is string => typeof u === "string");
  for (const uri of candidates) {
    const p = uriToPath(uri);
    if (p) return p;
  }
  return params.rootPath ?? process.cwd();
}
