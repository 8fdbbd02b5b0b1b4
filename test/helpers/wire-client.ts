/**
 * A JSON-RPC client for tests and benchmarks that flood the server: it parses what the server writes in
 * linear time (chunks kept in a list, each message cut out once, answers found by id in a map), so
 * thousands of answers cost the client microseconds each and what a bench times is the server's.
 * Speaks LSP framing (`Content-Length` headers) or ACP's newline-delimited JSON.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { BINARY } from "./spawn-server.js";
import { LinearParser, type Framing, type WireMessage } from "./linear-parser.js";

export type { Framing, WireMessage };

/** A spawned server driven by a linear client. */
export interface WireClient {
  child: ChildProcessWithoutNullStreams;
  /** Frames `message` for the wire (several may be joined into one write). */
  frame(message: object): Buffer;
  /** Writes already framed bytes; `taken` is called once the server's pipe has taken them all. */
  write(bytes: Buffer, taken?: () => void): void;
  /** A request's frame and the promise of its answer (send the frame yourself). */
  prepare(method: string, params?: unknown): { frame: Buffer; answer: Promise<WireMessage> };
  /** Sends a request and resolves with its answer. */
  request(method: string, params?: unknown): Promise<WireMessage>;
  notify(method: string, params?: unknown): void;
  /** Notifications the server sent, by method, counted. */
  notifications: Map<string, number>;
  /** Resolves with the next notification `pred` accepts. */
  next(pred: (m: WireMessage) => boolean): Promise<WireMessage>;
  stderr(): string;
  kill(): void;
}

/**
 * Spawns the built binary with `args` in `cwd`; requests the server sends are answered by
 * `answer` (undefined: null); `env` is added to this process's environment.
 */
export function spawnWire(cwd: string, args: string[], framing: Framing, answer: (m: WireMessage) => unknown = () => null, env: NodeJS.ProcessEnv = {}): WireClient {
  // BENCH_SERVER_NODE_ARGS (e.g. --cpu-prof) profiles the server a bench drives.
  const nodeArgs = process.env.BENCH_SERVER_NODE_ARGS?.split(" ").filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...nodeArgs, BINARY, ...args], { cwd, env: { ...process.env, ...env }, stdio: ["pipe", "pipe", "pipe"] });
  const waiting = new Map<number | string, (m: WireMessage) => void>();
  const watchers = new Set<{ pred: (m: WireMessage) => boolean; resolve: (m: WireMessage) => void }>();
  const notifications = new Map<string, number>();
  let err = "";
  let nextId = 1;
  child.stderr.on("data", (d) => (err += d));
  const frame = (message: object): Buffer => {
    const body = JSON.stringify({ jsonrpc: "2.0", ...message });
    return Buffer.from(framing === "lsp" ? `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}` : `${body}\n`);
  };
  const parser = new LinearParser(framing, (m) => {
    if (m.method && m.id !== undefined) {
      void Promise.resolve(answer(m)).then((result) => child.stdin.write(frame({ id: m.id, result: result ?? null })));
    } else if (m.method) {
      notifications.set(m.method, (notifications.get(m.method) ?? 0) + 1);
      for (const w of watchers) if (w.pred(m)) (watchers.delete(w), w.resolve(m));
    } else if (m.id !== undefined) {
      waiting.get(m.id)?.(m);
      waiting.delete(m.id);
    }
  });
  child.stdout.on("data", (chunk: Buffer) => parser.push(chunk));
  const client: WireClient = {
    child,
    frame,
    write: (bytes, taken) => void child.stdin.write(bytes, () => taken?.()),
    prepare(method, params) {
      const id = nextId++;
      const answered = new Promise<WireMessage>((resolve) => waiting.set(id, resolve));
      return { frame: frame({ id, method, params }), answer: answered };
    },
    request(method, params) {
      const { frame: bytes, answer: answered } = client.prepare(method, params);
      client.write(bytes);
      return answered;
    },
    notify: (method, params) => client.write(frame({ method, params })),
    notifications,
    next: (pred) => new Promise((resolve) => watchers.add({ pred, resolve })),
    stderr: () => err,
    // A profiled server must exit by itself to write its profile: stdin closed, then SIGTERM.
    kill: () => void (nodeArgs.length ? (child.stdin.end(), setTimeout(() => child.kill("SIGTERM"), 3000)) : child.kill("SIGKILL")),
  };
  return client;
}
