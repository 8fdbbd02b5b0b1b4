/**
 * The Anthropic Messages API as the fake speaks it: `POST /v1/messages` with `stream: true`,
 * answered with the API's server-sent events (message_start, ping, content_block_start/delta/stop,
 * message_delta, message_stop, and `error`), and the API's JSON error bodies.
 */
import { createHash, randomBytes } from "node:crypto";
import type { IncomingHttpHeaders, ServerResponse } from "node:http";
import type { FakeTurn, TurnContext, WireFormat } from "./types.js";

type Event = [name: string, data: Record<string, unknown>];

/** The `error.type` the API uses for each HTTP status. */
const ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  402: "billing_error",
  403: "permission_error",
  404: "not_found_error",
  408: "timeout_error",
  409: "conflict_error",
  413: "request_too_large",
  429: "rate_limit_error",
  500: "api_error",
  504: "timeout_error",
  529: "overloaded_error",
};

const DEFAULT_MESSAGES: Record<string, string> = {
  overloaded_error: "Overloaded",
  rate_limit_error: "Number of request tokens has exceeded your per-minute rate limit",
  api_error: "Internal server error",
  authentication_error: "invalid x-api-key",
};

/**
 * The signature the fake gives a thinking block. It is derived from the text, so a request that
 * sends a thinking block back modified (or with another block's signature) is caught, as the real
 * API rejects it.
 */
export function fakeThinkingSignature(thinking: string): string {
  return createHash("sha256").update(`fake-anthropic-thinking:${thinking}`).digest("base64");
}

/** The Anthropic Messages wire format. */
export const format: WireFormat = {
  name: "anthropic",
  matches: (method, path) => method === "POST" && path.split("?")[0] === "/v1/messages",
  validate: (body, _path, headers) => validate(body, headers),
  writeError,
  writeTurn,
  keepAlive: { event: "ping", data: { type: "ping" } },
};

function writeError(res: ServerResponse, error: NonNullable<FakeTurn["error"]>): void {
  const type = error.type ?? ERROR_TYPES[error.status] ?? (error.status >= 500 ? "api_error" : "invalid_request_error");
  const body = {
    type: "error",
    error: { type, message: error.message ?? DEFAULT_MESSAGES[type] ?? type },
    request_id: id("req_011"),
  };
  res.writeHead(error.status, { "content-type": "application/json", "request-id": body.request_id });
  res.end(JSON.stringify(body));
}

async function writeTurn(turn: FakeTurn, ctx: TurnContext): Promise<void> {
  ctx.res.setHeader("request-id", id("req_011"));
  const events = buildEvents(turn, ctx.body);
  // Both a hang and a mid-stream error happen right after the first piece of content, as they
  // would when the model has started answering.
  const firstDelta = events.findIndex(([name]) => name === "content_block_delta");
  const cutoff = firstDelta >= 0 ? firstDelta + 1 : 2;
  if (turn.hang || turn.streamError) {
    for (const [name, data] of events.slice(0, cutoff)) await ctx.send(name, data);
    if (turn.streamError) {
      const type = turn.streamError.type ?? "overloaded_error";
      await ctx.send("error", { type: "error", error: { type, message: turn.streamError.message } });
    }
    // The server keeps a hanging stream open until the client goes away.
    return;
  }
  for (const [name, data] of events) await ctx.send(name, data);
}

/** Every event of a complete streamed response, in the order the API sends them. */
function buildEvents(turn: FakeTurn, body: any): Event[] {
  const chunkSize = turn.chunkSize ?? 8;
  const events: Event[] = [];
  const usage = turn.usage ?? {};
  const input = usage.input ?? Math.max(1, Math.ceil(JSON.stringify(body?.messages ?? "").length / 4));
  const cacheRead = usage.cacheRead ?? 0;
  const cacheWrite = usage.cacheWrite ?? 0;
  let produced = 0;

  events.push([
    "message_start",
    {
      type: "message_start",
      message: {
        id: id("msg_01"),
        type: "message",
        role: "assistant",
        model: body?.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: {
          input_tokens: input,
          cache_creation_input_tokens: cacheWrite,
          cache_read_input_tokens: cacheRead,
          cache_creation: { ephemeral_5m_input_tokens: cacheWrite, ephemeral_1h_input_tokens: 0 },
          output_tokens: 1,
          service_tier: "standard",
        },
      },
    },
  ]);
  events.push(["ping", { type: "ping" }]);

  let index = 0;
  const block = (start: Record<string, unknown>, deltas: Record<string, unknown>[]): void => {
    events.push(["content_block_start", { type: "content_block_start", index, content_block: start }]);
    for (const delta of deltas) events.push(["content_block_delta", { type: "content_block_delta", index, delta }]);
    events.push(["content_block_stop", { type: "content_block_stop", index }]);
    index++;
  };

  if (turn.compaction) {
    // As the API streams it: an empty block, then the summary and its opaque state in one delta.
    block({ type: "compaction", content: null, encrypted_content: null }, [{ type: "compaction_delta", content: turn.compaction, encrypted_content: "opaque-state" }]);
  }
  if (turn.thinking) {
    produced += turn.thinking.length;
    block({ type: "thinking", thinking: "", signature: "" }, [
      ...chunks(turn.thinking, chunkSize).map((thinking) => ({ type: "thinking_delta", thinking })),
      { type: "signature_delta", signature: fakeThinkingSignature(turn.thinking) },
    ]);
  }
  if (turn.text) {
    produced += turn.text.length;
    block(
      { type: "text", text: "", citations: null },
      chunks(turn.text, chunkSize).map((text) => ({ type: "text_delta", text })),
    );
  }
  for (const call of turn.toolCalls ?? []) {
    const json = JSON.stringify(call.input ?? {});
    produced += json.length;
    // The API opens every tool input with an empty delta before the JSON itself.
    // A toolset member's call names its toolset (`nativeKind: "toolset:computer"`).
    const toolset = call.nativeKind?.startsWith("toolset:") ? { toolset_name: call.nativeKind.slice("toolset:".length) } : {};
    block({ type: "tool_use", id: call.id ?? id("toolu_01"), name: call.name, input: {}, caller: { type: "direct" }, ...toolset }, [
      { type: "input_json_delta", partial_json: "" },
      ...chunks(json, chunkSize).map((partial_json) => ({ type: "input_json_delta", partial_json })),
    ]);
  }

  const stopReason = turn.stop ?? (turn.toolCalls?.length ? "tool_use" : "end_turn");
  const outputTokens = usage.output ?? Math.max(1, Math.ceil(produced / 4));
  events.push([
    "message_delta",
    {
      type: "message_delta",
      delta: {
        stop_reason: stopReason,
        stop_sequence: null,
        ...(stopReason === "refusal" ? { stop_details: { type: "refusal", category: null, explanation: null } } : {}),
      },
      usage: {
        input_tokens: input,
        cache_creation_input_tokens: cacheWrite,
        cache_read_input_tokens: cacheRead,
        output_tokens: outputTokens,
      },
    },
  ]);
  events.push(["message_stop", { type: "message_stop" }]);
  return events;
}

function chunks(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += Math.max(1, size)) out.push(text.slice(i, i + Math.max(1, size)));
  return out;
}

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** An id in the API's style: a prefix and 22 base62 characters. */
function id(prefix: string): string {
  return prefix + Array.from(randomBytes(22), (b) => ALPHABET[b % ALPHABET.length]).join("");
}

// ---------------------------------------------------------------------------------------------
// Request validation: the rules the real API enforces with a 400, as far as tests can meet them.

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
/** Anthropic-defined tools: each `type` fixes the name the model calls it by. */
const NATIVE_TOOL_NAMES: Record<string, string> = {
  text_editor_20250728: "str_replace_based_edit_tool",
  text_editor_20250429: "str_replace_based_edit_tool",
  text_editor_20250124: "str_replace_editor",
  bash_20250124: "bash",
  memory_20250818: "memory",
};
/** Toolsets: one entry without a name; the model calls its members by their own names. */
const TOOLSET_TYPES = new Set(["computer_toolset_20260801"]);
const IMAGE_MEDIA_TYPES = new Set(["image/jpeg", "image/png", "image/gif", "image/webp"]);

function validate(body: any, headers: IncomingHttpHeaders): string[] {
  const v: string[] = [];
  if (!headers["x-api-key"] && !headers.authorization) v.push("no x-api-key or authorization header");
  if (!headers["anthropic-version"]) v.push("no anthropic-version header");
  if (!isObject(body)) return [...v, "body must be a JSON object"];
  if (typeof body.model !== "string" || body.model === "") v.push("model: required, a non-empty string");
  if (!Number.isInteger(body.max_tokens) || body.max_tokens < 1) v.push("max_tokens: required, a positive integer");
  if (body.stream !== true) v.push("stream: must be true (the fake only serves streaming requests)");
  validateSystem(body.system, v);
  validateThinking(body.thinking, body.max_tokens, v);
  validateTools(body.tools, v);
  validateMessages(body.messages, v);
  validateContextManagement(body.context_management, headers, v);
  const usesTools = blocksOfAll(body.messages).some((b) => b?.type === "tool_use" || b?.type === "tool_result");
  if (usesTools && !(Array.isArray(body.tools) && body.tools.length > 0)) {
    v.push("requests which include tool_use or tool_result blocks must define tools");
  }
  return v;
}

/** Server-side compaction: a beta, with its header, and one `compact_20260112` edit with an input-token trigger. */
function validateContextManagement(cm: any, headers: IncomingHttpHeaders, v: string[]): void {
  if (cm === undefined) return;
  const betas = String(headers["anthropic-beta"] ?? "").split(",").map((b) => b.trim());
  if (!betas.includes("compact-2026-01-12")) v.push("context_management with compact_20260112 needs the anthropic-beta header compact-2026-01-12");
  const edits = cm?.edits;
  if (!Array.isArray(edits) || edits.length === 0) return void v.push("context_management.edits: a non-empty array");
  edits.forEach((e: any, i: number) => {
    if (e?.type !== "compact_20260112") v.push(`context_management.edits[${i}].type: unknown "${e?.type}"`);
    const t = e?.trigger;
    if (t !== undefined && (t?.type !== "input_tokens" || !Number.isInteger(t?.value) || t.value < 1)) v.push(`context_management.edits[${i}].trigger: {type: "input_tokens", value: a positive integer}`);
  });
}

function validateSystem(system: unknown, v: string[]): void {
  if (system === undefined || typeof system === "string") return;
  if (!Array.isArray(system)) return void v.push("system: must be a string or an array of text blocks");
  system.forEach((b, i) => {
    if (b?.type !== "text" || !nonBlank(b.text)) v.push(`system[${i}]: must be a text block with non-empty text`);
  });
}

function validateThinking(thinking: any, maxTokens: number, v: string[]): void {
  if (thinking === undefined || thinking?.type === "disabled" || thinking?.type === "adaptive") return;
  if (thinking?.type !== "enabled") return void v.push(`thinking.type: unknown "${thinking?.type}"`);
  const budget = thinking.budget_tokens;
  if (!Number.isInteger(budget) || budget < 1024) v.push("thinking.budget_tokens: must be an integer >= 1024");
  else if (budget >= maxTokens) v.push("thinking.budget_tokens: must be less than max_tokens");
}

function validateTools(tools: unknown, v: string[]): void {
  if (tools === undefined) return;
  if (!Array.isArray(tools)) return void v.push("tools: must be an array");
  const seen = new Set<string>();
  tools.forEach((t, i) => {
    const where = `tools[${i}]`;
    if (TOOLSET_TYPES.has(t?.type)) {
      if (t.name !== undefined) v.push(`${where}.name: a ${t.type} entry carries no name`);
      const extra = Object.keys(t).filter((k) => !["type", "configs", "cache_control"].includes(k));
      if (extra.length) v.push(`${where}: unknown fields ${extra.join(", ")} for a toolset`);
      return;
    } else if (t?.type !== undefined && t?.type !== null && t?.type !== "custom") {
      const expected = NATIVE_TOOL_NAMES[t.type];
      if (!expected) v.push(`${where}.type: unknown tool type "${t.type}"`);
      else if (t.name !== expected) v.push(`${where}.name: a ${t.type} tool must be named "${expected}"`);
    } else {
      if (typeof t?.name !== "string" || !TOOL_NAME.test(t.name)) {
        v.push(`${where}.name: "${t?.name}" does not match ^[a-zA-Z0-9_-]{1,64}$`);
      }
      if (!isObject(t?.input_schema) || t.input_schema.type !== "object") {
        v.push(`${where}.input_schema: must be a JSON Schema object with type "object"`);
      }
      if (t?.description !== undefined && typeof t.description !== "string") v.push(`${where}.description: must be a string`);
    }
    if (seen.has(t?.name)) v.push(`${where}.name: tool names must be unique ("${t?.name}" repeats)`);
    seen.add(t?.name);
  });
}

function validateMessages(messages: unknown, v: string[]): void {
  if (!Array.isArray(messages) || messages.length === 0) return void v.push("messages: must be a non-empty array");
  const seenUses = new Set<string>();
  messages.forEach((m, i) => {
    const where = `messages[${i}]`;
    if (m?.role !== "user" && m?.role !== "assistant") return void v.push(`${where}.role: must be "user" or "assistant"`);
    if (i === 0 && m.role !== "user") v.push("messages[0]: the first message must have role \"user\"");
    if (i > 0 && messages[i - 1]?.role === m.role) v.push(`${where}: roles must alternate (two "${m.role}" messages in a row)`);
    if (typeof m.content === "string") {
      if (!nonBlank(m.content)) v.push(`${where}.content: must be non-empty`);
      return;
    }
    if (!Array.isArray(m.content) || m.content.length === 0) return void v.push(`${where}.content: must be a non-empty string or array`);
    m.content.forEach((b: any, j: number) => validateBlock(b, m.role, `${where}.content[${j}]`, v));
    for (const use of m.content.filter((b: any) => b?.type === "tool_use")) {
      if (seenUses.has(use.id)) v.push(`${where}: tool_use id ${use.id} is used twice in the conversation`);
      seenUses.add(use.id);
    }
    validateToolPairing(messages, i, v);
  });
}

/** Every tool_result answers the assistant message right before; every tool_use is answered right after. */
function validateToolPairing(messages: any[], i: number, v: string[]): void {
  const m = messages[i];
  const where = `messages[${i}]`;
  const useIds = (msg: any): string[] =>
    msg?.role === "assistant" ? blocksOf(msg).filter((b) => b?.type === "tool_use").map((b) => b.id) : [];
  const resultIds = (msg: any): string[] =>
    msg?.role === "user" ? blocksOf(msg).filter((b) => b?.type === "tool_result").map((b) => b.tool_use_id) : [];
  if (m.role === "user") {
    const previous = useIds(messages[i - 1]);
    for (const id of resultIds(m)) {
      if (!previous.includes(id)) {
        v.push(`${where}: tool_result for ${id} has no tool_use with that id in the previous assistant message`);
      }
    }
    const firstOther = blocksOf(m).findIndex((b) => b?.type !== "tool_result");
    if (firstOther >= 0 && blocksOf(m).slice(firstOther).some((b) => b?.type === "tool_result")) {
      v.push(`${where}: tool_result blocks must come before any other content`);
    }
  } else {
    const answered = resultIds(messages[i + 1]);
    for (const id of useIds(m)) {
      if (!answered.includes(id)) {
        v.push(`${where}: tool_use ${id} has no tool_result in the next user message`);
      }
    }
  }
}

function validateBlock(b: any, role: string, where: string, v: string[]): void {
  const allowed = role === "user" ? ["text", "image", "tool_result", "document"] : ["text", "thinking", "redacted_thinking", "tool_use"];
  if (!allowed.includes(b?.type)) return void v.push(`${where}.type: "${b?.type}" is not allowed in a ${role} message`);
  switch (b.type) {
    case "text":
      if (!nonBlank(b.text)) v.push(`${where}: text content blocks must contain non-whitespace text`);
      break;
    case "image":
      validateImage(b, where, v);
      break;
    case "tool_result":
      if (typeof b.tool_use_id !== "string") v.push(`${where}.tool_use_id: required`);
      if (b.is_error !== undefined && typeof b.is_error !== "boolean") v.push(`${where}.is_error: must be a boolean`);
      if (Array.isArray(b.content)) {
        b.content.forEach((c: any, k: number) => {
          if (c?.type === "image") validateImage(c, `${where}.content[${k}]`, v);
          else if (c?.type !== "text" || !nonBlank(c.text)) v.push(`${where}.content[${k}]: must be a non-empty text or an image block`);
        });
      } else if (b.content !== undefined && typeof b.content !== "string") {
        v.push(`${where}.content: must be a string or an array`);
      }
      break;
    case "thinking":
      if (typeof b.thinking !== "string" || typeof b.signature !== "string") v.push(`${where}: thinking and signature are required`);
      else if (b.signature !== fakeThinkingSignature(b.thinking)) v.push(`${where}: thinking block was modified (its signature does not match)`);
      break;
    case "redacted_thinking":
      if (typeof b.data !== "string") v.push(`${where}.data: required`);
      break;
    case "tool_use":
      if (typeof b.id !== "string" || !/^[a-zA-Z0-9_-]+$/.test(b.id)) v.push(`${where}.id: must match ^[a-zA-Z0-9_-]+$`);
      if (typeof b.name !== "string" || !TOOL_NAME.test(b.name)) v.push(`${where}.name: "${b.name}" is not a valid tool name`);
      if (!isObject(b.input)) v.push(`${where}.input: must be an object`);
      if (b.toolset_name !== undefined && typeof b.toolset_name !== "string") v.push(`${where}.toolset_name: must be a string`);
      break;
  }
}

function validateImage(b: any, where: string, v: string[]): void {
  const source = b?.source;
  if (source?.type === "url" && typeof source.url === "string") return;
  if (source?.type !== "base64") return void v.push(`${where}.source.type: must be "base64" or "url"`);
  if (!IMAGE_MEDIA_TYPES.has(source.media_type)) v.push(`${where}.source.media_type: "${source.media_type}" is not supported`);
  if (typeof source.data !== "string" || source.data === "" || source.data.startsWith("data:")) {
    v.push(`${where}.source.data: must be base64 without a data: prefix`);
  }
}

function blocksOf(message: any): any[] {
  return Array.isArray(message?.content) ? message.content : [];
}

function blocksOfAll(messages: unknown): any[] {
  return Array.isArray(messages) ? messages.flatMap(blocksOf) : [];
}

function isObject(value: unknown): value is Record<string, any> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function nonBlank(text: unknown): boolean {
  return typeof text === "string" && text.trim() !== "";
}
