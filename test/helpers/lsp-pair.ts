/**
 * An in-process server and client joined by a pair of pipes: the whole LSP stack (framing,
 * handlers, the agent) runs for real, without spawning a process.
 */
import { PassThrough } from "node:stream";
import { createProtocolConnection, StreamMessageReader, StreamMessageWriter, type ClientCapabilities, type InitializeResult } from "vscode-languageserver/node.js";
import { createRuntime } from "../../server/src/agent/runtime.js";
import { startServer, type AgentLspServer } from "../../server/src/lsp/server.js";
import type { createProvider } from "../../server/src/providers/registry.js";
import type { Logger } from "../../server/src/util/log.js";
import { defaultCapabilities, TestLspClient } from "./lsp-client.js";

/** A connected pair. */
export interface LspPair {
  client: TestLspClient;
  server: AgentLspServer;
  init: InitializeResult;
  /** Raw stream into the server, for framing tests. */
  serverInput: PassThrough;
  /** Every log line the server wrote. */
  logs: string[];
  close(): Promise<void>;
}

/** Starts a server on `root` and initializes it from a test client. */
export async function startLspPair(options: {
  root: string;
  initializationOptions?: unknown;
  capabilities?: ClientCapabilities;
  /** The initialize request's clientInfo (none by default). */
  clientInfo?: { name: string; version?: string };
  /** Wraps provider creation (benchmarks time the provider's own share). */
  createProvider?: typeof createProvider;
  /** Builds the runtime in place of createRuntime (benchmarks reach the editor through it). */
  createRuntime?: typeof createRuntime;
  /** Load the agent before returning (default true; it otherwise loads on first use). */
  load?: boolean;
}): Promise<LspPair> {
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  const logs: string[] = [];
  const logger: Logger = {
    error: (m) => logs.push(`error ${m}`),
    warn: (m) => logs.push(`warn ${m}`),
    info: (m) => logs.push(`info ${m}`),
    debug: () => undefined,
  };
  const wrapProvider = options.createProvider;
  const server = startServer({
    input: toServer,
    output: toClient,
    logger,
    exitOnExit: false,
    ...(wrapProvider ? { createRuntime: (o: Parameters<typeof createRuntime>[0]) => createRuntime({ ...o, createProvider: wrapProvider }) } : {}),
    ...(options.createRuntime ? { createRuntime: options.createRuntime } : {}),
  });
  const connection = createProtocolConnection(new StreamMessageReader(toClient), new StreamMessageWriter(toServer));
  const client = new TestLspClient(connection);
  connection.listen();
  const init = (await connection.sendRequest("initialize", {
    processId: null,
    // A real root, as an editor opening the project gives it (never the test process's cwd).
    rootUri: new URL(`file://${options.root}`).href,
    workspaceFolders: [{ uri: new URL(`file://${options.root}`).href, name: "test" }],
    capabilities: options.capabilities ?? defaultCapabilities(),
    ...(options.clientInfo ? { clientInfo: options.clientInfo } : {}),
    initializationOptions: options.initializationOptions,
  })) as InitializeResult;
  await connection.sendNotification("initialized", {});
  // The agent loads on first use; most tests reach into it right away.
  if (options.load !== false) await server.ready();
  return {
    client,
    server,
    init,
    serverInput: toServer,
    logs,
    async close() {
      await connection.sendRequest("shutdown").catch(() => undefined);
      connection.dispose();
      toServer.end();
      toClient.end();
    },
  };
}
