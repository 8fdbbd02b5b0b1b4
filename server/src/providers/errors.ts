/**
 * Turns what a provider call fails with (an HTTP error, a dropped connection, an error sent inside
 * the stream) into the `error` ProviderEvent the loop acts on: a readable message carrying the
 * provider's own words, whether a retry is worth it, and how long the provider asked us to wait.
 *
 * It reads errors by shape, not by class: the Stainless-generated SDKs (`openai`,
 * `@anthropic-ai/sdk`) all throw `{status, headers, error}` objects, and Node's fetch reports
 * network failures as `cause` chains with a `code`. So it works for any adapter and never loads an SDK.
 */
import { findStreamIdleError } from "./idle-fetch.js";
import type { ProviderEvent, ProviderSettings } from "./provider.js";

/** The `error` member of the ProviderEvent union. */
export type ProviderErrorEvent = Extract<ProviderEvent, { type: "error" }>;

/** What the mapping needs to know about the call that failed. */
export interface ErrorContext {
  /**
   * Whether the stream already emitted text, thinking or tool calls. Retrying after that would
   * show the user the same output twice, so nothing is retryable once content went out.
   */
  emittedContent: boolean;
  /** The provider's configured name, so the message says who failed (`openai`, `ollama`). */
  provider?: string;
  /** The base URL, named when the connection itself failed. */
  endpoint?: string;
  /** The caller's signal: an error once it fired is our own cancellation, not a failure. */
  signal?: AbortSignal;
  /** Where the key came from, named when the provider refuses it (401/403). Never the key. */
  keySource?: string;
}

/** The context of one call of the provider `settings` describe, before anything went out. */
export function errorContext(settings: ProviderSettings, endpoint: string | undefined, signal: AbortSignal): ErrorContext {
  return {
    emittedContent: false,
    provider: settings.name,
    signal,
    ...(endpoint ? { endpoint } : {}),
    ...(settings.keySource ? { keySource: settings.keySource } : {}),
  };
}

/** Network failures worth another try: the connection broke or timed out on the way. */
const TRANSIENT_NETWORK = new Set([
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "ECONNABORTED",
  "EAI_AGAIN",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
]);
/** Network failures a retry will not fix soon: nothing listens there, or the name does not resolve. */
const PERMANENT_NETWORK = new Set(["ECONNREFUSED", "ENOTFOUND", "EHOSTUNREACH", "ENETUNREACH", "CERT_HAS_EXPIRED", "BAD_PORT"]);
/** Our code for a port fetch will not connect to. */
const BAD_PORT = "BAD_PORT";

/** In-band error codes/types that mean "the service is busy or broke", not "your request is wrong". */
const TRANSIENT_CODE = /server_error|overloaded|rate_limit|too_many_requests|unavailable|timeout|internal|api_error/i;

/**
 * Maps a thrown error to the `error` event, or `undefined` when the error is our own abort (the
 * loop already knows it cancelled and must not report a failure).
 */
export function providerErrorEvent(err: unknown, ctx: ErrorContext): ProviderErrorEvent | undefined {
  if (ctx.signal?.aborted || isAbortError(err)) return undefined;
  const label = ctx.provider ?? "the provider";
  const e = err as { status?: unknown; headers?: unknown; error?: unknown } | undefined;
  if (typeof e?.status === "number") {
    const status = e.status;
    const event: ProviderErrorEvent = {
      type: "error",
      message: `${label} answered HTTP ${status}: ${bodyMessage(err)}${authHint(status, ctx)}`,
      status,
      retryable: isRetryableStatus(status) && !ctx.emittedContent,
    };
    const retryAfterMs = parseRetryAfterMs(e.headers);
    if (retryAfterMs !== undefined) event.retryAfterMs = retryAfterMs;
    return event;
  }
  // An error object without a status came inside a 200 stream (a `data: {"error": ...}` event).
  if (isRecord(e?.error)) {
    const body = e.error;
    const code = stringOr(body.code) ?? stringOr(body.type);
    return streamErrorEvent({ message: stringOr(body.message) ?? describe(err), code }, ctx);
  }
  const idle = findStreamIdleError(err);
  if (idle) return { type: "error", message: `${label}: ${idle.message}`, retryable: !ctx.emittedContent };
  const network = networkFailure(err);
  if (network) {
    const where = ctx.endpoint ? ` at ${ctx.endpoint}` : "";
    const permanent = PERMANENT_NETWORK.has(network.code);
    const message = permanent
      ? `Could not reach ${label}${where}: ${network.detail}${network.code === BAD_PORT ? "." : ". Is the server running and the base URL right?"}`
      : `The connection to ${label}${where} failed: ${network.detail}`;
    return { type: "error", message, retryable: !permanent && !ctx.emittedContent };
  }
  return { type: "error", message: `${label} failed: ${describe(err)}`, retryable: false };
}

/**
 * The event for an error the provider reported inside its stream (`response.failed`, an `error`
 * event, a chunk holding `error`): retryable when its code says the service was busy or broke.
 */
export function streamErrorEvent(
  error: { message: string; code?: string | null },
  ctx: ErrorContext,
): ProviderErrorEvent {
  const label = ctx.provider ?? "the provider";
  const code = error.code ? ` (${error.code})` : "";
  return {
    type: "error",
    message: `${label} reported an error mid-stream${code}: ${error.message}`,
    retryable: !!error.code && TRANSIENT_CODE.test(error.code) && !ctx.emittedContent,
  };
}

/** The event for a stream that stopped before the provider said it was complete. */
export function truncatedStreamEvent(ctx: ErrorContext): ProviderErrorEvent {
  const label = ctx.provider ?? "the provider";
  return {
    type: "error",
    message: `${label} closed the stream before the response was complete`,
    retryable: !ctx.emittedContent,
  };
}

/**
 * For a refused key (401, 403): which key it was, so the user knows what to fix. Empty for any
 * other status. Names the source only; the key itself never goes into a message.
 */
export function authHint(status: number, ctx: ErrorContext): string {
  if (status !== 401 && status !== 403) return "";
  const name = ctx.provider ?? "the provider";
  if (!ctx.keySource) return ` (no API key is configured for ${name}: set api_key_env in [providers.${name}])`;
  const access = status === 403 ? "; it may not have access to this model or project" : "";
  return ` (the key came from ${ctx.keySource}${access})`;
}

/** What each retryable status means, for the retry notice ("529 overloaded"). */
const STATUS_WORDS: Record<number, string> = {
  408: "request timeout",
  409: "conflict",
  429: "rate limited",
  500: "server error",
  502: "bad gateway",
  503: "unavailable",
  504: "gateway timeout",
  529: "overloaded",
};

/** A short reason for a retry notice: "529 overloaded", else the error's own message. */
export function retryReason(error: { status?: number; message: string }): string {
  if (error.status === undefined) return error.message;
  return `${error.status} ${STATUS_WORDS[error.status] ?? (error.status >= 500 ? "server error" : "error")}`;
}

/** 408, 409 (lock contention), 429 and every 5xx (529 "overloaded" included) may pass on retry. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * Milliseconds to wait from `retry-after-ms` (milliseconds, OpenAI) or `retry-after` (seconds or
 * an HTTP date). Accepts a fetch `Headers` or a plain record; undefined when neither is usable.
 */
export function parseRetryAfterMs(headers: unknown, now: number = Date.now()): number | undefined {
  const ms = Number.parseFloat(header(headers, "retry-after-ms") ?? "");
  if (Number.isFinite(ms) && ms >= 0) return Math.round(ms);
  const value = header(headers, "retry-after")?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number.parseFloat(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function header(headers: unknown, name: string): string | undefined {
  if (!headers || typeof headers !== "object") return undefined;
  const getter = (headers as { get?: unknown }).get;
  if (typeof getter === "function") return (getter.call(headers, name) as string | null) ?? undefined;
  const record = headers as Record<string, unknown>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? String(value[0]) : typeof value === "string" ? value : undefined;
}

/** The provider's own words: the error body's message, else the error's. */
function bodyMessage(err: unknown): string {
  const body = (err as { error?: unknown }).error;
  if (isRecord(body)) {
    const nested = isRecord(body.error) ? body.error : body; // some SDKs keep the whole body
    const message = stringOr(nested.message);
    if (message) return message;
  }
  if (typeof body === "string" && body) return body;
  return describe(err);
}

/** Finds a network error code along the `cause` chain (SDK error -> fetch TypeError -> socket error). */
function networkFailure(err: unknown): { code: string; detail: string } | undefined {
  let current: unknown = err;
  for (let depth = 0; depth < 6 && current && typeof current === "object"; depth++) {
    const code = stringOr((current as { code?: unknown }).code);
    if (code && (TRANSIENT_NETWORK.has(code) || PERMANENT_NETWORK.has(code))) {
      return { code, detail: `${describe(current)} (${code})` };
    }
    // fetch refuses the ports of the Fetch standard's block list (1, 9, 25, 6000...) itself, with
    // a bare "bad port" and no code: nothing was tried, and no retry will ever get through.
    if (describe(current) === "bad port") {
      return { code: BAD_PORT, detail: "fetch refuses this port (it is on the Fetch standard's list of blocked ports); use another port" };
    }
    current = (current as { cause?: unknown }).cause;
  }
  // undici ends a body cut off mid-read with a bare TypeError("terminated"); Stainless SDKs wrap
  // failures before any response as APIConnectionError / APIConnectionTimeoutError (the bundler
  // may rename the class to APIConnectionError2, so its name is read with the digits allowed).
  const named = err as { name?: unknown; constructor?: { name?: string } } | undefined;
  const names = [stringOr(named?.name), named?.constructor?.name].filter((n): n is string => !!n);
  if (describe(err) === "terminated" || names.some((n) => /^APIConnection(Timeout)?Error\d*$/.test(n))) {
    return { code: "ECONNRESET", detail: describeChain(err) };
  }
  return undefined;
}

function isAbortError(err: unknown): boolean {
  const name = (err as { name?: unknown; constructor?: { name?: string } })?.name;
  return name === "AbortError" || (err as { constructor?: { name?: string } })?.constructor?.name === "APIUserAbortError";
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : typeof err === "string" ? err : JSON.stringify(err);
}

/** `message (cause message)`, so "Connection error." says what actually went wrong. */
function describeChain(err: unknown): string {
  const cause = (err as { cause?: unknown })?.cause;
  const inner = cause instanceof Error ? describe((cause as { cause?: unknown }).cause ?? cause) : "";
  const outer = describe(err).replace(/\.$/, "");
  return inner && inner !== outer ? `${outer} (${inner})` : outer;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function stringOr(v: unknown): string | undefined {
  return typeof v === "string" && v ? v : undefined;
}
