/**
 * The built server started over stdio as an editor starts it, on a temp project, initialized
 * against the fake provider, with a protocol connection to drive it; and a way to have the
 * fake model start a background job in it.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { createProtocolConnection, StreamMessageReader, StreamMessageWriter, type ProtocolConnection } from "vscode-languageserver/node.js";
import { fakeProviderOptions, tempProject } from "./agent-setup.js";
import { startFakeProvider, type FakeProvider } from "./fake-provider/index.js";
import { defaultCapabilities, TestLspClient } from "./lsp-client.js";
import { BINARY } from "./spawn-server.js";

/** A running built server. */
export interface AgentBinary {
  server: ChildProcessWithoutNullStreams;
  connection: ProtocolConnection;
  /** Resolves with the exit code once the server has exited. */
  exited: Promise<number | null>;
  root: string;
  fake: FakeProvider;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  /** Ends the connection, kills the server if it still runs, removes the project. */
  dispose(): Promise<void>;
}

/** Starts the built server on a temp project, initialized against the fake provider (and `options`). */
export async function startAgentBinary(name = "agent-binary", options: Record<string, unknown> = {}): Promise<AgentBinary> {
  if (!existsSync(BINARY)) throw new Error(`${BINARY} is missing: run npm run build first.`);
  const root = tempProject();
  const fake = await startFakeProvider();
  const server = spawn(process.execPath, [BINARY, "--stdio"], { cwd: root, stdio: ["pipe", "pipe", "pipe"] });
  let err = "";
  server.stderr.on("data", (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => server.once("exit", (code) => resolve(code)));
  const connection = createProtocolConnection(new StreamMessageReader(server.stdout), new StreamMessageWriter(server.stdin));
  new TestLspClient(connection);
  connection.listen();
  await connection.sendRequest("initialize", {
    processId: process.pid,
    // A real root, as an editor opening the project gives it (never the server's cwd, nor /).
    rootUri: new URL(`file://${root}`).href,
    workspaceFolders: [{ uri: new URL(`file://${root}`).href, name }],
    capabilities: defaultCapabilities(),
    initializationOptions: fakeProviderOptions(fake, options),
  });
  await connection.sendNotification("initialized", {});
  return {
    server,
    connection,
    exited,
    root,
    fake,
    stderr: () => err,
    async dispose() {
      connection.dispose();
      if (server.exitCode === null && server.signalCode === null) server.kill("SIGKILL");
      await fake.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Has the fake model start `command` as a background job in a new session; checks it started. */
export async function startBackgroundJobIn(r: AgentBinary, command: string): Promise<void> {
  r.fake.enqueue({ toolCalls: [{ name: "execute_command", input: { command, mode: "background" } }] }, { text: "started" });
  const { sessionId } = (await r.connection.sendRequest("agent/newSession", {})) as { sessionId: string };
  await r.connection.sendRequest("agent/prompt", { sessionId, prompt: "start the job" });
  const results = (r.fake.requests[1]?.body.messages as any[])
    .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
    .filter((b: any) => b.type === "tool_result");
  if (!/Started bg-\d+ in the background/.test(JSON.stringify(results))) {
    throw new Error(`execute_command did not start the job: ${JSON.stringify(results)}`);
  }
}
