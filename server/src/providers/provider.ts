/**
 * The Provider seam: one streaming interface that every wire API (Anthropic Messages, OpenAI
 * Responses, OpenAI Chat Completions, Gemini) implements. See DESIGN.md "The four seams".
 */
import type { Message, ToolDefinition, Usage } from "../vocabulary/messages.js";

/** Why the model stopped. */
export type ProviderStopReason = "end_turn" | "tool_use" | "max_tokens" | "refusal";

/** One event of a streamed model response. */
export type ProviderEvent =
  | { type: "text_delta"; text: string }
  | { type: "thinking_delta"; text: string }
  /** A complete thinking block, with the opaque state the provider needs back. */
  | { type: "thinking_end"; text: string; signature?: string; providerData?: unknown }
  | { type: "tool_call_start"; id: string; name: string }
  | { type: "tool_call_delta"; id: string; partialJson: string }
  /**
   * The complete call. `name`/`input` are as the model sent them; for a provider-native tool
   * `native` is set and the native layer rewrites it onto our tool.
   */
  | {
      type: "tool_call_end";
      id: string;
      name: string;
      input: unknown;
      native?: { name: string; input: unknown; kind?: string };
      providerData?: unknown;
    }
  /**
   * Token counts of this call so far: running totals, the newest replaces the one before.
   * Adapters report them as early as the API does, so a cancelled call still counts its input.
   */
  | { type: "usage"; usage: Usage }
  /**
   * The provider compacted the conversation server-side before answering (`compactAt`):
   * `summary` stands for everything the request carried; the answer follows it.
   */
  | { type: "compaction"; summary: string }
  | { type: "stop"; reason: ProviderStopReason; message?: string }
  | {
      type: "error";
      /** Readable, includes the provider's own message where it sent one. */
      message: string;
      /** Worth retrying: 429, overload (529), 5xx, connection reset before any output. */
      retryable: boolean;
      status?: number;
      /** From `retry-after` / `retry-after-ms` when the provider sent one. */
      retryAfterMs?: number;
    };

/** A provider-native tool definition (Anthropic text editor, bash; OpenAI apply_patch). */
export interface NativeToolSpec {
  /** Which native tool: `anthropic_text_editor`, `anthropic_bash`, `openai_apply_patch`. */
  kind: string;
  /** The name the model calls it by. */
  name: string;
}

/** Everything one model call needs. */
export interface ProviderRequest {
  /** The model id as the provider knows it (without our `provider/` prefix). */
  model: string;
  system: string;
  messages: Message[];
  tools: ToolDefinition[];
  /** Provider-native tools offered in place of (or beside) some of ours. */
  nativeTools?: NativeToolSpec[];
  maxTokens: number;
  /** Extended thinking budget in tokens; 0 or absent turns it off. */
  thinkingBudget?: number;
  /**
   * Ask the provider to compact the conversation server-side once the input passes this many
   * tokens (`[compaction] provider_native`; Anthropic's context management). Others ignore it.
   */
  compactAt?: number;
}

/** A model provider. `stream` never throws: failures end in an `error` event. */
export interface Provider {
  /** The configured provider name (`anthropic`, `openai`, `ollama`, ...). */
  readonly name: string;
  /** The wire API it speaks. */
  readonly type: ProviderType;
  stream(request: ProviderRequest, signal: AbortSignal): AsyncIterable<ProviderEvent>;
}

/** The wire APIs agent-lsp speaks. */
export type ProviderType = "anthropic" | "openai" | "openai-compatible" | "gemini";

/** What an adapter needs to reach its API. */
export interface ProviderSettings {
  name: string;
  type: ProviderType;
  apiKey?: string;
  /**
   * Where `apiKey` came from, for authentication errors ("the environment variable
   * ANTHROPIC_API_KEY", "api_key in /home/me/.config/agent-lsp/config.toml"); never the key.
   */
  keySource?: string;
  /** Why this provider cannot authenticate and what to set; undefined when it can (or needs no key). */
  missingKey?: string;
  baseUrl?: string;
  /** A response that sends nothing for this long is treated as a broken connection (0: never). */
  streamIdleTimeoutMs?: number;
  /** Extra per-provider options from config (headers, organization, ...). */
  options: Record<string, unknown>;
}
