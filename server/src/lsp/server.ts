/**
 * The LSP front end: connection, text sync, and the wiring of the agent protocol onto it.
 * Thin by design: behaviour lives in the core; this file only connects the two.
 */
import { VERSION } from "../version.js";
import type { Readable, Writable } from "node:stream";
import { TextDocument } from "vscode-languageserver-textdocument";
import {
  createConnection,
  StreamMessageWriter,
  TextDocuments,
  TextDocumentSyncKind,
  type Connection,
  type InitializeParams,
  type InitializeResult,
} from "vscode-languageserver/node.js";
import type { Runtime } from "../agent/runtime.js";
import { createRuntime } from "../agent/runtime.js";
import { loadConfig } from "../config/load.js";
import { DEFAULT_CONFIG, type Config } from "../config/schema.js";
import { addSecrets, FileLogger, type Logger } from "../util/log.js";
import { uriToPath } from "../workspace/paths.js";
import { registerAgentMethods } from "./agent-methods.js";
import { CODE_ACTION_PROVIDER, registerCodeActions } from "./code-actions.js";
import { registerExecuteCommands, EXECUTE_COMMANDS } from "./execute-commands.js";
import { LspEditor } from "./lsp-editor.js";
import { ResilientMessageReader } from "./message-reader.js";

/** Options of one server instance. */
export interface ServerOptions {
  input: Readable;
  output: Writable;
  /** Where logs go; stderr and the project log file by default. */
  logger?: Logger;
  /** Injected by tests: a runtime factory (to swap the provider factory, for instance). */
  createRuntime?: typeof createRuntime;
  /** Whether `exit` ends the process (true for the binary, false in-process). */
  exitOnExit?: boolean;
}

/** A running server. */
export interface AgentLspServer {
  connection: Connection;
  /** The runtime, once initialize has run. */
  runtime(): Runtime | undefined;
}

/** Starts an LSP server on the given streams. */
export function startServer(options: ServerOptions): AgentLspServer {
  const logger = options.logger ?? new FileLogger();
  const writer = new StreamMessageWriter(options.output);
  const reader = new ResilientMessageReader(options.input, (e) => {
    logger.warn(`protocol error: ${e.message}`);
    void writer.write({ jsonrpc: "2.0", id: e.id, error: { code: e.code, message: e.message } } as never);
  });
  const connection = createConnection(reader, writer);
  const documents = new TextDocuments(TextDocument);
  const editor = new LspEditor(connection, documents);
  let runtime: Runtime | undefined;
  let config: Config = DEFAULT_CONFIG;
  let root = process.cwd();
  let initOptions: unknown;

  const reloadConfig = () => {
    const loaded = loadConfig({ root, initializationOptions: initOptions });
    config = loaded.config;
    editor.approvalTimeoutS = config.approval_timeout_s;
    if (logger instanceof FileLogger) logger.setLevel(config.log.level);
    addSecrets(...Object.values(config.providers).map((p) => p.api_key));
    return loaded.errors;
  };

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    editor.capabilities = params.capabilities;
    root = workspaceRoot(params);
    initOptions = params.initializationOptions;
    const errors = reloadConfig();
    if (logger instanceof FileLogger) logger.attachFile(root);
    runtime = (options.createRuntime ?? createRuntime)({ editor, root, config: () => config });
    for (const e of errors) logger.warn(`config: ${e}`);
    if (errors.length) {
      // window/showMessage is one of the few messages LSP allows while initialize is in flight;
      // the library keeps the initialized notification for itself, so do not wait for it.
      setImmediate(() => editor.showMessage("error", `agent-lsp configuration: ${errors.join("; ")}`));
    }
    logger.info(`agent-lsp ${VERSION} serving ${root}`);
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
        executeCommandProvider: { commands: [...EXECUTE_COMMANDS] },
        codeActionProvider: CODE_ACTION_PROVIDER,
        experimental: { agent: { version: 1 } },
      },
      serverInfo: { name: "agent-lsp", version: VERSION },
    };
  });

  connection.onDidChangeConfiguration(() => {
    const errors = reloadConfig();
    if (errors.length) editor.showMessage("error", `agent-lsp configuration: ${errors.join("; ")}`);
  });

  const agent = () => {
    if (!runtime) throw new Error("The server is not initialized yet.");
    return runtime.agent;
  };
  registerAgentMethods(connection, agent, logger);
  registerExecuteCommands(connection, agent, logger, registerCodeActions(connection, agent, editor, logger));

  connection.onShutdown(async () => {
    await runtime?.dispose();
  });
  if (options.exitOnExit === false) connection.onExit(() => undefined);

  documents.listen(connection);
  connection.listen();
  return { connection, runtime: () => runtime };
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
