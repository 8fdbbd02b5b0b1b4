/**
 * The neutral conversation model. Every provider adapter converts to and from these shapes;
 * the session history (and its .jsonl log) stores them as they are.
 */

/** A piece of text the user or a tool produced. */
export interface TextBlock {
  type: "text";
  text: string;
}

/** A picture, base64-encoded. */
export interface ImageBlock {
  type: "image";
  /** MIME type such as `image/png`. */
  mediaType: string;
  /** Base64 data without a `data:` prefix. */
  data: string;
}

/** What users and tools send: text and images. */
export type ContentBlock = TextBlock | ImageBlock;

/** The model's visible reasoning. `signature`/`providerData` round-trip opaque provider state. */
export interface ThinkingBlock {
  type: "thinking";
  text: string;
  signature?: string;
  /** Opaque data a provider needs back verbatim (redacted thinking, encrypted reasoning). */
  providerData?: unknown;
}

/** A tool call the model made. */
export interface ToolCallBlock {
  type: "tool_call";
  id: string;
  /** The name of our tool that runs it (after any provider-native rewrite). */
  name: string;
  /** The input our tool receives. */
  input: unknown;
  /**
   * Set when the model called a provider-native tool (Anthropic text editor, OpenAI apply_patch):
   * the call as the model wrote it, so history replays it in the model's own shape.
   */
  native?: { name: string; input: unknown; kind?: string };
  /** Opaque per-call data a provider needs back (Gemini thought signatures). */
  providerData?: unknown;
}

/** One block of an assistant message. */
export type AssistantBlock = TextBlock | ThinkingBlock | ToolCallBlock;

/** The result of one tool call. */
export interface ToolResultBlock {
  type: "tool_result";
  toolCallId: string;
  /** The tool's name, kept so providers that key results by name (Gemini) can answer. */
  name: string;
  isError: boolean;
  content: ContentBlock[];
}

/** A message in the conversation. */
export type Message =
  | { role: "user"; content: ContentBlock[] }
  | { role: "assistant"; content: AssistantBlock[] }
  | { role: "tool"; content: ToolResultBlock[] };

/** A tool as offered to a model: neutral JSON Schema, converted by each adapter. */
export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** Token counts for one model call. */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

/** Adds `b` into a copy of `a`. */
export function addUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
  };
}

/** A usage record with every count at zero. */
export const ZERO_USAGE: Usage = Object.freeze({
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
});
