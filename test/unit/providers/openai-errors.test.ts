import { APIConnectionError, APIError, APIUserAbortError, InternalServerError, RateLimitError } from "openai";
import { describe, expect, it } from "vitest";
import { isRetryableStatus, parseRetryAfterMs, providerErrorEvent, streamErrorEvent } from "../../../server/src/providers/errors.js";

const ctx = { emittedContent: false, provider: "openai", endpoint: "https://api.example/v1" };

describe("parseRetryAfterMs", () => {
  const now = Date.parse("2025-01-01T00:00:00Z");
  it.each([
    { headers: new Headers({ "retry-after-ms": "1500.4" }), want: 1500 },
    { headers: new Headers({ "retry-after-ms": "250", "retry-after": "9" }), want: 250 },
    { headers: new Headers({ "retry-after": "7" }), want: 7000 },
    { headers: new Headers({ "retry-after": "0.5" }), want: 500 },
    { headers: new Headers({ "retry-after": "Wed, 01 Jan 2025 00:00:30 GMT" }), want: 30_000 },
    { headers: new Headers({ "retry-after": "Tue, 31 Dec 2024 23:00:00 GMT" }), want: 0 },
    { headers: { "Retry-After": "3" }, want: 3000 },
    { headers: { "retry-after": ["4"] }, want: 4000 },
    { headers: new Headers({ "retry-after": "soon" }), want: undefined },
    { headers: new Headers(), want: undefined },
    { headers: undefined, want: undefined },
  ])("$headers -> $want", ({ headers, want }) => {
    expect(parseRetryAfterMs(headers, now)).toBe(want);
  });
});

describe("isRetryableStatus", () => {
  it.each([
    [408, true],
    [409, true],
    [429, true],
    [500, true],
    [503, true],
    [529, true],
    [400, false],
    [401, false],
    [404, false],
    [422, false],
  ])("%i -> %s", (status, want) => {
    expect(isRetryableStatus(status)).toBe(want);
  });
});

describe("providerErrorEvent", () => {
  it("returns nothing for our own abort", () => {
    const controller = new AbortController();
    controller.abort();
    expect(providerErrorEvent(new Error("whatever"), { ...ctx, signal: controller.signal })).toBeUndefined();
    expect(providerErrorEvent(new APIUserAbortError(), ctx)).toBeUndefined();
    expect(providerErrorEvent(Object.assign(new Error("aborted"), { name: "AbortError" }), ctx)).toBeUndefined();
  });

  it("keeps the provider's message, status and wait for an HTTP error", () => {
    const body = { message: "Rate limit reached for requests", type: "requests", code: "rate_limit_exceeded" };
    const err = new RateLimitError(429, body, undefined, new Headers({ "retry-after-ms": "1200" }));
    expect(providerErrorEvent(err, ctx)).toEqual({
      type: "error",
      status: 429,
      retryable: true,
      retryAfterMs: 1200,
      message: "openai answered HTTP 429: Rate limit reached for requests",
    });
  });

  it("does not retry once content went out, nor a client error", () => {
    const busy = new InternalServerError(503, { message: "busy" }, undefined, new Headers());
    expect(providerErrorEvent(busy, { ...ctx, emittedContent: true })).toMatchObject({ retryable: false, status: 503 });
    const bad = new APIError(400, { message: "bad request" }, undefined, new Headers());
    expect(providerErrorEvent(bad, ctx)).toMatchObject({ retryable: false, status: 400 });
  });

  it("reads an error body that arrived inside the stream (no status)", () => {
    const err = new APIError(undefined, { message: "The server is overloaded", type: "overloaded_error" }, undefined, undefined);
    expect(providerErrorEvent(err, ctx)).toEqual({
      type: "error",
      retryable: true,
      message: "openai reported an error mid-stream (overloaded_error): The server is overloaded",
    });
  });

  it("retries a reset connection but not a refused one, naming the endpoint", () => {
    const socket = Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" });
    const reset = providerErrorEvent(new TypeError("terminated", { cause: socket }), ctx);
    expect(reset).toMatchObject({ retryable: true, message: expect.stringContaining("https://api.example/v1") });

    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:11434"), { code: "ECONNREFUSED" });
    const wrapped = new APIConnectionError({ cause: new TypeError("fetch failed", { cause: refused }) });
    const event = providerErrorEvent(wrapped, ctx);
    expect(event).toMatchObject({ retryable: false });
    expect(event?.message).toContain("ECONNREFUSED");
    expect(event?.message).toContain("Is the server running");
  });

  it("treats an SDK connection error without a code as a transient failure", () => {
    expect(providerErrorEvent(new APIConnectionError({ message: "Connection error." }), ctx)).toMatchObject({ retryable: true });
  });

  it("names the endpoint of a connection error whose class the bundler renamed (Anthropic's in our bundle)", () => {
    class APIConnectionError2 extends Error {}
    const renamed = new APIConnectionError2("Connection error.", { cause: new TypeError("fetch failed", { cause: new Error("other side closed") }) });
    expect(providerErrorEvent(renamed, ctx)).toMatchObject({ retryable: true, message: expect.stringContaining("at https://api.example/v1") });
  });

  it("says a blocked port (fetch's 'bad port') once, without retrying it", () => {
    const blocked = new APIConnectionError({ cause: new TypeError("fetch failed", { cause: new Error("bad port") }) });
    const event = providerErrorEvent(blocked, ctx);
    expect(event).toMatchObject({ retryable: false });
    expect(event?.message).toBe("Could not reach openai at https://api.example/v1: fetch refuses this port (it is on the Fetch standard's list of blocked ports); use another port.");
  });

  it("does not retry an unknown error", () => {
    expect(providerErrorEvent(new Error("JSON parse failed"), ctx)).toEqual({
      type: "error",
      retryable: false,
      message: "openai failed: JSON parse failed",
    });
  });
});

describe("streamErrorEvent", () => {
  it.each([
    { code: "server_error", emitted: false, retryable: true },
    { code: "rate_limit_exceeded", emitted: false, retryable: true },
    { code: "server_error", emitted: true, retryable: false },
    { code: "context_length_exceeded", emitted: false, retryable: false },
    { code: null, emitted: false, retryable: false },
  ])("code $code, content emitted $emitted -> retryable $retryable", ({ code, emitted, retryable }) => {
    const event = streamErrorEvent({ message: "boom", code }, { ...ctx, emittedContent: emitted });
    expect(event).toMatchObject({ type: "error", retryable, message: expect.stringContaining("boom") });
  });
});
