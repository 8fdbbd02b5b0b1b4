/**
 * No orphans: the built server, started over stdio as an editor starts it, runs a background job
 * for the model; when the editor goes away (stdin closes) or says shutdown + exit, the job's
 * whole tree is gone with the server.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { createProtocolConnection, StreamMessageReader, StreamMessageWriter, type ProtocolConnection } from "vscode-languageserver/node.js";
import { fakeProviderOptions, tempProject } from "../helpers/agent-setup.js";
import { startFakeProvider, type FakeProvider } from "../helpers/fake-provider/index.js";
import { defaultCapabilities, TestLspClient } from "../helpers/lsp-client.js";
import { processGone, survivors } from "../unit/exec/fake-context.js";

const binary = fileURLToPath(new URL("../../server/dist/agent-lsp.js", import.meta.url));

interface Running {
  server: ChildProcessWithoutNullStreams;
  connection: ProtocolConnection;
  exited: Promise<number | null>;
  root: string;
  fake: FakeProvider;
}

let running: Running | undefined;
afterEach(async () => {
  if (!running) return;
  running.connection.dispose();
  if (running.server.exitCode === null) running.server.kill("SIGKILL");
  await running.fake.close();
  rmSync(running.root, { recursive: true, force: true });
  running = undefined;
});

/** Starts the built server on a temp project, initialized against the fake provider. */
async function startServer(): Promise<Running> {
  if (!existsSync(binary)) throw new Error(`${binary} is missing: run npm run build first.`);
  const root = tempProject();
  const fake = await startFakeProvider();
  const server = spawn(process.execPath, [binary, "--stdio"], { cwd: root, stdio: ["pipe", "pipe", "pipe"] });
  server.stderr.resume();
  const exited = new Promise<number | null>((resolve) => server.once("exit", (code) => resolve(code)));
  const connection = createProtocolConnection(new StreamMessageReader(server.stdout), new StreamMessageWriter(server.stdin));
  new TestLspClient(connection);
  connection.listen();
  await connection.sendRequest("initialize", {
    processId: process.pid,
    rootUri: null,
    workspaceFolders: [{ uri: new URL(`file://${root}`).href, name: "orphans" }],
    capabilities: defaultCapabilities(),
    initializationOptions: fakeProviderOptions(fake),
  });
  await connection.sendNotification("initialized", {});
  running = { server, connection, exited, root, fake };
  return running;
}

/** Has the model start a background job whose tree writes its pids to `pids`; returns them. */
async function startBackgroundJob(r: Running): Promise<number[]> {
  r.fake.enqueue(
    {
      toolCalls: [
        { name: "execute_command", input: { command: "echo $$ > pids; sleep 100 & echo $! >> pids; wait", mode: "background" } },
      ],
    },
    { text: "started" },
  );
  const { sessionId } = (await r.connection.sendRequest("agent/newSession", {})) as { sessionId: string };
  await r.connection.sendRequest("agent/prompt", { sessionId, prompt: "start the job" });
  const results = (r.fake.requests[1]?.body.messages as any[])
    .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
    .filter((b: any) => b.type === "tool_result");
  expect(JSON.stringify(results), "execute_command must be registered and start the job").toMatch(/Started bg-\d+ in the background/);
  const pidFile = path.join(r.root, "pids");
  const deadline = Date.now() + 5000;
  while (!(existsSync(pidFile) && readFileSync(pidFile, "utf8").trim().split("\n").length === 2)) {
    if (Date.now() > deadline) throw new Error("the background job never wrote its pids");
    await new Promise((res) => setTimeout(res, 20));
  }
  const pids = readFileSync(pidFile, "utf8").trim().split("\n").map(Number);
  expect(pids.every((p) => !processGone(p))).toBe(true);
  return pids;
}

describe.skipIf(process.platform === "win32")("no orphan processes after the server ends", () => {
  it("stdin closing (the editor died) stops the background job's whole tree", async () => {
    const r = await startServer();
    const pids = await startBackgroundJob(r);
    r.server.stdin.end();
    await r.exited;
    expect(await survivors(pids, 1000)).toEqual([]);
  });

  it("shutdown + exit stops the background job's whole tree", async () => {
    const r = await startServer();
    const pids = await startBackgroundJob(r);
    await r.connection.sendRequest("shutdown");
    await r.connection.sendNotification("exit");
    await r.exited;
    expect(await survivors(pids, 1000)).toEqual([]);
  });
});
