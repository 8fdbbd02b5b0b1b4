/**
 * Spawns the built binary over stdio, as an editor would, with a small framed-message client:
 * raw bytes in (for framing tests), parsed messages out, and request/response helpers.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync } from "node:fs";
import { LinearParser } from "./linear-parser.js";
import { fileURLToPath } from "node:url";

/** Path of the built server. */
export const BINARY = fileURLToPath(new URL("../../server/dist/agent-lsp.js", import.meta.url));

/** A spawned server. */
export interface SpawnedServer {
  child: ChildProcessWithoutNullStreams;
  /** Every message the server wrote, in order. */
  messages: any[];
  stderr(): string;
  /** Writes raw bytes to the server's stdin. */
  writeRaw(bytes: string | Buffer): void;
  /** Sends a framed JSON-RPC message. */
  send(message: object): void;
  /** Sends a request and resolves with its response message (result or error). */
  request(method: string, params?: unknown): Promise<any>;
  notify(method: string, params?: unknown): void;
  /** Resolves with the first message matching `pred` (already received or future). */
  waitFor(pred: (m: any) => boolean, timeoutMs?: number): Promise<any>;
  /** Answers server→client requests of `method` with `answer(params)`. */
  onRequest(method: string, answer: (params: any) => unknown): void;
  /** Resolves with the exit code once the process has exited. */
  exited: Promise<number | null>;
}

/** Starts `agent-lsp --stdio` in `cwd`. */
export function spawnServer(cwd: string, env: NodeJS.ProcessEnv = {}, args: string[] = ["--stdio"]): SpawnedServer {
  if (!existsSync(BINARY)) throw new Error(`${BINARY} is missing: run npm run build first`);
  // BENCH_SERVER_NODE_ARGS (e.g. --cpu-prof) profiles the server a bench drives.
  const nodeArgs = process.env.BENCH_SERVER_NODE_ARGS?.split(" ").filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...nodeArgs, BINARY, ...args], { cwd, env: { ...process.env, ...env }, stdio: ["pipe", "pipe", "pipe"] });
  const messages: any[] = [];
  const listeners = new Set<() => void>();
  const handlers = new Map<string, (p: any) => unknown>();
  let err = "";
  let nextId = 1;
  child.stderr.on("data", (d) => (err += d));
  const parser = new LinearParser("lsp", (msg: any) => {
    messages.push(msg);
    if (msg.method && msg.id !== undefined) {
      const h = handlers.get(msg.method);
      const result = h ? h(msg.params) : null;
      Promise.resolve(result).then((r) => server.send({ jsonrpc: "2.0", id: msg.id, result: r ?? null }));
    }
    for (const l of listeners) l();
  });
  child.stdout.on("data", (chunk: Buffer) => parser.push(chunk));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const server: SpawnedServer = {
    child,
    messages,
    stderr: () => err,
    writeRaw: (bytes) => child.stdin.write(bytes),
    send(message) {
      const body = JSON.stringify(message);
      child.stdin.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    },
    request(method, params) {
      const id = nextId++;
      server.send({ jsonrpc: "2.0", id, method, params });
      return server.waitFor((m) => m.id === id && m.method === undefined);
    },
    notify(method, params) {
      server.send({ jsonrpc: "2.0", method, params });
    },
    waitFor(pred, timeoutMs = 10_000) {
      const found = messages.find(pred);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`no matching message within ${timeoutMs} ms; stderr:\n${err}`));
        }, timeoutMs);
        const check = () => {
          const m = messages.find(pred);
          if (!m) return;
          clearTimeout(timer);
          listeners.delete(check);
          resolve(m);
        };
        listeners.add(check);
      });
    },
    onRequest(method, answer) {
      handlers.set(method, answer);
    },
    exited,
  };
  return server;
}

/** Sends initialize + initialized for `root`. */
export async function initialize(server: SpawnedServer, root: string, initializationOptions?: unknown, capabilities: object = {}): Promise<any> {
  const res = await server.request("initialize", {
    processId: process.pid,
    rootUri: new URL(`file://${root}`).href,
    capabilities: { workspace: { applyEdit: true, workspaceEdit: { documentChanges: true } }, ...capabilities },
    initializationOptions,
  });
  server.notify("initialized", {});
  return res;
}

/**
 * Resolves once the server's agent has loaded: the first new session is answered before it has
 * (agent/runtime-start.ts), and any other agent request waits for it. Benchmarks that time a turn
 * call this after the new session, so the one-time load is not counted as the turn's.
 */
export async function agentLoaded(server: SpawnedServer): Promise<void> {
  const answer = await server.request("agent/listSessions", {});
  if (answer.error) throw new Error(`the agent did not load: ${JSON.stringify(answer.error)}`);
}
