/**
 * The OpenAI Responses API (`POST /v1/responses`, `stream: true`) as the fake speaks it: named SSE
 * events carrying `type` and a running `sequence_number`, with item and part shapes as in
 * `openai/resources/responses/responses.d.ts` (SDK 6). Usage follows the API: `input_tokens`
 * includes cached tokens, so the turn's uncached `input` plus `cacheRead` is what it reports.
 */
import { randomBytes } from "node:crypto";
import type { IncomingHttpHeaders, ServerResponse } from "node:http";
import type { FakeToolCall, FakeTurn, TurnContext, WireFormat } from "./types.js";

const newId = (prefix: string): string => `${prefix}_${randomBytes(12).toString("hex")}`;

/** Splits text into the pieces a stream sends (at least one piece, even for ""). */
export function chunkText(text: string, size: number): string[] {
  const step = Math.max(1, size);
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += step) pieces.push(text.slice(i, i + step));
  return pieces.length ? pieces : [""];
}

/** The API's `error.type` for an HTTP status, as its error bodies carry it. */
function errorType(status: number): string {
  if (status === 429) return "requests";
  if (status >= 500) return "server_error";
  return "invalid_request_error";
}

/** Writes `{"error":{message,type,param,code}}`; the server has set any `retry-after` already. */
export function writeOpenAIError(res: ServerResponse, error: NonNullable<FakeTurn["error"]>): void {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "x-request-id": newId("req"),
  };
  const code = error.status === 429 ? "rate_limit_exceeded" : error.status === 401 ? "invalid_api_key" : null;
  res.writeHead(error.status, headers);
  res.end(
    JSON.stringify({
      error: {
        message: error.message ?? `fake error ${error.status}`,
        type: error.type ?? errorType(error.status),
        param: null,
        code,
      },
    }),
  );
}

/** Streams one scripted turn as a Responses event stream. */
async function writeResponsesTurn(turn: FakeTurn, ctx: TurnContext): Promise<void> {
  const stream = new ResponseStream(turn, ctx);
  await stream.emit("response.created", { response: stream.response("in_progress") });
  await stream.emit("response.in_progress", { response: stream.response("in_progress") });
  if (turn.thinking) await stream.reasoning(turn.thinking);
  const refusal = turn.stop === "refusal";
  if (turn.text !== undefined || turn.hang || turn.streamError || refusal || !turn.toolCalls?.length) {
    if (!(await stream.message(turn.text ?? "", refusal))) return; // hung or failed mid-stream
  }
  for (const call of turn.toolCalls ?? []) await stream.toolCall(call);
  const usage = responseUsage(turn);
  if (turn.stop === "max_tokens") {
    const incomplete_details = { reason: "max_output_tokens" };
    await stream.emit("response.incomplete", { response: stream.response("incomplete", { incomplete_details, usage }) });
  } else {
    const completed_at = Math.floor(Date.now() / 1000);
    await stream.emit("response.completed", { response: stream.response("completed", { completed_at, usage }) });
  }
}

/** Usage as the API counts it: `input_tokens` includes the cached ones. */
function responseUsage(turn: FakeTurn) {
  const uncached = turn.usage?.input ?? 12;
  const cached = turn.usage?.cacheRead ?? 0;
  const out = turn.usage?.output ?? Math.max(1, Math.ceil((turn.text?.length ?? 0) / 4));
  const reasoning = turn.thinking ? Math.ceil(turn.thinking.length / 4) : 0;
  return {
    input_tokens: uncached + cached,
    input_tokens_details: { cached_tokens: cached },
    output_tokens: out + reasoning,
    output_tokens_details: { reasoning_tokens: reasoning },
    total_tokens: uncached + cached + out + reasoning,
  };
}

/** One response being streamed: its sequence numbers and the output items written so far. */
class ResponseStream {
  private sequence = 0;
  private readonly output: Record<string, unknown>[] = [];
  private readonly id = newId("resp");
  private readonly createdAt = Math.floor(Date.now() / 1000);
  private readonly size: number;

  constructor(
    private readonly turn: FakeTurn,
    private readonly ctx: TurnContext,
  ) {
    this.size = turn.chunkSize ?? 8;
  }

  emit(type: string, fields: Record<string, unknown>): Promise<void> {
    return this.ctx.send(type, { type, sequence_number: this.sequence++, ...fields });
  }

  /** The `response` object of the lifecycle events, echoing the request's settings. */
  response(status: string, extra: Record<string, unknown> = {}) {
    const body = this.ctx.body ?? {};
    return {
      id: this.id,
      object: "response",
      created_at: this.createdAt,
      status,
      background: false,
      error: null,
      incomplete_details: null,
      instructions: body.instructions ?? null,
      max_output_tokens: body.max_output_tokens ?? null,
      model: body.model,
      output: [...this.output],
      parallel_tool_calls: true,
      previous_response_id: null,
      reasoning: body.reasoning ?? { effort: null, summary: null },
      store: body.store ?? true,
      temperature: 1,
      text: { format: { type: "text" } },
      tool_choice: "auto",
      tools: body.tools ?? [],
      top_p: 1,
      truncation: "disabled",
      usage: null,
      metadata: {},
      ...extra,
    };
  }

  /** A reasoning item whose summary has one part per paragraph, as the API splits them. */
  async reasoning(thinking: string): Promise<void> {
    const id = newId("rs");
    const output_index = this.output.length;
    await this.emit("response.output_item.added", { output_index, item: { id, type: "reasoning", summary: [] } });
    const parts = thinking.split("\n\n");
    for (const [summary_index, text] of parts.entries()) {
      const where = { item_id: id, output_index, summary_index };
      await this.emit("response.reasoning_summary_part.added", { ...where, part: { type: "summary_text", text: "" } });
      for (const delta of chunkText(text, this.size)) {
        await this.emit("response.reasoning_summary_text.delta", { ...where, delta });
      }
      await this.emit("response.reasoning_summary_text.done", { ...where, text });
      await this.emit("response.reasoning_summary_part.done", { ...where, part: { type: "summary_text", text } });
    }
    const item: Record<string, unknown> = { id, type: "reasoning", summary: parts.map((text) => ({ type: "summary_text", text })) };
    // Stateless (store: false) callers get the reasoning back only when they asked for it.
    const include: unknown = this.ctx.body?.include;
    if (Array.isArray(include) && include.includes("reasoning.encrypted_content")) {
      item.encrypted_content = `gAAAAA${randomBytes(24).toString("base64")}`;
    }
    await this.emit("response.output_item.done", { output_index, item });
    this.output.push(item);
  }

  /**
   * The assistant message: text (or a refusal) in one content part. False when the turn ends
   * inside it (`hang`, `streamError`).
   */
  async message(text: string, refusal: boolean): Promise<boolean> {
    const id = newId("msg");
    const output_index = this.output.length;
    const where = { item_id: id, output_index, content_index: 0 };
    const item = { id, type: "message", status: "in_progress", content: [] as unknown[], role: "assistant" };
    const part = (value: string) =>
      refusal ? { type: "refusal", refusal: value } : { type: "output_text", annotations: [], logprobs: [], text: value };
    await this.emit("response.output_item.added", { output_index, item });
    await this.emit("response.content_part.added", { ...where, part: part("") });
    for (const delta of chunkText(text, this.size)) {
      if (refusal) await this.emit("response.refusal.delta", { ...where, delta });
      else await this.emit("response.output_text.delta", { ...where, delta, logprobs: [] });
      // Both a hang and a mid-stream failure come right after the first piece of the answer; the
      // server keeps a hanging stream open until the client leaves.
      if (this.turn.hang) return false;
      if (this.turn.streamError) {
        const error = { code: this.turn.streamError.type ?? "server_error", message: this.turn.streamError.message };
        await this.emit("response.failed", { response: this.response("failed", { error }) });
        return false;
      }
    }
    if (refusal) await this.emit("response.refusal.done", { ...where, refusal: text });
    else await this.emit("response.output_text.done", { ...where, text, logprobs: [] });
    await this.emit("response.content_part.done", { ...where, part: part(text) });
    const status = this.turn.stop === "max_tokens" ? "incomplete" : "completed";
    const done = { ...item, status, content: [part(text)] };
    await this.emit("response.output_item.done", { output_index, item: done });
    this.output.push(done);
    return true;
  }

  /** A function call with streamed arguments, or a native `apply_patch_call` item. */
  async toolCall(call: FakeToolCall): Promise<void> {
    const call_id = call.id ?? newId("call");
    const output_index = this.output.length;
    if (call.nativeKind === "computer_call") {
      // A computer call arrives whole: its actions and the safety checks OpenAI attaches.
      const input = call.input as { actions: unknown[]; pending_safety_checks?: unknown[] };
      const item = { id: newId("cu"), type: "computer_call", status: "in_progress", call_id, actions: input.actions, pending_safety_checks: input.pending_safety_checks ?? [] };
      await this.emit("response.output_item.added", { output_index, item });
      const done = { ...item, status: "completed" };
      await this.emit("response.output_item.done", { output_index, item: done });
      this.output.push(done);
      return;
    }
    if (call.nativeKind === "apply_patch_call") {
      // The SDK defines no delta events for apply_patch_call: the item arrives whole.
      const item = { id: newId("apc"), type: "apply_patch_call", status: "in_progress", call_id, operation: call.input };
      await this.emit("response.output_item.added", { output_index, item });
      const done = { ...item, status: "completed" };
      await this.emit("response.output_item.done", { output_index, item: done });
      this.output.push(done);
      return;
    }
    const id = newId("fc");
    const args = JSON.stringify(call.input ?? {});
    const item = { id, type: "function_call", status: "in_progress", arguments: "", call_id, name: call.name };
    await this.emit("response.output_item.added", { output_index, item });
    for (const delta of chunkText(args, this.size)) {
      await this.emit("response.function_call_arguments.delta", { item_id: id, output_index, delta });
    }
    await this.emit("response.function_call_arguments.done", { item_id: id, output_index, name: call.name, arguments: args });
    const done = { ...item, status: "completed", arguments: args };
    await this.emit("response.output_item.done", { output_index, item: done });
    this.output.push(done);
  }
}

/** Checks the bearer token every OpenAI-style API requires. */
export function checkBearer(headers: IncomingHttpHeaders): string[] {
  return /^Bearer \S+/.test(headers.authorization ?? "") ? [] : ["missing `Authorization: Bearer <key>` header"];
}

const isObject = (v: unknown): v is Record<string, any> => typeof v === "object" && v !== null && !Array.isArray(v);
const INPUT_PARTS = new Set(["input_text", "input_image", "input_file"]);
const PATCH_OPERATIONS = new Set(["create_file", "update_file", "delete_file"]);

/** Every way a Responses request breaks the API's contract. */
function validateResponsesRequest(body: any, _path: string, headers: IncomingHttpHeaders): string[] {
  const v = checkBearer(headers);
  if (!isObject(body)) return [...v, "body is not a JSON object"];
  if (typeof body.model !== "string" || !body.model) v.push("`model` must be a non-empty string");
  if (body.stream !== true) v.push("the fake serves only `stream: true` requests");
  if (body.instructions !== undefined && typeof body.instructions !== "string") v.push("`instructions` must be a string");
  if (body.max_output_tokens !== undefined && !(Number.isInteger(body.max_output_tokens) && body.max_output_tokens >= 16)) {
    v.push("`max_output_tokens` must be an integer >= 16");
  }
  if (body.include !== undefined && !Array.isArray(body.include)) v.push("`include` must be an array");
  v.push(...validateTools(body.tools));
  if (!Array.isArray(body.input)) return [...v, "`input` must be an array of items"];
  v.push(...validateInput(body.input, body.store === false));
  return v;
}

function validateTools(tools: unknown): string[] {
  if (tools === undefined) return [];
  if (!Array.isArray(tools)) return ["`tools` must be an array"];
  const v: string[] = [];
  const names = new Set<string>();
  tools.forEach((tool, i) => {
    if (isObject(tool) && tool.type === "apply_patch") return;
    if (isObject(tool) && tool.type === "computer") {
      if (Object.keys(tool).length !== 1) v.push(`tools[${i}]: the computer tool takes only its type`);
      return;
    }
    if (!isObject(tool) || tool.type !== "function") {
      v.push(`tools[${i}]: type must be "function" or "apply_patch" (the fake models no other tool)`);
    } else if (typeof tool.name !== "string" || !/^[a-zA-Z0-9_-]{1,64}$/.test(tool.name)) {
      v.push(`tools[${i}]: function tools need a name matching ^[a-zA-Z0-9_-]{1,64}$`);
    } else if (!isObject(tool.parameters)) {
      v.push(`tools[${i}] (${tool.name}): \`parameters\` must be a JSON Schema object`);
    } else if (names.has(tool.name)) {
      v.push(`tools[${i}]: duplicate tool name ${tool.name}`);
    } else names.add(tool.name);
  });
  return v;
}

/** Item shapes, plus: every call has exactly one output after it, and every output a call. */
function validateInput(input: unknown[], stateless: boolean): string[] {
  const v: string[] = [];
  const open = new Map<string, string>(); // call_id -> call item type, until answered
  const seen = new Set<string>();
  input.forEach((item, i) => {
    const at = `input[${i}]`;
    if (!isObject(item)) return v.push(`${at}: not an object`);
    const type = item.type ?? (item.role ? "message" : undefined);
    switch (type) {
      case "message":
        return v.push(...validateMessage(item, at));
      case "reasoning":
        if (typeof item.id !== "string" || !Array.isArray(item.summary)) v.push(`${at}: reasoning items need id and summary[]`);
        // With store: false the server kept nothing; a reasoning item must bring its state along.
        if (stateless && typeof item.encrypted_content !== "string") {
          v.push(`${at}: reasoning item ${item.id} has no encrypted_content, and store is false so the API cannot find it`);
        }
        return;
      case "function_call":
      case "apply_patch_call":
      case "computer_call": {
        if (typeof item.call_id !== "string") return v.push(`${at}: ${type} needs a call_id`);
        if (seen.has(item.call_id)) v.push(`${at}: duplicate call_id ${item.call_id}`);
        seen.add(item.call_id);
        open.set(item.call_id, type);
        if (type === "computer_call") return v.push(...validateComputerCall(item, at));
        return v.push(...(type === "function_call" ? validateFunctionCall(item, at) : validatePatchCall(item, at)));
      }
      case "function_call_output":
      case "apply_patch_call_output":
      case "computer_call_output": {
        const callType = type.replace(/_output$/, "");
        if (open.get(item.call_id) !== callType) {
          return v.push(`${at}: ${type} for call_id ${item.call_id} has no ${callType} before it`);
        }
        open.delete(item.call_id);
        return v.push(...validateOutput(item, type, at));
      }
      default:
        v.push(`${at}: unexpected item type ${JSON.stringify(type)}`);
    }
  });
  for (const [callId, type] of open) v.push(`No tool output found for ${type} ${callId}`);
  return v;
}

function validateMessage(item: Record<string, any>, at: string): string[] {
  if (!["user", "assistant", "system", "developer"].includes(item.role)) return [`${at}: bad role ${item.role}`];
  if (typeof item.content === "string") return [];
  if (!Array.isArray(item.content)) return [`${at}: content must be a string or an array of parts`];
  const allowed = item.role === "assistant" ? new Set(["output_text", "refusal"]) : INPUT_PARTS;
  return item.content.flatMap((part: any, j: number) => {
    if (!isObject(part) || !allowed.has(part.type)) return [`${at}.content[${j}]: part type ${part?.type} not allowed for role ${item.role}`];
    return validatePart(part, `${at}.content[${j}]`);
  });
}

function validatePart(part: Record<string, any>, at: string): string[] {
  if ((part.type === "input_text" || part.type === "output_text") && typeof part.text !== "string") return [`${at}: text must be a string`];
  if (part.type === "input_image" && !(typeof part.file_id === "string" || /^(data:image\/[\w.+-]+;base64,|https?:)/.test(part.image_url ?? ""))) {
    return [`${at}: input_image needs a file_id or an image_url (https or data:image/...;base64,)`];
  }
  return [];
}

function validateFunctionCall(item: Record<string, any>, at: string): string[] {
  if (typeof item.name !== "string") return [`${at}: function_call needs a name`];
  if (typeof item.arguments !== "string") return [`${at}: function_call arguments must be a JSON string`];
  try {
    JSON.parse(item.arguments);
    return [];
  } catch {
    return [`${at}: function_call arguments are not valid JSON`];
  }
}

function validatePatchCall(item: Record<string, any>, at: string): string[] {
  const op = item.operation;
  if (item.status !== "completed" && item.status !== "in_progress") return [`${at}: apply_patch_call status must be completed or in_progress`];
  if (!isObject(op) || !PATCH_OPERATIONS.has(op.type) || typeof op.path !== "string") {
    return [`${at}: apply_patch_call operation needs type create_file|update_file|delete_file and a path`];
  }
  return op.type !== "delete_file" && typeof op.diff !== "string" ? [`${at}: ${op.type} needs a diff`] : [];
}

function validateComputerCall(item: Record<string, any>, at: string): string[] {
  const v: string[] = [];
  if (typeof item.id !== "string") v.push(`${at}: computer_call needs its id`);
  if (!Array.isArray(item.actions) && !isObject(item.action)) v.push(`${at}: computer_call needs actions`);
  if (!Array.isArray(item.pending_safety_checks)) v.push(`${at}: computer_call needs pending_safety_checks[]`);
  return v;
}

function validateOutput(item: Record<string, any>, type: string, at: string): string[] {
  if (type === "computer_call_output") {
    const out = item.output;
    if (!isObject(out) || out.type !== "computer_screenshot" || !/^data:image\/(png|jpeg|webp);base64,/.test(out.image_url ?? "")) {
      return [`${at}: computer_call_output needs output {type: "computer_screenshot", image_url: data:image/...}`];
    }
    const acks = item.acknowledged_safety_checks;
    return acks === undefined || (Array.isArray(acks) && acks.every((c: any) => typeof c?.id === "string")) ? [] : [`${at}: acknowledged_safety_checks must be [{id, ...}]`];
  }
  if (type === "apply_patch_call_output") {
    const v = item.status === "completed" || item.status === "failed" ? [] : [`${at}: status must be completed or failed`];
    if (item.output !== undefined && item.output !== null && typeof item.output !== "string") v.push(`${at}: output must be a string`);
    return v;
  }
  if (typeof item.output === "string") return [];
  if (!Array.isArray(item.output)) return [`${at}: output must be a string or an array of input parts`];
  return item.output.flatMap((part: any, j: number) =>
    isObject(part) && INPUT_PARTS.has(part.type) ? validatePart(part, `${at}.output[${j}]`) : [`${at}.output[${j}]: bad part type ${part?.type}`],
  );
}

/** The Responses wire format; the SDK asks for `/responses` under a base URL ending in `/v1`. */
export const format: WireFormat = {
  name: "openai-responses",
  matches: (method, path) => method === "POST" && /^(\/v1)?\/responses$/.test(path.split("?")[0]!),
  validate: validateResponsesRequest,
  writeError: writeOpenAIError,
  writeTurn: writeResponsesTurn,
};
