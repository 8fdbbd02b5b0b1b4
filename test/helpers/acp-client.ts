/**
 * The built binary started as `agent-lsp --acp`, driven by the SDK's own client side (ClientApp)
 * over its stdio: the editor's buffers as an in-memory overlay of the disk answering
 * `fs/read_text_file` / `fs/write_text_file`, permission prompts answered by a script, and every
 * `session/update` recorded. The fake provider is configured through the user config file, as a
 * user of an ACP client would configure it.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import { stringify } from "smol-toml";
import { tempProject } from "./agent-setup.js";
import { BINARY } from "./spawn-server.js";

/** How the client answers a permission prompt: an option kind, or "cancelled", or never. */
export type PermissionScript = acp.PermissionOptionKind | "cancelled" | "never";

/** A spawned `agent-lsp --acp` and its client. */
export interface AcpHarness {
  child: ChildProcessWithoutNullStreams;
  agent: acp.ClientContext;
  connection: acp.ClientConnection;
  /** Every session/update received, in the order the client's handlers ran. */
  updates: acp.SessionNotification[];
  /**
   * Every message the agent wrote, parsed, in the order it wrote them. The SDK's client hands a
   * response to its caller at once but runs notification handlers a few ticks later, so
   * {@link updates} can lag an answer that the agent sent after them: order is checked here.
   */
  wire: Array<{ id?: number | string | null; method?: string; params?: any; result?: any; error?: unknown }>;
  /** Every permission request received. */
  permissions: acp.RequestPermissionRequest[];
  /** Every fs/write_text_file received. */
  writes: acp.WriteTextFileRequest[];
  /** Every fs/read_text_file received. */
  reads: acp.ReadTextFileRequest[];
  /** Whether fs/write_text_file also saves to disk (as CodeCompanion and avante do), not only the buffer. */
  saveWrites?: boolean;
  /** The client's unsaved buffers, by absolute path (fs/read_text_file answers these first). */
  buffers: Map<string, string>;
  /** How the next permission prompts are answered. */
  permission: PermissionScript;
  /** Every terminal/create received. */
  terminals: acp.CreateTerminalRequest[];
  /** Paths whose fs/write_text_file the client refuses. */
  refuseWrites: Set<string>;
  /** Every elicitation/create received, and how the next is answered (declined when unset). */
  elicitations: acp.CreateElicitationRequest[];
  elicitationReply?: acp.CreateElicitationResponse;
  stderr(): string;
  /** The updates of one kind. */
  updatesOf<K extends acp.SessionUpdate["sessionUpdate"]>(kind: K): Extract<acp.SessionUpdate, { sessionUpdate: K }>[];
  initialize(capabilities?: acp.ClientCapabilities): Promise<acp.InitializeResponse>;
  close(): Promise<void>;
}

/** Writes `options` (as the LSP initializationOptions would carry them) as the user config file. */
export function userConfigHome(options: Record<string, unknown>): string {
  const home = tempProject("agent-lsp-acp-config-");
  mkdirSync(path.join(home, "agent-lsp"), { recursive: true });
  writeFileSync(path.join(home, "agent-lsp", "config.toml"), stringify(options));
  return home;
}

/** Spawns `agent-lsp --acp` in `cwd` with the user config of `configHome`. */
export function spawnAcp(cwd: string, configHome: string): AcpHarness {
  if (!existsSync(BINARY)) throw new Error(`${BINARY} is missing: run npm run build first`);
  const child = spawn(process.execPath, [BINARY, "--acp"], { cwd, env: { ...process.env, XDG_CONFIG_HOME: configHome, XDG_STATE_HOME: configHome }, stdio: ["pipe", "pipe", "pipe"] });
  let err = "";
  child.stderr.on("data", (d) => (err += d));
  let partial = "";
  child.stdout.on("data", (chunk: Buffer) => {
    const lines = (partial + chunk.toString("utf8")).split("\n");
    partial = lines.pop()!;
    for (const line of lines) if (line.trim()) h.wire.push(JSON.parse(line));
  });
  let handled = 0; // session/updates the handler took (tests may empty `updates`)
  const updatesWritten = () => h.wire.filter((m) => m.method === "session/update").length;
  const h = { wire: [], updates: [], permissions: [], writes: [], reads: [], terminals: [], buffers: new Map(), permission: "allow_once", refuseWrites: new Set(), elicitations: [] } as unknown as AcpHarness;
  const app = acp
    .client({ name: "acp-test-client" })
    .onNotification("session/update", ({ params }) => {
      handled++;
      h.updates.push(params);
    })
    .onRequest("session/request_permission", ({ params, signal }) => answerPermission(h, params, signal))
    .onRequest("fs/read_text_file", ({ params }) => {
      h.reads.push(params);
      const text = h.buffers.get(params.path) ?? (existsSync(params.path) ? readFileSync(params.path, "utf8") : undefined);
      if (text === undefined) throw acp.RequestError.resourceNotFound(params.path);
      return { content: text };
    })
    .onRequest("elicitation/create", ({ params }) => {
      h.elicitations.push(params);
      return h.elicitationReply ?? { action: "decline" };
    })
    .onRequest("fs/write_text_file", ({ params }) => {
      h.writes.push(params);
      if (h.refuseWrites.has(params.path)) throw new acp.RequestError(-32603, `refused to write ${params.path}`);
      h.buffers.set(params.path, params.content);
      if (h.saveWrites) writeFileSync(params.path, params.content);
      return {};
    });
  serveTerminals(app, h);
  const stream = acp.ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>);
  const connection = app.connect(stream);
  return Object.assign(h, {
    child,
    connection,
    agent: answeringAfterUpdates(connection.agent, h, () => updatesWritten() - handled),
    stderr: () => err,
    updatesOf: (kind: string) => h.updates.map((n) => n.update).filter((u) => u.sessionUpdate === kind),
    initialize: (capabilities: acp.ClientCapabilities = {}) =>
      connection.agent.request("initialize", { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: capabilities, clientInfo: { name: "acp-test-client", version: "1" } }),
    async close() {
      connection.close();
      if (child.exitCode === null) child.kill("SIGKILL");
    },
  }) as AcpHarness;
}

function answerPermission(h: AcpHarness, params: acp.RequestPermissionRequest, signal: AbortSignal): Promise<acp.RequestPermissionResponse> | acp.RequestPermissionResponse {
  h.permissions.push(params);
  const script = h.permission;
  if (script === "never") {
    // A client that never answers, but withdraws when the agent cancels the request.
    return new Promise((resolve) => signal.addEventListener("abort", () => resolve({ outcome: { outcome: "cancelled" } }), { once: true }));
  }
  if (script === "cancelled") return { outcome: { outcome: "cancelled" } };
  const option = params.options.find((o) => o.kind === script);
  if (!option) throw new Error(`the prompt offers no ${script} option: ${JSON.stringify(params.options)}`);
  return { outcome: { outcome: "selected", optionId: option.optionId } };
}

/** A client terminal: runs the command itself, as an editor's terminal pane would. */
interface ClientSideTerminal {
  child: ChildProcessWithoutNullStreams;
  output: string;
  exit: Promise<acp.TerminalExitStatus>;
}

function serveTerminals(app: acp.ClientApp, h: AcpHarness): void {
  const terminals = new Map<string, ClientSideTerminal>();
  const get = (id: string) => {
    const t = terminals.get(id);
    if (!t) throw acp.RequestError.resourceNotFound(id);
    return t;
  };
  app
    .onRequest("terminal/create", ({ params }) => {
      h.terminals.push(params);
      const child = spawn(params.command, params.args ?? [], { cwd: params.cwd ?? undefined, stdio: ["pipe", "pipe", "pipe"] });
      const t: ClientSideTerminal = { child, output: "", exit: new Promise((resolve) => child.on("exit", (exitCode, signal) => resolve({ exitCode, signal }))) };
      child.stdout.on("data", (d) => (t.output += d));
      child.stderr.on("data", (d) => (t.output += d));
      const terminalId = `term-${terminals.size + 1}`;
      terminals.set(terminalId, t);
      return { terminalId };
    })
    .onRequest("terminal/output", async ({ params }) => {
      const t = get(params.terminalId);
      const done = t.child.exitCode !== null || t.child.signalCode !== null;
      return { output: t.output, truncated: false, ...(done ? { exitStatus: await t.exit } : {}) };
    })
    .onRequest("terminal/wait_for_exit", ({ params }) => get(params.terminalId).exit)
    .onRequest("terminal/kill", ({ params }) => {
      get(params.terminalId).child.kill("SIGKILL");
      return {};
    })
    .onRequest("terminal/release", ({ params }) => {
      get(params.terminalId).child.kill("SIGKILL");
      terminals.delete(params.terminalId);
      return {};
    });
}

/**
 * `agent` whose requests resolve only once every session/update the agent wrote before the
 * answer has reached the client's handler: the SDK resolves a response at once but runs
 * notification handlers (which check each against the schema) a few ticks later, so a test that
 * looks at `updates` right after an answer would otherwise miss the last of them.
 */
function answeringAfterUpdates(agent: acp.ClientContext, h: AcpHarness, unhandled: () => number): acp.ClientContext {
  const request = async (...args: Parameters<acp.ClientContext["request"]>) => {
    const answer = await (agent.request as (...a: unknown[]) => Promise<unknown>)(...args);
    const deadline = Date.now() + 10_000;
    while (unhandled() > 0) {
      if (Date.now() > deadline) throw new Error(`${unhandled()} session/update notification(s) written before the answer of ${String(args[0])} never reached the client's handler (did one fail the ACP schema? stderr: ${h.stderr().slice(-500)})`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return answer;
  };
  return new Proxy(agent, {
    get(target, prop) {
      if (prop === "request") return request;
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
