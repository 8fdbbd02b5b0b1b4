/**
 * The fake provider: one local HTTP server that answers each model API's streaming endpoint with
 * scripted turns, records every request and notes every way a request breaks the API's contract.
 *
 * Which API a request speaks is decided by its method and path (see `formats.ts`); the queued turns
 * are served in order to whatever format asks next, so one script can drive any provider.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { formats } from "./formats.js";
import type { FakeTurn, RecordedRequest, TurnContext, WireFormat } from "./types.js";

/** A running fake provider. */
export interface FakeProvider {
  /** Base URL such as `http://127.0.0.1:41234` (no trailing slash, no `/v1`). */
  readonly url: string;
  /** Queues scripted model responses, served in order to the next requests of any format. */
  enqueue(...turns: FakeTurn[]): void;
  /** Every request that reached a known endpoint, valid or not, in arrival order. */
  readonly requests: RecordedRequest[];
  /** Every violation so far: invalid requests, unknown paths, requests with no turn queued. */
  readonly violations: string[];
  /** How many queued turns have not been served yet. */
  readonly pendingTurns: number;
  /** Resolves once `n` requests have been recorded; rejects after `timeoutMs` (default 5000). */
  waitForRequests(n: number, timeoutMs?: number): Promise<RecordedRequest[]>;
  /** Stops the server and drops every open connection (hanging streams included). */
  close(): Promise<void>;
}

/**
 * Starts a fake provider on 127.0.0.1 on a random free port.
 *
 * Formats see `path` as the request target the client sent, query string included (Gemini's
 * `?alt=sse` matters); `matches` is tried with the full target first and then with the bare path.
 */
export async function startFakeProvider(): Promise<FakeProvider> {
  const queue: FakeTurn[] = [];
  const requests: RecordedRequest[] = [];
  const violations: string[] = [];
  let waiters: Array<() => void> = [];

  const notify = (): void => {
    const current = waiters;
    waiters = [];
    for (const wake of current) wake();
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const method = req.method ?? "GET";
    const target = req.url ?? "/";
    const format = findFormat(method, target);
    const raw = await readBody(req);
    if (!format) {
      violations.push(`${method} ${target}: no fake format serves this endpoint`);
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: `fake provider: nothing serves ${method} ${target}` }));
      return;
    }
    const { body, problems } = parseJson(raw);
    if (problems.length === 0) problems.push(...format.validate(body, target, req.headers));
    requests.push({ format: format.name, method, path: target, headers: req.headers, body, violations: problems });
    violations.push(...problems.map((p) => `${format.name} ${method} ${target}: ${p}`));
    notify();
    if (problems.length > 0) {
      format.writeError(res, { status: 400, message: problems.join("; ") });
      return;
    }
    const turn = queue.shift();
    if (!turn) {
      const message = "fake provider: no turn queued for this request (enqueue one before the model is called)";
      violations.push(`${format.name} ${method} ${target}: ${message}`);
      format.writeError(res, { status: 500, message });
      return;
    }
    await serveTurn(format, turn, body, target, req, res, violations);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      violations.push(`fake provider crashed on ${req.method} ${req.url}: ${describe(error)}`);
      res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    violations,
    get pendingTurns() {
      return queue.length;
    },
    enqueue: (...turns) => {
      queue.push(...turns);
    },
    waitForRequests: (n, timeoutMs = 5000) =>
      new Promise((resolve, reject) => {
        const check = (): boolean => {
          if (requests.length < n) return false;
          clearTimeout(timer);
          resolve(requests);
          return true;
        };
        const timer = setTimeout(() => {
          waiters = waiters.filter((w) => w !== wake);
          reject(new Error(`fake provider: waited ${timeoutMs} ms for ${n} requests, got ${requests.length}`));
        }, timeoutMs);
        const wake = (): void => {
          if (!check()) waiters.push(wake);
        };
        wake();
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function findFormat(method: string, target: string): WireFormat | undefined {
  const bare = target.split("?")[0] ?? target;
  return formats.find((f) => f.matches(method, target)) ?? formats.find((f) => f.matches(method, bare));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function parseJson(raw: string): { body: any; problems: string[] } {
  try {
    return { body: JSON.parse(raw), problems: [] };
  } catch (error) {
    return { body: raw, problems: [`request body is not JSON: ${describe(error)}`] };
  }
}

/** Answers one valid request with its scripted turn: an HTTP error or a stream. */
async function serveTurn(
  format: WireFormat,
  turn: FakeTurn,
  body: any,
  path: string,
  req: IncomingMessage,
  res: ServerResponse,
  violations: string[],
): Promise<void> {
  if (turn.error) {
    // Set here rather than in each format: every API names the header the same way.
    if (turn.error.retryAfterSeconds !== undefined) {
      res.setHeader("retry-after", String(turn.error.retryAfterSeconds));
    }
    format.writeError(res, turn.error);
    return;
  }
  const stream = new StreamWriter(res, turn, format.keepAlive);
  // `close` on the response fires both when we end it and when the client goes away.
  res.on("close", () => stream.close());
  const ctx: TurnContext = { res, body, path, signal: stream.signal, send: (event, data) => stream.send(event, data) };
  try {
    await format.writeTurn(turn, ctx);
  } catch (error) {
    violations.push(`${format.name} fake format threw while streaming: ${describe(error)}`);
    res.destroy();
    return;
  }
  if (turn.hang && !stream.signal.aborted) {
    if (!res.headersSent) res.flushHeaders();
    await untilAborted(stream.signal);
  }
  if (!stream.signal.aborted) res.end();
}

/** Writes events for one turn, honouring its delay, its cut, its stall and the client's disconnect. */
class StreamWriter {
  private readonly controller = new AbortController();
  private sent = 0;
  private stalled = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly turn: FakeTurn,
    private readonly keepAlive?: WireFormat["keepAlive"],
  ) {}

  /** Aborted when the client disconnects or the turn's cut destroyed the connection. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  close(): void {
    if (!this.controller.signal.aborted) this.controller.abort();
  }

  /**
   * Writes one event. Once the stream is closed this resolves without writing, so a format's
   * writer simply runs to its end; formats never need to check for a closed stream themselves.
   */
  async send(event: string | undefined, data: unknown): Promise<void> {
    if (this.signal.aborted) return;
    if (this.turn.cutAfterEvents !== undefined && this.sent >= this.turn.cutAfterEvents) {
      this.cut();
      return;
    }
    const stall = this.turn.stall;
    if (stall && !this.stalled && this.sent >= stall.afterEvents) await this.stallNow(stall);
    if (this.sent > 0 && this.turn.chunkDelayMs) await sleep(this.turn.chunkDelayMs, this.signal);
    if (this.signal.aborted) return;
    this.ensureHead();
    this.sent++;
    await this.write(frameOf(event, data));
    if (this.turn.cutAfterEvents !== undefined && this.sent >= this.turn.cutAfterEvents) this.cut();
  }

  private ensureHead(): void {
    // A format may have written its own headers (NDJSON, JSON arrays); otherwise it is SSE.
    if (this.res.headersSent) return;
    this.res.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      connection: "keep-alive",
    });
  }

  private write(frame: string): Promise<void> {
    return new Promise<void>((resolve) => this.res.write(frame, () => resolve()));
  }

  /** Writes nothing (but the pings asked for) until the client leaves or `forMs` passed. */
  private async stallNow(stall: NonNullable<FakeTurn["stall"]>): Promise<void> {
    this.stalled = true;
    const ping = (): void => {
      if (this.signal.aborted) return;
      this.ensureHead();
      void this.write(this.keepAlive ? frameOf(this.keepAlive.event, this.keepAlive.data) : ": keep-alive\n\n");
    };
    const timer = stall.pingEveryMs ? setInterval(ping, stall.pingEveryMs) : undefined;
    try {
      await (stall.forMs === undefined ? untilAborted(this.signal) : sleep(stall.forMs, this.signal));
    } finally {
      clearInterval(timer);
    }
  }

  /** Kills the connection mid-body, as a dropped network or a crashed proxy would. */
  private cut(): void {
    if (!this.res.headersSent) this.res.flushHeaders();
    this.close();
    this.res.destroy();
  }
}

/** One SSE frame. */
function frameOf(event: string | undefined, data: unknown): string {
  const payload = typeof data === "string" ? data : JSON.stringify(data);
  return (event === undefined ? "" : `event: ${event}\n`) + `data: ${payload}\n\n`;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
  });
}

function untilAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
