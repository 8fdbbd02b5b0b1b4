/**
 * A `fetch` that gives up on a response that goes silent: no bytes (headers, events, keep-alive
 * pings) for `idleMs` fails the request with a StreamIdleError, as a broken connection would.
 *
 * It watches bytes, not events, because that is the only place every provider's activity shows:
 * the Anthropic SDK drops `ping` events before they reach its event stream, so a watchdog on our
 * ProviderEvents would call a thinking model that pings every few seconds silent. Every adapter
 * hands this fetch to its SDK (all three take a custom fetch), so it is written once.
 */

/** The `code` a StreamIdleError carries, for error mapping that reads errors by shape. */
const STREAM_IDLE_CODE = "AGENT_LSP_STREAM_IDLE";

/**
 * The failure of a silent stream. Its name is not `AbortError` and its message has no "timeout"
 * in it on purpose: the Stainless SDKs treat both as the user's own abort or their own timeout
 * and would hide it.
 */
class StreamIdleError extends Error {
  readonly code = STREAM_IDLE_CODE;

  constructor(readonly idleMs: number) {
    super(`the model's stream sent nothing for ${formatIdle(idleMs)}`);
    this.name = "StreamIdleError";
  }
}

/** Finds a StreamIdleError along an error's `cause` chain (SDKs wrap what fetch threw). */
export function findStreamIdleError(err: unknown): StreamIdleError | undefined {
  let current: unknown = err;
  for (let depth = 0; depth < 6 && current && typeof current === "object"; depth++) {
    if ((current as { code?: unknown }).code === STREAM_IDLE_CODE) return current as StreamIdleError;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** `inner` with an idle limit on every response; `inner` itself when the limit is 0 or unset. */
export function idleLimitedFetch(idleMs: number | undefined, inner: typeof fetch = globalThis.fetch): typeof fetch {
  if (!idleMs || idleMs <= 0) return inner;
  return (input, init) => fetchWithIdleLimit(inner, idleMs, input, init);
}

async function fetchWithIdleLimit(inner: typeof fetch, idleMs: number, input: Parameters<typeof fetch>[0], init?: RequestInit): Promise<Response> {
  // Our own controller, so a silent request can be torn down without touching the caller's signal.
  const controller = new AbortController();
  const outer = init?.signal ?? undefined;
  const watch = new IdleWatch(idleMs, (error) => controller.abort(error));
  const forwardAbort = (): void => {
    watch.stop();
    controller.abort(outer?.reason);
  };
  if (outer?.aborted) forwardAbort();
  else outer?.addEventListener("abort", forwardAbort, { once: true });
  watch.onStop = () => outer?.removeEventListener("abort", forwardAbort);

  watch.arm();
  let response: Response;
  try {
    response = await inner(input, { ...init, signal: controller.signal });
  } catch (err) {
    watch.stop();
    throw watch.error ?? err;
  } finally {
    watch.disarm();
  }
  if (!response.body) {
    watch.stop();
    return response;
  }
  return withWatchedBody(response, response.body, watch);
}

/**
 * A copy of `response` whose body reads through the watch. The clock runs only while a read is
 * waiting for bytes: a consumer that pauses between reads is not the server's silence.
 */
function withWatchedBody(response: Response, source: ReadableStream<Uint8Array>, watch: IdleWatch): Response {
  const reader = source.getReader();
  const body = new ReadableStream<Uint8Array>({
    start: (c) => {
      // Error the body we hand out, so the SDK's pending read rejects with the idle error.
      watch.onIdle = (error) => c.error(error);
    },
    pull: async (c) => {
      watch.arm();
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (err) {
        watch.stop();
        if (!watch.error) c.error(err); // after an idle error the body is already errored with it
        return;
      }
      watch.disarm();
      if (watch.error) return;
      if (chunk.done) {
        watch.stop();
        c.close();
      } else c.enqueue(chunk.value);
    },
    cancel: (reason) => {
      watch.stop();
      return reader.cancel(reason);
    },
  });
  const copy = new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  // Only the SDKs' logging reads it, but a copy without it would log an empty URL.
  Object.defineProperty(copy, "url", { value: response.url });
  return copy;
}

/** The clock of one request: fires once after `ms` armed without a disarm. */
class IdleWatch {
  /** Set when the watch fired. */
  error: StreamIdleError | undefined;
  /** Extra work when it fires (erroring the body handed out). */
  onIdle: ((error: StreamIdleError) => void) | undefined;
  /** Runs once when the watch ends for good. */
  onStop: (() => void) | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly ms: number,
    private readonly abort: (error: StreamIdleError) => void,
  ) {}

  arm(): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.fire(), this.ms);
    // A watch must never keep the process alive on its own.
    this.timer.unref();
  }

  disarm(): void {
    clearTimeout(this.timer);
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    clearTimeout(this.timer);
    this.onStop?.();
  }

  private fire(): void {
    this.error = new StreamIdleError(this.ms);
    this.onIdle?.(this.error);
    this.stop();
    this.abort(this.error);
  }
}

function formatIdle(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}
