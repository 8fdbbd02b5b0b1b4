/**
 * The OpenAI Responses API adapter (`type = "openai"`): streaming text, reasoning summaries,
 * function tools, the native `apply_patch` tool, usage and stop reasons, on the `openai` SDK.
 */
import { COMPUTER_CALL, OPENAI_COMPUTER } from "./native/openai-computer.js";
import type { ResponseOutputItem, ResponseStreamEvent, ResponseUsage } from "openai/resources/responses/responses";
import { errorContext, providerErrorEvent, streamErrorEvent, truncatedStreamEvent, type ErrorContext } from "./errors.js";
import { IncrementalJson } from "../util/incremental-json.js";
import { largeJsonBody } from "./large-body.js";
import { largeStringsFetch } from "./large-events.js";
import { LargeStrings } from "./large-strings.js";
import { disjointUsage, openAIClientThrough, parseArguments } from "./openai-client.js";
import { APPLY_PATCH_CALL, APPLY_PATCH_KIND, buildResponsesParams } from "./openai-responses-convert.js";
import type { Provider, ProviderEvent, ProviderRequest, ProviderSettings, ProviderStopReason } from "./provider.js";

const DEFAULT_BASE_URL = "https://api.openai.com/v1";

/**
 * Creates the provider. Settings `options.reasoning` (boolean) forces reasoning parameters on or
 * off where the model name does not tell; see `createOpenAIClient` for the client options.
 */
export function createOpenAIResponsesProvider(settings: ProviderSettings): Provider {
  const reasoning = typeof settings.options.reasoning === "boolean" ? settings.options.reasoning : undefined;

  return {
    name: settings.name,
    type: "openai",
    async *stream(request: ProviderRequest, signal: AbortSignal): AsyncIterable<ProviderEvent> {
      // A missing key never gets here: the registry refuses to create the provider without one.
      const ctx = errorContext(settings, settings.baseUrl ?? DEFAULT_BASE_URL, signal);
      const patchName = request.nativeTools?.find((t) => t.kind === APPLY_PATCH_KIND)?.name ?? "apply_patch";
      // A 50 MB create comes as three 50 MB events (the arguments' done, the item's done, the
      // completed response): the SDK gets them with placeholders for their large strings, parsed
      // by us as they stream; the call's input is the one parsed from its deltas.
      const large = new LargeStrings();
      const mapper = new ResponsesStreamMapper(ctx, patchName, large);
      try {
        const sdk = await openAIClientThrough(settings, settings.apiKey, (inner) => largeStringsFetch(inner, large));
        const params = buildResponsesParams(request, reasoning);
        // A huge history (a large tool input sent back) is encoded here without holding the loop.
        const body = await largeJsonBody(params);
        const events = await sdk.responses.create(params, { signal, ...(body ? { body, headers: { "content-type": "application/json" } } : {}) });
        for await (const event of events) {
          yield* mapper.map(event);
          if (mapper.finished) return;
        }
      } catch (err) {
        const event = providerErrorEvent(err, ctx);
        if (event) yield event;
        return;
      }
      // The SDK ends iteration quietly when our signal aborts it: that is a cancel, not a failure.
      if (!signal.aborted) yield truncatedStreamEvent(ctx);
    },
  };
}

/**
 * Turns Responses stream events into ProviderEvents. Stateful per call: it pairs argument deltas
 * with their call, gathers reasoning summary parts, and knows whether content went out (which
 * decides whether a later failure may be retried). Exported for tests.
 */
export class ResponsesStreamMapper {
  /** True once a terminal event (completed, incomplete, failed, error) was mapped. */
  finished = false;
  private readonly callIds = new Map<string, string>(); // output item id -> call_id
  private readonly summaries = new Map<string, string[]>(); // reasoning item id -> summary parts
  /** Each call's arguments, parsed as their deltas stream (output item id -> parser). */
  private readonly arguments = new Map<string, IncrementalJson>();
  private sawToolCall = false;
  private sawRefusal = false;

  constructor(
    private readonly ctx: ErrorContext,
    private readonly patchName: string,
    /** The strings the stream's events carried as placeholders (none when the stream is read plainly). */
    private readonly large: LargeStrings = new LargeStrings(),
  ) {}

  /** The ProviderEvents one stream event stands for (often none). */
  *map(event: ResponseStreamEvent): Generator<ProviderEvent> {
    // Large strings (a patch's diff, a call's arguments) come back in place of their placeholders.
    event = this.large.show(event);
    switch (event.type) {
      case "response.output_item.added":
        yield* this.itemAdded(event.item);
        return;
      case "response.output_item.done":
        yield* this.itemDone(event.item);
        return;
      case "response.reasoning_summary_part.added":
        // Parts are paragraphs of one summary; keep them apart as the final text will.
        if (event.summary_index > 0) yield this.content({ type: "thinking_delta", text: "\n\n" });
        return;
      case "response.reasoning_summary_text.delta":
        if (event.delta) yield this.content({ type: "thinking_delta", text: event.delta });
        return;
      case "response.reasoning_summary_text.done": {
        const parts = this.summaries.get(event.item_id) ?? [];
        parts[event.summary_index] = event.text;
        this.summaries.set(event.item_id, parts);
        return;
      }
      case "response.output_text.delta":
        if (event.delta) yield this.content({ type: "text_delta", text: event.delta });
        return;
      case "response.refusal.delta":
        this.sawRefusal = true;
        if (event.delta) yield this.content({ type: "text_delta", text: event.delta });
        return;
      case "response.function_call_arguments.delta": {
        const id = this.callIds.get(event.item_id);
        if (!id || !event.delta) return;
        const json = this.arguments.get(event.item_id) ?? new IncrementalJson();
        this.arguments.set(event.item_id, json);
        json.push(event.delta);
        yield { type: "tool_call_delta", id, partialJson: event.delta };
        return;
      }
      case "response.completed":
        yield* this.end(event.response.usage, this.sawRefusal ? "refusal" : this.sawToolCall ? "tool_use" : "end_turn");
        return;
      case "response.incomplete": {
        const filtered = event.response.incomplete_details?.reason === "content_filter";
        yield* this.end(event.response.usage, filtered ? "refusal" : "max_tokens");
        return;
      }
      case "response.failed": {
        this.finished = true;
        const error = event.response.error;
        yield streamErrorEvent({ message: error?.message ?? "the response failed", code: error?.code }, this.ctx);
        return;
      }
      case "error":
        this.finished = true;
        yield streamErrorEvent({ message: event.message, code: event.code }, this.ctx);
        return;
      default:
        return; // lifecycle and part bookkeeping events carry nothing we show
    }
  }

  private *itemAdded(item: ResponseOutputItem): Generator<ProviderEvent> {
    if (item.type === "function_call") {
      this.callIds.set(item.id ?? item.call_id, item.call_id);
      yield this.content({ type: "tool_call_start", id: item.call_id, name: item.name });
    } else if (item.type === "apply_patch_call") {
      yield this.content({ type: "tool_call_start", id: item.call_id, name: this.patchName });
    } else if (item.type === "computer_call") {
      yield this.content({ type: "tool_call_start", id: item.call_id, name: OPENAI_COMPUTER.name });
    }
  }

  private *itemDone(item: ResponseOutputItem): Generator<ProviderEvent> {
    if (item.type === "reasoning") {
      // Summary text may be missing (summaries off, or none generated); the item still has to go
      // back with the next request, so the block is emitted regardless.
      const parts = this.summaries.get(item.id) ?? item.summary.map((s) => s.text);
      yield this.content({ type: "thinking_end", text: parts.filter(Boolean).join("\n\n"), providerData: item });
    } else if (item.type === "function_call") {
      this.sawToolCall = true;
      yield { type: "tool_call_end", id: item.call_id, name: item.name, input: this.callInput(item) };
    } else if (item.type === "apply_patch_call") {
      this.sawToolCall = true;
      const native = { name: this.patchName, kind: APPLY_PATCH_CALL, input: item.operation };
      yield { type: "tool_call_end", id: item.call_id, name: this.patchName, input: item.operation, native };
    } else if (item.type === "computer_call") {
      this.sawToolCall = true;
      // The whole item goes along: its id, actions and safety checks are replayed and answered.
      const native = { name: OPENAI_COMPUTER.name, kind: COMPUTER_CALL, input: item };
      yield { type: "tool_call_end", id: item.call_id, name: OPENAI_COMPUTER.name, input: item, native };
    }
  }

  /**
   * A call's input: the one its deltas parsed to as they streamed (a 50 MB create is not parsed
   * again in one go), else its arguments as the done item carries them.
   */
  private callInput(item: Extract<ResponseOutputItem, { type: "function_call" }>): unknown {
    const json = item.id ? this.arguments.get(item.id) : undefined;
    if (item.id) this.arguments.delete(item.id);
    if (json?.sawText) {
      try {
        return json.end();
      } catch {
        // Not JSON after all: the text as the done item has it goes to the tool's input check.
      }
    }
    return parseArguments(item.arguments);
  }

  private *end(usage: ResponseUsage | undefined, reason: ProviderStopReason): Generator<ProviderEvent> {
    this.finished = true;
    if (usage) yield { type: "usage", usage: disjointUsage(usage.input_tokens, usage.input_tokens_details?.cached_tokens, usage.output_tokens) };
    yield { type: "stop", reason };
  }

  /** Marks that output reached the user; from here on a failure is not retried. */
  private content<E extends ProviderEvent>(event: E): E {
    this.ctx.emittedContent = true;
    return event;
  }
}
