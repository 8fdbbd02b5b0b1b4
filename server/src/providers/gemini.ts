/**
 * The Gemini adapter on `@google/genai`: one `streamGenerateContent` call per model turn, its
 * chunks translated into ProviderEvents. The SDK is imported on first use so that server start-up
 * never loads it.
 */
import { randomUUID } from "node:crypto";
import type { GenerateContentResponse, GoogleGenAI, HttpOptions } from "@google/genai";
import { toGeminiConfig, toGeminiContents, toProviderData } from "./gemini-convert.js";
import { GEMINI_COMPUTER, GEMINI_COMPUTER_FUNCTIONS } from "./native/gemini-computer.js";
import { errorContext, truncatedStreamEvent, type ErrorContext } from "./errors.js";
import { idleLimitedFetch } from "./idle-fetch.js";
import { pacedBodies } from "./paced-body.js";
import { largeStringsFetch } from "./large-events.js";
import { LargeStrings } from "./large-strings.js";
import { geminiErrorEvent } from "./gemini-errors.js";
import { memoizeAsync } from "../util/memo.js";
import type { Provider, ProviderEvent, ProviderRequest, ProviderSettings, ProviderStopReason } from "./provider.js";

type GenAiModule = typeof import("@google/genai");
const loadSdk = memoizeAsync((): Promise<GenAiModule> => import("@google/genai"));

/** Finish reasons that mean the model (or Google's filters) declined to answer. */
const REFUSALS = new Set([
  "SAFETY", "RECITATION", "PROHIBITED_CONTENT", "BLOCKLIST", "SPII", "IMAGE_SAFETY",
  "IMAGE_PROHIBITED_CONTENT", "LANGUAGE",
]);

/** Turns the chunks of one response into events; one instance per request. */
class ChunkTranslator {
  /** @param computer Gemini's computer use is offered: its predefined functions are native calls. */
  constructor(private readonly computer = false) {}

  /** Set once text, thinking or a call went out: from then on a retry would repeat them. */
  emittedContent = false;
  private thinking: { text: string; signature?: string } | undefined;
  private reportedUsage = "";
  private sawCall = false;
  private finishReason: string | undefined;
  private blockReason: string | undefined;

  *push(chunk: GenerateContentResponse): Generator<ProviderEvent> {
    if (chunk.promptFeedback?.blockReason) this.blockReason = chunk.promptFeedback.blockReason;
    const candidate = chunk.candidates?.[0];
    if (candidate?.finishReason) this.finishReason = candidate.finishReason;
    for (const part of candidate?.content?.parts ?? []) {
      if (part.thought) {
        this.thinking ??= { text: "" };
        if (part.text) {
          this.emittedContent = true;
          this.thinking.text += part.text;
          yield { type: "thinking_delta", text: part.text };
        }
        if (part.thoughtSignature) this.thinking.signature = part.thoughtSignature;
        continue;
      }
      yield* this.endThinking();
      if (part.functionCall) {
        yield* this.call(part.functionCall, part.thoughtSignature);
      } else if (typeof part.text === "string") {
        if (part.text) {
          this.emittedContent = true;
          yield { type: "text_delta", text: part.text };
        }
        // A signed answer part: kept as a thinking block so history can send the signature back.
        if (part.thoughtSignature) {
          yield { type: "thinking_end", text: "", providerData: toProviderData({ thoughtSignature: part.thoughtSignature, onText: true }) };
        }
      }
    }
    // Running totals, reported when they change: a cancelled turn still counts the prompt it sent.
    if (chunk.usageMetadata) yield* this.reportUsage(chunk.usageMetadata);
  }

  *finish(ctx: ErrorContext): Generator<ProviderEvent> {
    yield* this.endThinking();
    yield this.stopEvent(ctx);
  }

  private *reportUsage(usage: NonNullable<GenerateContentResponse["usageMetadata"]>): Generator<ProviderEvent> {
    const cached = usage.cachedContentTokenCount ?? 0;
    const event: ProviderEvent = {
      type: "usage",
      usage: {
        // Gemini counts cached tokens inside the prompt; ours are the uncached rest.
        inputTokens: (usage.promptTokenCount ?? 0) + (usage.toolUsePromptTokenCount ?? 0) - cached,
        outputTokens: (usage.candidatesTokenCount ?? 0) + (usage.thoughtsTokenCount ?? 0),
        cacheReadTokens: cached,
        cacheWriteTokens: 0,
      },
    };
    const key = JSON.stringify(event.usage);
    if (key !== this.reportedUsage) yield event;
    this.reportedUsage = key;
  }

  private *endThinking(): Generator<ProviderEvent> {
    if (!this.thinking) return;
    const { text, signature } = this.thinking;
    this.thinking = undefined;
    yield { type: "thinking_end", text, providerData: toProviderData(signature ? { thoughtSignature: signature } : {}) };
  }

  private *call(call: { id?: string; name?: string; args?: Record<string, unknown> }, signature?: string): Generator<ProviderEvent> {
    this.sawCall = true;
    this.emittedContent = true;
    const id = call.id ?? `gemini_${randomUUID()}`;
    const name = call.name ?? "";
    yield { type: "tool_call_start", id, name };
    const data = { ...(call.id && { callId: call.id }), ...(signature && { thoughtSignature: signature }) };
    const native = this.computer && GEMINI_COMPUTER_FUNCTIONS.has(name) ? { native: { name, input: call.args ?? {}, kind: GEMINI_COMPUTER.kind } } : {};
    yield {
      type: "tool_call_end",
      id,
      name,
      input: call.args ?? {},
      ...native,
      ...(Object.keys(data).length > 0 && { providerData: toProviderData(data) }),
    };
  }

  private stopEvent(ctx: ErrorContext): ProviderEvent {
    const reason = this.finishReason;
    if (reason === undefined) {
      if (this.blockReason) return { type: "stop", reason: "refusal", message: `Gemini blocked the prompt (${this.blockReason})` };
      return truncatedStreamEvent({ ...ctx, emittedContent: this.emittedContent });
    }
    const stop = (r: ProviderStopReason, message?: string): ProviderEvent => ({ type: "stop", reason: r, ...(message && { message }) });
    if (reason === "STOP") return stop(this.sawCall ? "tool_use" : "end_turn");
    if (reason === "MAX_TOKENS") return stop("max_tokens");
    if (REFUSALS.has(reason)) return stop("refusal", `Gemini stopped the response (${reason})`);
    // A malformed call is the model tripping over its own output; asking again usually works.
    return {
      type: "error",
      message: `Gemini stopped the response (${reason})`,
      retryable: reason === "MALFORMED_FUNCTION_CALL" && !this.emittedContent,
    };
  }
}

/** Strips a trailing API version off a configured base URL: the SDK appends its own. */
function splitBaseUrl(baseUrl: string | undefined): { baseUrl?: string; apiVersion?: string } {
  if (!baseUrl) return {};
  const match = /^(.*?)\/(v1(?:alpha|beta)?\d*)\/?$/.exec(baseUrl);
  return match ? { baseUrl: match[1], apiVersion: match[2] } : { baseUrl };
}

function extraHeaders(options: Record<string, unknown>): Record<string, string> | undefined {
  const headers = options.headers;
  if (typeof headers !== "object" || headers === null) return undefined;
  return Object.fromEntries(Object.entries(headers).filter((e): e is [string, string] => typeof e[1] === "string"));
}

/**
 * A fetch that remembers the response headers (the SDK's ApiError drops them, and `retry-after`
 * lives there) and keeps the SDK's own behaviour of no undici header/body timeouts: a thinking
 * model can be silent for minutes. The SDK only adds that dispatcher when it owns fetch.
 */
function recordingFetch(seen: { headers?: Headers }, idleMs: number | undefined): typeof fetch {
  const limited = pacedBodies(idleLimitedFetch(idleMs));
  const key = Symbol.for("undici.globalDispatcher.1");
  return async (input, init) => {
    const global = (globalThis as Record<symbol, { dispatch?: (opts: object, handler: unknown) => boolean }>)[key];
    const dispatcher = global?.dispatch
      ? { dispatch: (opts: object, handler: unknown) => global.dispatch!({ ...opts, headersTimeout: 0, bodyTimeout: 0 }, handler) }
      : undefined;
    const response = await limited(input, { ...init, ...(dispatcher && { dispatcher }) } as RequestInit);
    seen.headers = response.headers;
    return response;
  };
}

/** A Gemini client for `settings` (also used by the image generator). */
export function createClient(genai: GenAiModule, settings: ProviderSettings): GoogleGenAI {
  const { baseUrl, apiVersion } = splitBaseUrl(settings.baseUrl);
  return new genai.GoogleGenAI({
    apiKey: settings.apiKey,
    // Explicit, so GOOGLE_GENAI_USE_VERTEXAI in the environment cannot reroute us.
    vertexai: false,
    ...(apiVersion && { apiVersion }),
    // No retryOptions: the SDK then makes exactly one attempt; the agent loop owns retries.
    httpOptions: { ...(baseUrl && { baseUrl }), headers: extraHeaders(settings.options) },
  });
}

/**
 * Creates the Gemini provider. `settings.apiKey` is required (the config layer resolves
 * `GEMINI_API_KEY` / `GOOGLE_API_KEY`); `settings.baseUrl` points it elsewhere (proxies, tests);
 * `settings.options.headers` adds HTTP headers.
 */
export function createGeminiProvider(settings: ProviderSettings): Provider {
  let client: GoogleGenAI | undefined;

  async function* stream(request: ProviderRequest, signal: AbortSignal): AsyncGenerator<ProviderEvent> {
    // A missing key never gets here: the registry refuses to create the provider without one.
    if (signal.aborted) return;
    const seen: { headers?: Headers } = {};
    const translator = new ChunkTranslator((request.nativeTools ?? []).some((t) => t.kind === GEMINI_COMPUTER.kind));
    const base = errorContext(settings, settings.baseUrl ?? "https://generativelanguage.googleapis.com", signal);
    const context = (): ErrorContext => ({ ...base, emittedContent: translator.emittedContent });
    try {
      const genai = await loadSdk();
      client ??= createClient(genai, settings);
      // Megabyte strings (a large tool input, sent back or streamed) go past the SDK as
      // placeholders: it would serialise and parse them whole, holding every other request.
      const large = new LargeStrings();
      const httpOptions: HttpOptions = { fetch: largeStringsFetch(recordingFetch(seen, settings.streamIdleTimeoutMs), large) };
      const chunks = await client.models.generateContentStream({
        model: request.model,
        contents: large.hide(toGeminiContents(request.messages)),
        config: {
          ...toGeminiConfig(request),
          abortSignal: signal,
          httpOptions,
          // Otherwise the SDK silently re-sends the request when a stream drops early.
          automaticContinuation: false,
        },
      });
      for await (const chunk of chunks) yield* translator.push(large.show(chunk));
      if (signal.aborted) return;
      yield* translator.finish(context());
    } catch (error) {
      // Undefined for our own abort: the loop cancelled on purpose and already knows.
      const event = geminiErrorEvent(error, context(), seen.headers);
      if (event) yield event;
    }
  }

  return { name: settings.name, type: "gemini", stream };
}
