/**
 * The Anthropic Messages adapter on `@anthropic-ai/sdk`. The SDK is imported on the first call to
 * `stream`, never at server start-up. The SDK's own retries are off: the agent loop retries, with
 * the `retryable`/`retryAfterMs` this adapter reports.
 */
import { Console } from "node:console";
import type Anthropic from "@anthropic-ai/sdk";
import { COMPACTION_BETA, toAnthropicRequest, type RedactedThinkingData } from "./anthropic-convert.js";
import { authHint, errorContext, providerErrorEvent, type ErrorContext } from "./errors.js";
import { findStreamIdleError, idleLimitedFetch } from "./idle-fetch.js";
import { pacedBodies } from "./paced-body.js";
import { eventStreamsThrough, pacedChunks } from "./whole-lines-fetch.js";
import { memoizeAsync } from "../util/memo.js";
import type { Usage } from "../vocabulary/messages.js";
import { anthropicNativeToolByKind, anthropicNativeToolByName } from "./native/anthropic.js";
import { ANTHROPIC_COMPUTER } from "./native/anthropic-computer.js";
import type { Provider, ProviderEvent, ProviderRequest, ProviderSettings, ProviderStopReason } from "./provider.js";
import { IncrementalJson } from "../util/incremental-json.js";
import { largeJsonBody } from "./large-body.js";

type Sdk = typeof import("@anthropic-ai/sdk");
/** Loads the SDK once per process. */
const loadSdk = memoizeAsync((): Promise<Sdk> => import("@anthropic-ai/sdk"));

const DEFAULT_BASE_URL = "https://api.anthropic.com";

/**
 * Creates the Anthropic provider. `settings.apiKey`/`baseUrl` fall back to the SDK's own
 * environment (`ANTHROPIC_API_KEY`, `ANTHROPIC_BASE_URL`). Options: `headers` (extra request
 * headers), `promptCaching` (default true), `timeoutMs`.
 */
export function createAnthropicProvider(settings: ProviderSettings): Provider {
  let client: Anthropic | undefined;
  const getClient = async (): Promise<Anthropic> => {
    if (client) return client;
    const { default: AnthropicClient } = await loadSdk();
    const timeout = settings.options.timeoutMs;
    client = new AnthropicClient({
      ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
      ...(settings.baseUrl ? { baseURL: settings.baseUrl } : {}),
      maxRetries: 0,
      ...(typeof timeout === "number" ? { timeout } : {}),
      // Both ways paced: a 50 MB tool input streamed in or sent back holds no other request long.
      fetch: eventStreamsThrough(pacedBodies(idleLimitedFetch(settings.streamIdleTimeoutMs)), pacedChunks),
      defaultHeaders: stringRecord(settings.options.headers),
      // stdout carries the LSP protocol only; the SDK's default logger writes info lines there.
      logger: new Console({ stdout: process.stderr, stderr: process.stderr }),
    });
    return client;
  };
  const promptCaching = settings.options.promptCaching !== false;

  return {
    name: settings.name,
    type: settings.type,
    stream(request: ProviderRequest, signal: AbortSignal): AsyncIterable<ProviderEvent> {
      const ctx = errorContext(settings, settings.baseUrl ?? DEFAULT_BASE_URL, signal);
      return streamMessages(getClient, request, ctx, promptCaching);
    },
  };
}

async function* streamMessages(
  getClient: () => Promise<Anthropic>,
  request: ProviderRequest,
  ctx: ErrorContext,
  promptCaching: boolean,
): AsyncGenerator<ProviderEvent> {
  const signal = ctx.signal!;
  // Our own controller also stops the HTTP stream when the consumer stops iterating early.
  const controller = new AbortController();
  const onAbort = (): void => controller.abort();
  signal.addEventListener("abort", onAbort, { once: true });
  const offeredNatives = (request.nativeTools ?? []).flatMap((t) => anthropicNativeToolByKind(t.kind) ?? []);
  const computer = (request.nativeTools ?? []).some((t) => t.kind === ANTHROPIC_COMPUTER.kind);
  const mapper = new StreamMapper(new Set(offeredNatives.map((t) => t.name)), computer);
  try {
    if (signal.aborted) return;
    const client = await getClient();
    const sdk = await loadSdk();
    const params = toAnthropicRequest(request, { promptCaching });
    try {
      // A huge history (a large tool input sent back) is encoded here without holding the loop.
      const body = await largeJsonBody(params);
      const headers = { ...(request.compactAt ? { "anthropic-beta": COMPACTION_BETA } : {}), ...(body ? { "content-type": "application/json" } : {}) };
      const events = await client.messages.create(params, { signal: controller.signal, ...(Object.keys(headers).length ? { headers } : {}), ...(body ? { body } : {}) });
      for await (const event of events) {
        yield* mapper.map(event);
        if (mapper.finished) return;
      }
    } catch (error) {
      const event = toErrorEvent(error, sdk, { ...ctx, emittedContent: mapper.emittedContent });
      if (event) yield event;
      return;
    }
    // The SDK ends its iteration quietly when the request is aborted.
    if (signal.aborted) return;
    yield {
      type: "error",
      message: "Anthropic: the stream closed before the response finished",
      retryable: !mapper.emittedContent,
    };
  } catch (error) {
    if (signal.aborted) return;
    yield { type: "error", message: `Anthropic: could not start the request: ${describe(error)}`, retryable: false };
  } finally {
    signal.removeEventListener("abort", onAbort);
    controller.abort();
  }
}

interface OpenBlock {
  kind: "text" | "thinking" | "redacted_thinking" | "tool_use" | "compaction" | "other";
  text: string;
  signature: string;
  id: string;
  name: string;
  /** A tool_use block's input, parsed as its deltas come (a 50 MB input is never parsed in one go). */
  json: IncrementalJson;
  initialInput: unknown;
  /** `toolset_name` of a tool_use block (a member of a native toolset). */
  toolset?: string;
}

/**
 * Turns the API's raw stream events into ProviderEvents.
 *
 * A tool input that is not valid JSON (which the API only sends when output was cut off) becomes
 * `{}`: the call still reaches the loop, our tool's input validation answers the model with what
 * is missing, and the model can try again; the turn is not ended by an error.
 */
class StreamMapper {
  private readonly blocks = new Map<number, OpenBlock>();
  private readonly usage: Usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
  private stopReason: Anthropic.StopReason | null = null;
  private refusalExplanation: string | undefined;
  /** True once anything the user could see (text, thinking, a tool call) was streamed. */
  emittedContent = false;
  /** True after `message_stop`. */
  finished = false;

  constructor(
    private readonly nativeNames: ReadonlySet<string>,
    /** The computer toolset is offered: calls with `toolset_name: "computer"` are its members. */
    private readonly computerToolset = false,
  ) {}

  *map(event: Anthropic.RawMessageStreamEvent): Generator<ProviderEvent> {
    switch (event.type) {
      case "message_start":
        // Input tokens are billed from here on: reported now, a cancelled turn still counts them.
        this.addUsage(event.message.usage);
        yield { type: "usage", usage: { ...this.usage } };
        break;
      case "content_block_start":
        yield* this.start(event.index, event.content_block);
        break;
      case "content_block_delta":
        yield* this.delta(event.index, event.delta);
        break;
      case "content_block_stop":
        yield* this.stop(event.index);
        break;
      case "message_delta":
        this.stopReason = event.delta.stop_reason ?? this.stopReason;
        this.refusalExplanation = event.delta.stop_details?.explanation ?? undefined;
        this.addUsage(event.usage);
        yield { type: "usage", usage: { ...this.usage } };
        break;
      case "message_stop":
        this.finished = true;
        yield this.stopEvent();
        break;
    }
  }

  private *start(index: number, block: Anthropic.RawContentBlockStartEvent["content_block"]): Generator<ProviderEvent> {
    const open: OpenBlock = { kind: "other", text: "", signature: "", id: "", name: "", json: new IncrementalJson(), initialInput: undefined };
    this.blocks.set(index, open);
    switch (block.type) {
      case "text":
        open.kind = "text";
        if (block.text) yield* this.text(block.text);
        break;
      case "thinking":
        open.kind = "thinking";
        open.text = block.thinking;
        open.signature = block.signature;
        if (block.thinking) yield this.content({ type: "thinking_delta", text: block.thinking });
        break;
      case "redacted_thinking":
        open.kind = "redacted_thinking";
        open.text = block.data;
        break;
      case "tool_use":
        Object.assign(open, {
          kind: "tool_use",
          id: block.id,
          name: block.name,
          initialInput: block.input,
          toolset: (block as { toolset_name?: string | null }).toolset_name ?? undefined,
        });
        yield this.content({ type: "tool_call_start", id: block.id, name: block.name });
        break;
      // Server tools (web search, code execution) are never offered, so their blocks are ignored.
    }
    // Server-side compaction's block (asked for with compactAt; not in the SDK's GA types).
    const raw = block as { type: string; content?: string | null };
    if (raw.type === "compaction") {
      open.kind = "compaction";
      open.text = raw.content ?? "";
    }
  }

  private *delta(index: number, delta: Anthropic.RawContentBlockDelta): Generator<ProviderEvent> {
    const open = this.blocks.get(index);
    if (!open) return;
    switch (delta.type) {
      case "text_delta":
        yield* this.text(delta.text);
        break;
      case "thinking_delta":
        open.text += delta.thinking;
        yield this.content({ type: "thinking_delta", text: delta.thinking });
        break;
      case "signature_delta":
        open.signature += delta.signature;
        break;
      case "input_json_delta":
        open.json.push(delta.partial_json);
        if (delta.partial_json) yield { type: "tool_call_delta", id: open.id, partialJson: delta.partial_json };
        break;
    }
    const raw = delta as { type: string; content?: string | null };
    if (raw.type === "compaction_delta" && open.kind === "compaction") open.text += raw.content ?? "";
  }

  private *stop(index: number): Generator<ProviderEvent> {
    const open = this.blocks.get(index);
    this.blocks.delete(index);
    if (!open) return;
    // A compaction whose summary failed (no content) is a no-op, as the API documents.
    if (open.kind === "compaction" && open.text.trim()) yield { type: "compaction", summary: open.text };
    if (open.kind === "thinking") {
      yield { type: "thinking_end", text: open.text, ...(open.signature ? { signature: open.signature } : {}) };
    } else if (open.kind === "redacted_thinking") {
      const providerData: RedactedThinkingData = { type: "redacted_thinking", data: open.text };
      yield this.content({ type: "thinking_end", text: "", providerData });
    } else if (open.kind === "tool_use") {
      const input = parseToolInput(open.json, open.initialInput);
      const member = this.computerToolset && open.toolset === ANTHROPIC_COMPUTER.name;
      const native = member ? ANTHROPIC_COMPUTER : this.nativeNames.has(open.name) ? anthropicNativeToolByName(open.name) : undefined;
      yield {
        type: "tool_call_end",
        id: open.id,
        name: open.name,
        input,
        ...(native ? { native: { name: open.name, input, kind: native.kind } } : {}),
      };
    }
  }

  private *text(text: string): Generator<ProviderEvent> {
    yield this.content({ type: "text_delta", text });
  }

  private content(event: ProviderEvent): ProviderEvent {
    this.emittedContent = true;
    return event;
  }

  private addUsage(usage: Partial<Anthropic.MessageDeltaUsage> | Anthropic.Usage): void {
    // Counts are cumulative; message_delta repeats (or, in older API versions, omits) the input ones.
    if (usage.input_tokens != null) this.usage.inputTokens = usage.input_tokens;
    if (usage.output_tokens != null) this.usage.outputTokens = usage.output_tokens;
    if (usage.cache_read_input_tokens != null) this.usage.cacheReadTokens = usage.cache_read_input_tokens;
    if (usage.cache_creation_input_tokens != null) this.usage.cacheWriteTokens = usage.cache_creation_input_tokens;
  }

  private stopEvent(): ProviderEvent {
    const [reason, message] = mapStopReason(this.stopReason, this.refusalExplanation);
    return { type: "stop", reason, ...(message ? { message } : {}) };
  }
}

function mapStopReason(reason: Anthropic.StopReason | null, explanation?: string): [ProviderStopReason, string?] {
  switch (reason) {
    case "tool_use":
      return ["tool_use"];
    case "max_tokens":
      return ["max_tokens"];
    case "model_context_window_exceeded":
      return ["max_tokens", "the conversation filled the model's context window"];
    case "refusal":
      return ["refusal", explanation ?? "the model declined to continue"];
    // pause_turn only happens around server tools, which are never offered; the answer so far
    // stands as a finished turn.
    default:
      return ["end_turn"];
  }
}

function parseToolInput(json: IncrementalJson, initial: unknown): unknown {
  if (!json.sawText) return initial ?? {};
  try {
    return json.end();
  } catch {
    return {};
  }
}

/** Error types the API uses for passing trouble, in HTTP responses and mid-stream `error` events. */
const TRANSIENT_ERROR_TYPES = new Set(["overloaded_error", "rate_limit_error", "api_error", "timeout_error"]);

/**
 * Maps anything the SDK threw to an error event (undefined for our own abort); content already
 * emitted makes a retry unsafe.
 */
function toErrorEvent(error: unknown, sdk: Sdk, ctx: ErrorContext): ProviderEvent | undefined {
  if (ctx.signal?.aborted) return undefined;
  if (error instanceof sdk.APIError && error.status !== undefined) {
    const status = error.status;
    const detail = error.apiMessage ?? error.message;
    const type = error.type ? ` (${error.type})` : "";
    const retryAfterMs = retryAfter(error.headers);
    return {
      type: "error",
      message: `Anthropic API error ${status}${type}: ${detail}${authHint(status, ctx)}`,
      retryable: status === 408 || status === 409 || status === 429 || status >= 500,
      status,
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    };
  }
  if (error instanceof sdk.APIError && !(error instanceof sdk.APIConnectionError)) {
    // An `event: error` inside a stream that had started: no status, the type says what went wrong.
    const type = error.type ?? "error";
    return {
      type: "error",
      message: `Anthropic stream error (${type}): ${error.apiMessage ?? error.message}`,
      retryable: TRANSIENT_ERROR_TYPES.has(type) && !ctx.emittedContent,
    };
  }
  // A body that broke off after the user saw part of the answer (undici's "terminated").
  if (ctx.emittedContent && !findStreamIdleError(error)) {
    return { type: "error", message: `Anthropic: the stream closed before the response finished (${describe(error)})`, retryable: false };
  }
  // Connection failures (naming the base URL), silent streams, and anything unforeseen.
  return providerErrorEvent(error, ctx);
}

function retryAfter(headers: Headers | undefined): number | undefined {
  const ms = Number.parseFloat(headers?.get("retry-after-ms") ?? "");
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers?.get("retry-after");
  if (!value) return undefined;
  const seconds = Number.parseFloat(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function stringRecord(value: unknown): Record<string, string> | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const entries = Object.entries(value).filter((e): e is [string, string] => typeof e[1] === "string");
  return Object.fromEntries(entries);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
