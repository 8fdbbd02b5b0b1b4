/**
 * How the Gemini adapter fails: HTTP errors, errors inside the stream, cut connections, aborts,
 * a missing key, through the real `@google/genai` SDK against the fake provider.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { ApiError } from "@google/genai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mergeLayers } from "../../../server/src/config/load.js";
import { geminiErrorEvent } from "../../../server/src/providers/gemini-errors.js";
import { createGeminiProvider } from "../../../server/src/providers/gemini.js";
import type { ProviderEvent, ProviderSettings } from "../../../server/src/providers/provider.js";
import { createProvider, providerSettings } from "../../../server/src/providers/registry.js";
import { startFakeProvider, type FakeProvider } from "../../helpers/fake-provider/index.js";
import { PROMPTLY_MS } from "../../helpers/wait.js";

let fake: FakeProvider;
beforeEach(async () => {
  fake = await startFakeProvider();
});
afterEach(async () => {
  await fake.close();
});

const REQUEST = {
  model: "gemini-2.5-flash",
  system: "",
  messages: [{ role: "user" as const, content: [{ type: "text" as const, text: "hi" }] }],
  tools: [],
  maxTokens: 256,
};

function provider(overrides: Partial<ProviderSettings> = {}) {
  return createGeminiProvider({ name: "gemini", type: "gemini", apiKey: "test-key", baseUrl: fake.url, options: {}, ...overrides });
}

async function collect(signal = new AbortController().signal, overrides: Partial<ProviderSettings> = {}): Promise<ProviderEvent[]> {
  const events: ProviderEvent[] = [];
  for await (const event of provider(overrides).stream(REQUEST, signal)) events.push(event);
  return events;
}

/**
 * Serves one raw SSE body and closes: for responses no scripted FakeTurn produces (a clean end with
 * no finish reason, a blocked prompt).
 */
async function rawServer(events: unknown[]): Promise<{ url: string; paths: string[]; close: () => Promise<void> }> {
  const paths: string[] = [];
  const server = createServer((req, res) => {
    paths.push(req.url ?? "");
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.end(events.map((e) => `data: ${JSON.stringify(e)}\r\n\r\n`).join(""));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, paths, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe("gemini provider errors", () => {
  it("turns a 429 into one retryable error with retry-after, and the SDK does not retry by itself", async () => {
    fake.enqueue({ error: { status: 429, message: "Resource has been exhausted (e.g. check quota).", retryAfterSeconds: 3 } });
    const events = await collect();
    expect(events).toEqual([{
      type: "error",
      message: "gemini answered HTTP 429: RESOURCE_EXHAUSTED: Resource has been exhausted (e.g. check quota).",
      status: 429,
      retryable: true,
      retryAfterMs: 3000,
    }]);
    expect(fake.requests).toHaveLength(1);
    expect(fake.violations).toEqual([]);
  });

  it("reads the wait from Google's RetryInfo detail when no retry-after header came", () => {
    const body = {
      error: {
        code: 429, message: "Quota exceeded", status: "RESOURCE_EXHAUSTED",
        details: [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "41.5s" }],
      },
    };
    const event = geminiErrorEvent(new ApiError({ message: JSON.stringify(body), status: 429 }), { emittedContent: false, provider: "gemini" });
    expect(event).toMatchObject({ status: 429, retryable: true, retryAfterMs: 41_500 });
  });

  it("does not retry a 400, and says what Google said", async () => {
    fake.enqueue({ error: { status: 400, message: "API key not valid. Please pass a valid API key." } });
    const [event] = await collect();
    expect(event).toMatchObject({ type: "error", status: 400, retryable: false });
    expect((event as { message: string }).message).toContain("INVALID_ARGUMENT: API key not valid");
  });

  it("marks a 503 retryable", async () => {
    fake.enqueue({ error: { status: 503, message: "The model is overloaded. Please try again later." } });
    expect(await collect()).toEqual([expect.objectContaining({ type: "error", status: 503, retryable: true })]);
  });

  it("ends with an error event after the partial output when the stream reports an error", async () => {
    fake.enqueue({ text: "A partial answer that goes on", streamError: { message: "The model is overloaded.", type: "UNAVAILABLE" } });
    const events = await collect();
    const text = events.filter((e) => e.type === "text_delta").map((e) => e.text).join("");
    expect(text.length).toBeGreaterThan(0);
    expect("A partial answer that goes on".startsWith(text)).toBe(true);
    expect(events.some((e) => e.type === "stop")).toBe(false);
    // Retrying would repeat the text already shown, so it is not retryable once output went out.
    expect(events.at(-1)).toEqual({
      type: "error",
      message: "gemini reported an error mid-stream: UNAVAILABLE: The model is overloaded.",
      status: 503,
      retryable: false,
    });
    expect(fake.violations).toEqual([]);
  });

  it("reports a connection cut before any output as a retryable error", async () => {
    fake.enqueue({ text: "never finishes", cutAfterEvents: 0 });
    const events = await collect();
    expect(events).toEqual([expect.objectContaining({ type: "error", retryable: true })]);
    expect(fake.violations).toEqual([]);
  });

  it("reports a stream cut after output, without a finish reason, as an error", async () => {
    fake.enqueue({ text: "never finishes properly", cutAfterEvents: 1 });
    const events = await collect();
    expect(events[0]).toEqual({ type: "text_delta", text: "never fi" });
    expect(events.at(-1)).toMatchObject({ type: "error", retryable: false });
    expect(events.some((e) => e.type === "stop")).toBe(false);
  });

  it("ends promptly and silently when aborted during a hanging stream", async () => {
    fake.enqueue({ text: "first chunk then silence", hang: true });
    const controller = new AbortController();
    const events: ProviderEvent[] = [];
    let abortedAt = 0;
    for await (const event of provider().stream(REQUEST, controller.signal)) {
      events.push(event);
      if (event.type === "text_delta" && !abortedAt) {
        abortedAt = Date.now();
        controller.abort();
      }
    }
    expect(Date.now() - abortedAt).toBeLessThan(PROMPTLY_MS);
    // No error; the prompt's running token count came with the chunk and still counts.
    expect(events.filter((e) => e.type !== "usage")).toEqual([{ type: "text_delta", text: "first ch" }]);
    expect(fake.violations).toEqual([]);
  });

  it("says which key is missing instead of calling the API without one", async () => {
    const config = mergeLayers([{ providers: { gemini: { base_url: fake.url } } }]);
    const settings = providerSettings("gemini", config, {});
    await expect(createProvider(settings)).rejects.toThrow("set GEMINI_API_KEY or GOOGLE_API_KEY, or [providers.gemini] api_key_env");
    expect(fake.requests).toHaveLength(0);
  });

  it("reports a stream that closes cleanly without a finish reason as an error", async () => {
    const raw = await rawServer([{ candidates: [{ content: { role: "model", parts: [{ text: "Half" }] }, index: 0 }], modelVersion: "gemini-2.5-flash" }]);
    try {
      const events = await collect(undefined, { baseUrl: raw.url });
      expect(events[0]).toEqual({ type: "text_delta", text: "Half" });
      expect(events.at(-1)).toMatchObject({ type: "error", retryable: false });
      expect(events.some((e) => e.type === "stop")).toBe(false);
    } finally {
      await raw.close();
    }
  });

  it("treats a blocked prompt (promptFeedback, no candidates) as a refusal", async () => {
    const raw = await rawServer([{ promptFeedback: { blockReason: "PROHIBITED_CONTENT" }, usageMetadata: { promptTokenCount: 9, totalTokenCount: 9 } }]);
    try {
      // A base URL that already names the API version is not doubled up.
      const events = await collect(undefined, { baseUrl: `${raw.url}/v1beta/` });
      expect(raw.paths).toEqual(["/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse"]);
      expect(events).toEqual([
        { type: "usage", usage: { inputTokens: 9, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 } },
        { type: "stop", reason: "refusal", message: "Gemini blocked the prompt (PROHIBITED_CONTENT)" },
      ]);
    } finally {
      await raw.close();
    }
  });
});
