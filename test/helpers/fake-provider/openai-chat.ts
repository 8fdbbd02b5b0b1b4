/**
 * OpenAI Chat Completions (`POST /v1/chat/completions`, `stream: true`) as the fake speaks it, the
 * API every OpenAI-compatible server (Ollama, llama.cpp, vLLM, LM Studio) copies: data-only SSE of
 * `chat.completion.chunk` objects ending in `data: [DONE]`, tool calls streamed by `index` with the
 * arguments split across chunks, usage in a last choice-less chunk when
 * `stream_options.include_usage` is set. Shapes follow `openai/resources/chat/completions` (SDK 6).
 * Thinking streams as `delta.reasoning_content`, as vLLM, llama.cpp and DeepSeek send it.
 */
import { randomBytes } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import { checkBearer, chunkText, writeOpenAIError } from "./openai-responses.js";
import type { FakeTurn, TurnContext, WireFormat } from "./types.js";

type Delta = Record<string, unknown>;

/** Streams one scripted turn as chat completion chunks. */
async function writeChatTurn(turn: FakeTurn, ctx: TurnContext): Promise<void> {
  const size = turn.chunkSize ?? 8;
  const includeUsage = ctx.body?.stream_options?.include_usage === true;
  const base = {
    id: `chatcmpl-${randomBytes(14).toString("hex")}`,
    object: "chat.completion.chunk",
    created: Math.floor(Date.now() / 1000),
    model: ctx.body?.model,
    system_fingerprint: "fp_fake",
  };
  // With include_usage on, every chunk before the last carries `usage: null`, as the API sends it.
  const chunk = (delta: Delta, finish_reason: string | null = null) => ({
    ...base,
    choices: [{ index: 0, delta, logprobs: null, finish_reason }],
    ...(includeUsage ? { usage: null } : {}),
  });

  await ctx.send(undefined, chunk({ role: "assistant", content: "", refusal: null }));
  if (turn.thinking) {
    for (const piece of chunkText(turn.thinking, size)) await ctx.send(undefined, chunk({ reasoning_content: piece }));
  }
  const refusal = turn.stop === "refusal";
  const text = turn.text ?? "";
  if (text || turn.hang || turn.streamError) {
    for (const piece of chunkText(text, size)) {
      await ctx.send(undefined, chunk(refusal ? { refusal: piece } : { content: piece }));
      // Right after the first piece of the answer; the server keeps a hanging stream open.
      if (turn.hang) return;
      if (turn.streamError) {
        // Mid-stream failures arrive as a data event holding an `error` object (vLLM, OpenRouter).
        const { message, type } = turn.streamError;
        await ctx.send(undefined, { error: { message, type: type ?? "server_error", param: null, code: null } });
        return;
      }
    }
  }
  const calls = turn.toolCalls ?? [];
  for (const [index, call] of calls.entries()) {
    const id = call.id ?? `call_${randomBytes(12).toString("hex")}`;
    const opening = { index, id, type: "function", function: { name: call.name, arguments: "" } };
    await ctx.send(undefined, chunk({ tool_calls: [opening] }));
    for (const piece of chunkText(JSON.stringify(call.input ?? {}), size)) {
      await ctx.send(undefined, chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  }
  const finish = turn.stop === "max_tokens" ? "length" : calls.length ? "tool_calls" : "stop";
  await ctx.send(undefined, chunk({}, finish));
  if (includeUsage) await ctx.send(undefined, { ...base, choices: [], usage: chatUsage(turn) });
  await ctx.send(undefined, "[DONE]");
}

/** Usage as the API counts it: `prompt_tokens` includes the cached ones. */
function chatUsage(turn: FakeTurn) {
  const uncached = turn.usage?.input ?? 12;
  const cached = turn.usage?.cacheRead ?? 0;
  const reasoning = turn.thinking ? Math.ceil(turn.thinking.length / 4) : 0;
  const out = (turn.usage?.output ?? Math.max(1, Math.ceil((turn.text?.length ?? 0) / 4))) + reasoning;
  return {
    prompt_tokens: uncached + cached,
    completion_tokens: out,
    total_tokens: uncached + cached + out,
    prompt_tokens_details: { cached_tokens: cached, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: reasoning,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

const isObject = (v: unknown): v is Record<string, any> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Every way a chat completions request breaks the API's contract. */
function validateChatRequest(body: any, _path: string, headers: IncomingHttpHeaders): string[] {
  const v = checkBearer(headers);
  if (!isObject(body)) return [...v, "body is not a JSON object"];
  if (typeof body.model !== "string" || !body.model) v.push("`model` must be a non-empty string");
  if (body.stream !== true) v.push("the fake serves only `stream: true` requests");
  if (body.stream_options !== undefined && body.stream !== true) v.push("`stream_options` is only allowed with `stream: true`");
  v.push(...validateTools(body.tools));
  if (!Array.isArray(body.messages) || body.messages.length === 0) return [...v, "`messages` must be a non-empty array"];
  v.push(...validateMessages(body.messages));
  return v;
}

function validateTools(tools: unknown): string[] {
  if (tools === undefined) return [];
  if (!Array.isArray(tools)) return ["`tools` must be an array"];
  return tools.flatMap((tool, i) => {
    if (!isObject(tool) || tool.type !== "function" || !isObject(tool.function)) {
      return [`tools[${i}]: must be {type: "function", function: {...}}`];
    }
    if (typeof tool.function.name !== "string" || !/^[a-zA-Z0-9_-]{1,64}$/.test(tool.function.name)) {
      return [`tools[${i}]: function.name must match ^[a-zA-Z0-9_-]{1,64}$`];
    }
    if (tool.function.parameters !== undefined && !isObject(tool.function.parameters)) {
      return [`tools[${i}] (${tool.function.name}): function.parameters must be a JSON Schema object`];
    }
    return [];
  });
}

/**
 * Roles and content shapes, plus the pairing rule: each `tool` message answers a call of the
 * assistant message before its run, and every call is answered before the next other message.
 */
function validateMessages(messages: unknown[]): string[] {
  const v: string[] = [];
  let pending = new Set<string>();
  messages.forEach((m, i) => {
    const at = `messages[${i}]`;
    if (!isObject(m)) return v.push(`${at}: not an object`);
    if (m.role !== "tool" && pending.size > 0) {
      v.push(`${at}: tool call(s) ${[...pending].join(", ")} not answered before this ${m.role} message`);
      pending = new Set();
    }
    switch (m.role) {
      case "system":
      case "developer":
        if (!isTextContent(m.content)) v.push(`${at}: ${m.role} content must be text`);
        return;
      case "user":
        return v.push(...validateUserContent(m.content, at));
      case "assistant":
        v.push(...validateAssistant(m, at));
        pending = new Set(Array.isArray(m.tool_calls) ? m.tool_calls.map((c: any) => c?.id) : []);
        return;
      case "tool":
        if (!pending.has(m.tool_call_id)) {
          v.push(`${at}: tool_call_id ${m.tool_call_id} answers no unanswered call of the preceding assistant message`);
        }
        pending.delete(m.tool_call_id);
        if (!isTextContent(m.content)) v.push(`${at}: tool content must be a string or text parts`);
        return;
      default:
        v.push(`${at}: unknown role ${JSON.stringify(m.role)}`);
    }
  });
  if (pending.size > 0) v.push(`tool call(s) ${[...pending].join(", ")} never answered`);
  return v;
}

function isTextContent(content: unknown): boolean {
  if (typeof content === "string") return true;
  return Array.isArray(content) && content.every((p) => isObject(p) && p.type === "text" && typeof p.text === "string");
}

function validateUserContent(content: unknown, at: string): string[] {
  if (typeof content === "string") return [];
  if (!Array.isArray(content)) return [`${at}: user content must be a string or an array of parts`];
  return content.flatMap((part, j) => {
    if (isObject(part) && part.type === "text" && typeof part.text === "string") return [];
    const url = isObject(part) && part.type === "image_url" && isObject(part.image_url) ? part.image_url.url : undefined;
    if (typeof url === "string" && /^(data:image\/[\w.+-]+;base64,|https?:)/.test(url)) return [];
    return [`${at}.content[${j}]: expected a text part or an image_url part with an https or data:image URL`];
  });
}

function validateAssistant(m: Record<string, any>, at: string): string[] {
  const v: string[] = [];
  const hasCalls = Array.isArray(m.tool_calls) && m.tool_calls.length > 0;
  if (m.content !== undefined && m.content !== null && !isTextContent(m.content)) v.push(`${at}: assistant content must be text`);
  if (!hasCalls && (m.content === undefined || m.content === null)) v.push(`${at}: assistant message needs content or tool_calls`);
  if (m.tool_calls !== undefined && !Array.isArray(m.tool_calls)) return [...v, `${at}: tool_calls must be an array`];
  for (const [k, call] of (m.tool_calls ?? []).entries()) {
    const where = `${at}.tool_calls[${k}]`;
    if (!isObject(call) || typeof call.id !== "string" || call.type !== "function" || !isObject(call.function)) {
      v.push(`${where}: must be {id, type: "function", function: {name, arguments}}`);
      continue;
    }
    if (typeof call.function.name !== "string") v.push(`${where}: function.name missing`);
    if (typeof call.function.arguments !== "string") v.push(`${where}: function.arguments must be a JSON string`);
    else {
      try {
        JSON.parse(call.function.arguments);
      } catch {
        v.push(`${where}: function.arguments is not valid JSON`);
      }
    }
  }
  return v;
}

/** The Chat Completions wire format; the SDK asks for `/chat/completions` under a `/v1` base URL. */
export const format: WireFormat = {
  name: "openai-chat",
  matches: (method, path) => method === "POST" && /^(\/v1)?\/chat\/completions$/.test(path.split("?")[0]!),
  validate: validateChatRequest,
  writeError: writeOpenAIError,
  writeTurn: writeChatTurn,
};
