/**
 * The Chat Completions adapter (`type = "openai-compatible"`) for any OpenAI-compatible endpoint:
 * Ollama, llama.cpp, vLLM, LM Studio, and OpenAI itself. Streaming text, reasoning text where the
 * server sends it, function tools, usage, and a plain answer when a model cannot call tools.
 */
import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import type { CompletionUsage } from "openai/resources/completions";
import { errorContext, providerErrorEvent, truncatedStreamEvent, type ErrorContext, type ProviderErrorEvent } from "./errors.js";
import { buildChatParams } from "./openai-chat-convert.js";
import { largeJsonBody } from "./large-body.js";
import { disjointUsage, lazyOpenAIClient, parseArguments } from "./openai-client.js";
import type { Provider, ProviderEvent, ProviderRequest, ProviderSettings, ProviderStopReason } from "./provider.js";
import { IncrementalJson } from "../util/incremental-json.js";

/** Local servers ignore the key, but the SDK insists on one. */
const PLACEHOLDER_KEY = "no-key-needed";

/** Creates the provider; `settings.baseUrl` is required (there is no default compatible server). */
export function createOpenAIChatProvider(settings: ProviderSettings): Provider {
  const getClient = lazyOpenAIClient(settings, settings.apiKey ?? PLACEHOLDER_KEY);

  return {
    name: settings.name,
    type: "openai-compatible",
    async *stream(request: ProviderRequest, signal: AbortSignal): AsyncIterable<ProviderEvent> {
      if (!settings.baseUrl) {
        const message = `Provider "${settings.name}" has no base_url: set base_url in [providers.${settings.name}] (for example http://127.0.0.1:11434/v1 for Ollama).`;
        yield { type: "error", message, retryable: false };
        return;
      }
      const ctx = errorContext(settings, settings.baseUrl, signal);
      const mapper = new ChatStreamMapper(ctx);
      try {
        const sdk = await getClient();
        const params = buildChatParams(request);
        // A huge history (a large tool input sent back) is encoded here without holding the loop.
        const body = await largeJsonBody(params);
        const chunks = await sdk.chat.completions.create(params, { signal, ...(body ? { body, headers: { "content-type": "application/json" } } : {}) });
        for await (const chunk of chunks) yield* mapper.map(chunk);
      } catch (err) {
        const event = noToolSupportEvent(err, request, settings.baseUrl) ?? providerErrorEvent(err, ctx);
        if (event) yield event;
        return;
      }
      // The SDK ends iteration quietly when our signal aborts it: that is a cancel, not a failure.
      if (!signal.aborted) yield* mapper.finish();
    },
  };
}

/**
 * How servers say a model cannot call tools: Ollama ("... does not support tools"), vLLM
 * ("auto" tool choice requires --enable-auto-tool-choice ...), llama.cpp (tools param requires
 * --jinja flag), LM Studio and others ("tool calling is not supported", "does not support function calling").
 */
const NO_TOOLS =
  /does not support (tools|tool[ _-]?(use|calling|calls)|function[ _-]?calling)|tool[ _-]?(use|calling|calls)? (is |are )?not supported|"auto" tool choice requires|tools param requires/i;

/**
 * The clear, non-retryable error for a model without tool support, naming the model and server,
 * or undefined when `err` is something else.
 */
function noToolSupportEvent(err: unknown, request: ProviderRequest, baseUrl: string): ProviderErrorEvent | undefined {
  const e = err as { status?: unknown; error?: { message?: unknown }; message?: unknown } | undefined;
  if (request.tools.length === 0 || (e?.status !== 400 && e?.status !== 404 && e?.status !== 422)) return undefined;
  const said = typeof e.error?.message === "string" ? e.error.message : String(e.message ?? "");
  if (!NO_TOOLS.test(said)) return undefined;
  return {
    type: "error",
    status: e.status,
    retryable: false,
    message:
      `Model "${request.model}" at ${baseUrl} does not support tool calling; pick a model with tool support ` +
      `(ollama list / the server's docs) or enable tool calling on the server. The server said: ${said}`,
  };
}

interface PendingCall {
  id: string;
  name: string;
  args: string;
  /**
   * The arguments parsed as their pieces come: a 50 MB `create` parsed in one JSON.parse at the
   * end held every other request for a tenth of a second.
   */
  json: IncrementalJson;
  started: boolean;
}

/**
 * Turns chat completion chunks into ProviderEvents. Calls are assembled by `index` (the id and
 * name come once, the arguments in pieces); reasoning arrives as `reasoning_content` (vLLM,
 * llama.cpp, DeepSeek) or `reasoning` (Ollama). Exported for tests.
 */
export class ChatStreamMapper {
  private thinking = "";
  private readonly calls = new Map<number, PendingCall>();
  private finishReason: string | undefined;
  private usage: CompletionUsage | undefined;
  private sawRefusal = false;

  constructor(private readonly ctx: ErrorContext) {}

  /** The events one chunk stands for. */
  *map(chunk: ChatCompletionChunk): Generator<ProviderEvent> {
    if (chunk.usage) this.usage = chunk.usage;
    const choice = chunk.choices?.[0];
    if (!choice) return;
    const delta = choice.delta as ChatCompletionChunk.Choice.Delta & { reasoning_content?: unknown; reasoning?: unknown };
    const reasoning = delta.reasoning_content ?? delta.reasoning;
    if (typeof reasoning === "string" && reasoning) {
      this.thinking += reasoning;
      yield this.content({ type: "thinking_delta", text: reasoning });
    }
    if (delta.content) {
      yield* this.endThinking();
      yield this.content({ type: "text_delta", text: delta.content });
    }
    if (delta.refusal) {
      this.sawRefusal = true;
      yield this.content({ type: "text_delta", text: delta.refusal });
    }
    for (const [position, piece] of (delta.tool_calls ?? []).entries()) yield* this.callPiece(piece, position);
    if (choice.finish_reason) this.finishReason = choice.finish_reason;
  }

  /** After the last chunk: the completed calls, usage and the stop, or an error if the stream was cut. */
  *finish(): Generator<ProviderEvent> {
    if (!this.finishReason) {
      yield truncatedStreamEvent(this.ctx);
      return;
    }
    yield* this.endThinking();
    for (const call of [...this.calls.entries()].sort(([a], [b]) => a - b).map(([, c]) => c)) {
      if (!call.started) yield { type: "tool_call_start", id: call.id, name: call.name };
      yield { type: "tool_call_end", id: call.id, name: call.name, input: argumentsOf(call) };
    }
    if (this.usage) {
      const { prompt_tokens, prompt_tokens_details, completion_tokens } = this.usage;
      yield { type: "usage", usage: disjointUsage(prompt_tokens, prompt_tokens_details?.cached_tokens, completion_tokens) };
    }
    yield { type: "stop", reason: this.stopReason() };
  }

  private *callPiece(piece: ChatCompletionChunk.Choice.Delta.ToolCall, position: number): Generator<ProviderEvent> {
    // Some servers leave out `index` when they send each call whole; its place in the array serves.
    const index = typeof piece.index === "number" ? piece.index : position;
    let call = this.calls.get(index);
    if (!call) {
      call = { id: piece.id || `call_${index}_${Date.now().toString(36)}`, name: "", args: "", json: new IncrementalJson(), started: false };
      this.calls.set(index, call);
    }
    if (piece.function?.name && !call.name) call.name = piece.function.name;
    const args = piece.function?.arguments ?? "";
    call.args += args;
    call.json.push(args);
    if (!call.started && call.name) {
      yield* this.endThinking();
      call.started = true;
      yield this.content({ type: "tool_call_start", id: call.id, name: call.name });
      // Arguments that came before the name are sent now, as one piece.
      if (call.args) yield { type: "tool_call_delta", id: call.id, partialJson: call.args };
    } else if (call.started && args) {
      yield { type: "tool_call_delta", id: call.id, partialJson: args };
    }
  }

  private *endThinking(): Generator<ProviderEvent> {
    if (!this.thinking) return;
    yield { type: "thinking_end", text: this.thinking };
    this.thinking = "";
  }

  private stopReason(): ProviderStopReason {
    if (this.finishReason === "length") return "max_tokens";
    if (this.finishReason === "content_filter" || this.sawRefusal) return "refusal";
    // Ollama answers tool calls with finish_reason "stop"; the calls themselves decide.
    return this.calls.size > 0 ? "tool_use" : "end_turn";
  }

  /** Marks that output reached the user; from here on a failure is not retried. */
  private content<E extends ProviderEvent>(event: E): E {
    this.ctx.emittedContent = true;
    return event;
  }
}

/** The call's input: parsed as it streamed; text that is no JSON goes on as it is (parseArguments). */
function argumentsOf(call: PendingCall): unknown {
  if (!call.json.sawText) return {};
  try {
    return call.json.end();
  } catch {
    return parseArguments(call.args);
  }
}
