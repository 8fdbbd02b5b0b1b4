/**
 * Neutral request -> Anthropic Messages request. Pure: no SDK code is loaded here (type imports
 * are erased), so the adapter can build a request before the SDK is imported.
 */
import type Anthropic from "@anthropic-ai/sdk";
import type { AssistantBlock, ContentBlock, Message, ToolResultBlock } from "../vocabulary/messages.js";
import { anthropicNativeToolByKind } from "./native/anthropic.js";
import { ANTHROPIC_COMPUTER } from "./native/anthropic-computer.js";
import type { ProviderRequest } from "./provider.js";

type MessageParam = Anthropic.MessageParam;
type BlockParam = Anthropic.ContentBlockParam;

/** Thinking below this many tokens is refused by the API. */
const MIN_THINKING_BUDGET = 1024;

/** `ThinkingBlock.providerData` for a redacted thinking block: its opaque data, sent back verbatim. */
export interface RedactedThinkingData {
  type: "redacted_thinking";
  data: string;
}

/** Options of the conversion that come from the provider's config. */
export interface AnthropicRequestOptions {
  /**
   * Ask the API to cache the prompt up to its last block (top-level `cache_control`), so each
   * step of a turn reads the conversation so far from the cache. Default true.
   */
  promptCaching?: boolean;
}

/** Builds the streaming Messages request for `request`. */
export function toAnthropicRequest(
  request: ProviderRequest,
  options: AnthropicRequestOptions = {},
): Anthropic.MessageCreateParamsStreaming {
  const params: Anthropic.MessageCreateParamsStreaming = {
    model: request.model,
    max_tokens: request.maxTokens,
    messages: toAnthropicMessages(request.messages),
    stream: true,
  };
  if (request.system.trim() !== "") params.system = request.system;
  const tools = toAnthropicTools(request);
  if (tools.length > 0) params.tools = tools;
  const budget = request.thinkingBudget ?? 0;
  if (budget > 0) {
    const budgetTokens = Math.max(MIN_THINKING_BUDGET, Math.floor(budget));
    params.thinking = { type: "enabled", budget_tokens: budgetTokens };
    // The budget must be below max_tokens; rather than starve the answer, the answer keeps the
    // room it was given on top of the thinking.
    if (budgetTokens >= request.maxTokens) params.max_tokens = budgetTokens + request.maxTokens;
  }
  if (options.promptCaching !== false) params.cache_control = { type: "ephemeral" };
  if (request.compactAt) {
    // Server-side compaction (beta COMPACTION_BETA): the API summarises the conversation once the
    // input passes the trigger and answers from the summary, which it streams as a compaction block.
    Object.assign(params, { context_management: { edits: [{ type: COMPACTION_EDIT, trigger: { type: "input_tokens", value: request.compactAt } }] } });
  }
  return params;
}

/** The beta header of Anthropic's server-side compaction, and its edit's type. */
export const COMPACTION_BETA = "compact-2026-01-12";
const COMPACTION_EDIT = "compact_20260112";

/**
 * Our tools plus the native ones. A native tool replaces a definition of ours with the same name,
 * as the API refuses two tools with one name.
 */
function toAnthropicTools(request: ProviderRequest): Anthropic.ToolUnion[] {
  const natives: Anthropic.ToolUnion[] = [];
  const nativeNames = new Set<string>();
  for (const spec of request.nativeTools ?? []) {
    if (spec.kind === ANTHROPIC_COMPUTER.kind) {
      // A toolset entry has no name: its members are named by Anthropic.
      natives.push({ type: ANTHROPIC_COMPUTER.type } as unknown as Anthropic.ToolUnion);
      nativeNames.add(ANTHROPIC_COMPUTER.name);
      continue;
    }
    const native = anthropicNativeToolByKind(spec.kind);
    // Other providers' native tools (OpenAI apply_patch) have no Anthropic form.
    if (!native || nativeNames.has(native.name)) continue;
    natives.push({ type: native.type, name: native.name } as Anthropic.ToolUnion);
    nativeNames.add(native.name);
  }
  const ours: Anthropic.ToolUnion[] = request.tools
    .filter((t) => !nativeNames.has(t.name))
    .map((t) => ({
      name: t.name,
      description: t.description,
      input_schema: { ...t.inputSchema, type: "object" } as Anthropic.Tool.InputSchema,
    }));
  return [...ours, ...natives];
}

/**
 * Converts the conversation. Tool results become user messages; consecutive messages of one role
 * are merged, since the API wants user and assistant turns to alternate (tool results stay first,
 * as the API requires of a user message that answers tool calls).
 */
export function toAnthropicMessages(messages: Message[]): MessageParam[] {
  const out: MessageParam[] = [];
  for (const message of messages) {
    const role = message.role === "assistant" ? "assistant" : "user";
    const blocks = convertBlocks(message);
    if (blocks.length === 0) continue;
    const last = out[out.length - 1];
    if (last && last.role === role && Array.isArray(last.content)) last.content.push(...blocks);
    else out.push({ role, content: blocks });
  }
  return out;
}

function convertBlocks(message: Message): BlockParam[] {
  switch (message.role) {
    case "user":
      return message.content.flatMap(toContentParam);
    case "assistant":
      return message.content.flatMap(toAssistantParam);
    case "tool":
      return message.content.map(toToolResultParam);
  }
}

function toContentParam(block: ContentBlock): Array<Anthropic.TextBlockParam | Anthropic.ImageBlockParam> {
  if (block.type === "text") {
    // The API refuses blank text blocks; they carry nothing anyway.
    return block.text.trim() === "" ? [] : [{ type: "text", text: block.text }];
  }
  return [
    {
      type: "image",
      source: { type: "base64", media_type: block.mediaType as Anthropic.Base64ImageSource["media_type"], data: block.data },
    },
  ];
}

function toAssistantParam(block: AssistantBlock): BlockParam[] {
  switch (block.type) {
    case "text":
      return block.text.trim() === "" ? [] : [{ type: "text", text: block.text }];
    case "thinking": {
      const redacted = redactedData(block.providerData);
      if (redacted !== undefined) return [{ type: "redacted_thinking", data: redacted }];
      // Without its signature the API rejects a thinking block (e.g. one another provider produced).
      return block.signature ? [{ type: "thinking", thinking: block.text, signature: block.signature }] : [];
    }
    case "tool_call": {
      // A native call goes back exactly as the model wrote it, not as the tool it was rewritten to.
      const input = block.native ? block.native.input : block.input;
      const use: Anthropic.ToolUseBlockParam = { type: "tool_use", id: block.id, name: block.native?.name ?? block.name, input: asObject(input) };
      if (block.native?.kind === ANTHROPIC_COMPUTER.kind) use.toolset_name = ANTHROPIC_COMPUTER.name;
      return [use];
    }
  }
}

function toToolResultParam(block: ToolResultBlock): Anthropic.ToolResultBlockParam {
  const content = block.content.flatMap(toContentParam);
  const result: Anthropic.ToolResultBlockParam = { type: "tool_result", tool_use_id: block.toolCallId };
  if (content.length > 0) result.content = content;
  if (block.isError) result.is_error = true;
  return result;
}

function redactedData(providerData: unknown): string | undefined {
  const data = providerData as Partial<RedactedThinkingData> | undefined;
  return data?.type === "redacted_thinking" && typeof data.data === "string" ? data.data : undefined;
}

/** The API takes only objects as tool input; anything else (a lost parse) goes back as `{}`. */
function asObject(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
