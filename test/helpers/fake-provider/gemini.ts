/**
 * The Gemini API (`generativelanguage.googleapis.com`, v1beta) streaming wire format, as
 * `@google/genai` speaks it: `POST /v1beta/models/{model}:streamGenerateContent?alt=sse` with the
 * key in `x-goog-api-key`, answered by data-only SSE events (CRLF framed, as Google sends them) whose
 * payload is one `GenerateContentResponse` each. Errors are Google's JSON error envelope.
 */
import type { IncomingHttpHeaders, ServerResponse } from "node:http";
import type { FakeTurn, TurnContext, WireFormat } from "./types.js";

const STREAM_PATH = /^\/v1beta\/models\/([^/:?]+):streamGenerateContent$/;
/** The Gemini API's documented function-name rule (generativelanguage v1beta FunctionDeclaration). */
const FUNCTION_NAME = /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/;
/** Keywords of Gemini's OpenAPI `Schema` message; anything else in `parameters` is rejected. */
const SCHEMA_KEYS = new Set([
  "anyOf", "default", "description", "enum", "example", "format", "items", "maxItems", "maxLength",
  "maxProperties", "maximum", "minItems", "minLength", "minProperties", "minimum", "nullable",
  "pattern", "properties", "propertyOrdering", "required", "title", "type",
]);
const SCHEMA_TYPES = new Set(["STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT", "NULL"]);
/** One data field per part; `thought`, `thoughtSignature`, `partMetadata` are metadata beside it. */
const PART_DATA_KEYS = [
  "text", "inlineData", "fileData", "functionCall", "functionResponse", "executableCode",
  "codeExecutionResult",
];
/** Values Google documents for replaying calls that no Gemini model signed (other providers). */
export const DUMMY_THOUGHT_SIGNATURES = ["skip_thought_signature_validator", "context_engineering_is_the_way_to_go"];
const SIGNATURE_PREFIX = "fake-gemini-sig:";

const STATUS_NAMES: Record<number, string> = {
  400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED", 404: "NOT_FOUND",
  429: "RESOURCE_EXHAUSTED", 500: "INTERNAL", 503: "UNAVAILABLE", 504: "DEADLINE_EXCEEDED",
};
const STOP_REASONS: Record<NonNullable<FakeTurn["stop"]>, string> = {
  end_turn: "STOP", tool_use: "STOP", max_tokens: "MAX_TOKENS", refusal: "SAFETY",
};

/** Splits a request target into the path and its query. */
function splitTarget(target: string): { pathname: string; query: URLSearchParams } {
  const url = new URL(target, "http://fake.invalid");
  return { pathname: url.pathname, query: url.searchParams };
}

/** A signature the fake hands out; only these and Google's documented dummies validate. */
export function fakeThoughtSignature(seed: string): string {
  return Buffer.from(SIGNATURE_PREFIX + seed).toString("base64");
}

function isValidSignature(value: unknown): boolean {
  if (typeof value !== "string") return false;
  if (DUMMY_THOUGHT_SIGNATURES.includes(value)) return true;
  return Buffer.from(value, "base64").toString("utf8").startsWith(SIGNATURE_PREFIX);
}

function isObject(value: unknown): value is Record<string, any> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function validateSchema(schema: unknown, where: string, out: string[]): void {
  if (!isObject(schema)) return void out.push(`${where}: a schema must be an object`);
  for (const key of Object.keys(schema)) {
    if (!SCHEMA_KEYS.has(key)) out.push(`${where}: Gemini's Schema has no field "${key}" (send parametersJsonSchema for JSON Schema)`);
  }
  if (schema.type !== undefined && !SCHEMA_TYPES.has(String(schema.type).toUpperCase())) {
    out.push(`${where}.type: invalid type ${JSON.stringify(schema.type)}`);
  }
  if (isObject(schema.properties)) {
    for (const [name, sub] of Object.entries(schema.properties)) validateSchema(sub, `${where}.properties.${name}`, out);
  }
  if (schema.items !== undefined) validateSchema(schema.items, `${where}.items`, out);
  if (Array.isArray(schema.anyOf)) schema.anyOf.forEach((sub: unknown, i: number) => validateSchema(sub, `${where}.anyOf[${i}]`, out));
}

function validateTools(tools: unknown, out: string[]): void {
  if (tools === undefined) return;
  if (!Array.isArray(tools)) return void out.push("tools: must be an array");
  const seen = new Set<string>();
  tools.forEach((tool, t) => {
    if (isObject(tool) && tool.computerUse !== undefined) {
      const cu = tool.computerUse;
      if (!isObject(cu) || cu.environment !== "ENVIRONMENT_BROWSER") out.push(`tools[${t}].computerUse.environment: must be ENVIRONMENT_BROWSER`);
      if (cu?.excludedPredefinedFunctions !== undefined && !Array.isArray(cu.excludedPredefinedFunctions)) out.push(`tools[${t}].computerUse.excludedPredefinedFunctions: must be an array`);
      return;
    }
    const decls = isObject(tool) ? tool.functionDeclarations : undefined;
    if (decls === undefined) return;
    if (!Array.isArray(decls)) return void out.push(`tools[${t}].functionDeclarations: must be an array`);
    decls.forEach((decl: any, d: number) => {
      const where = `tools[${t}].functionDeclarations[${d}]`;
      if (typeof decl?.name !== "string" || !FUNCTION_NAME.test(decl.name)) {
        out.push(`${where}.name: ${JSON.stringify(decl?.name)} is not a valid function name`);
      } else if (seen.has(decl.name)) {
        out.push(`${where}.name: duplicate function name ${decl.name}`);
      } else seen.add(decl.name);
      if (decl.parameters !== undefined && decl.parametersJsonSchema !== undefined) {
        out.push(`${where}: parameters and parametersJsonSchema are mutually exclusive`);
      }
      if (decl.parameters !== undefined) validateSchema(decl.parameters, `${where}.parameters`, out);
      if (decl.parametersJsonSchema !== undefined && decl.parametersJsonSchema?.type !== "object") {
        out.push(`${where}.parametersJsonSchema: must describe an object (type "object")`);
      }
    });
  });
}

function validatePart(part: unknown, role: string, where: string, out: string[]): void {
  if (!isObject(part)) return void out.push(`${where}: a part must be an object`);
  const data = PART_DATA_KEYS.filter((key) => part[key] !== undefined);
  if (data.length !== 1) out.push(`${where}: a part needs exactly one data field, got ${data.join(", ") || "none"}`);
  if (part.inlineData !== undefined && (typeof part.inlineData?.mimeType !== "string" || typeof part.inlineData?.data !== "string")) {
    out.push(`${where}.inlineData: needs mimeType and base64 data`);
  }
  if (part.functionCall !== undefined) {
    if (role !== "model") out.push(`${where}: functionCall parts belong to the model`);
    if (part.functionCall.args !== undefined && !isObject(part.functionCall.args)) out.push(`${where}.functionCall.args: must be an object`);
  }
  if (part.functionResponse !== undefined) {
    if (role !== "user") out.push(`${where}: functionResponse parts belong to the user`);
    if (!isObject(part.functionResponse.response)) out.push(`${where}.functionResponse.response: must be a JSON object`);
  }
  if (part.thoughtSignature !== undefined && !isValidSignature(part.thoughtSignature)) {
    out.push(`${where}.thoughtSignature: Thought signature is not valid`);
  }
}

type Call = { name: string; id?: string };
const callsOf = (content: any, key: "functionCall" | "functionResponse"): Call[] =>
  (Array.isArray(content?.parts) ? content.parts : []).filter((p: any) => p?.[key]).map((p: any) => p[key]);

/** Every call answered in the next user turn, every response answering a call of the turn before. */
function validatePairing(contents: any[], out: string[]): void {
  contents.forEach((content, i) => {
    const responses = callsOf(content, "functionResponse");
    if (responses.length === 0) return;
    const calls = callsOf(contents[i - 1], "functionCall");
    if (calls.length !== responses.length) {
      out.push(`contents[${i}]: ${responses.length} function response parts answer ${calls.length} function call parts of the turn before; the counts must be equal`);
    }
    const open = [...calls];
    for (const response of responses) {
      const at = open.findIndex((c) => c.name === response.name && (c.id === undefined || c.id === response.id));
      if (at < 0) out.push(`contents[${i}]: functionResponse ${response.name}${response.id ? ` (${response.id})` : ""} answers no functionCall of contents[${i - 1}]`);
      else open.splice(at, 1);
    }
  });
  contents.forEach((content, i) => {
    if (callsOf(content, "functionCall").length === 0) return;
    if (contents[i - 1]?.role !== "user") {
      out.push(`contents[${i}]: Please ensure that function call turn comes immediately after a user turn or after a function response turn`);
    }
    if (i + 1 < contents.length && callsOf(contents[i + 1], "functionResponse").length === 0) {
      out.push(`contents[${i}]: the model's function calls are not answered by contents[${i + 1}]`);
    }
  });
}

/**
 * Gemini 3 rejects a request whose current turn (since the last user message that is not only
 * function responses) has a model step whose first functionCall lacks its thought signature.
 */
function validateSignaturesPresent(model: string, contents: any[], out: string[]): void {
  if (!/^gemini-3/.test(model)) return;
  let start = 0;
  contents.forEach((c, i) => {
    if (c?.role === "user" && (c.parts ?? []).some((p: any) => p?.functionResponse === undefined)) start = i;
  });
  for (let i = start; i < contents.length; i++) {
    const first = (contents[i]?.parts ?? []).find((p: any) => p?.functionCall);
    if (contents[i]?.role === "model" && first && first.thoughtSignature === undefined) {
      out.push(`contents[${i}]: Function call is missing a thought_signature in functionCall parts`);
    }
  }
}

function validate(body: any, path: string, headers: IncomingHttpHeaders): string[] {
  const out: string[] = [];
  const { pathname, query } = splitTarget(path);
  const model = STREAM_PATH.exec(pathname)?.[1] ?? "";
  if (!model) out.push(`path ${pathname}: expected /v1beta/models/{model}:streamGenerateContent`);
  if (query.get("alt") !== "sse") out.push("query: alt=sse is missing (the API would answer with a JSON array, not SSE)");
  if (!headers["x-goog-api-key"] && !query.get("key")) out.push("API key missing: no x-goog-api-key header and no key query parameter");
  if (!isObject(body)) return [...out, "body: must be a JSON object"];
  const contents = body.contents;
  if (!Array.isArray(contents) || contents.length === 0) return [...out, "contents: must be a non-empty array"];
  contents.forEach((content: any, i: number) => {
    if (content?.role !== "user" && content?.role !== "model") out.push(`contents[${i}].role: must be "user" or "model", got ${JSON.stringify(content?.role)}`);
    if (!Array.isArray(content?.parts) || content.parts.length === 0) return void out.push(`contents[${i}].parts: must be a non-empty array`);
    content.parts.forEach((part: unknown, p: number) => validatePart(part, content.role, `contents[${i}].parts[${p}]`, out));
  });
  validatePairing(contents, out);
  validateSignaturesPresent(model, contents, out);
  validateTools(body.tools, out);
  if (body.systemInstruction !== undefined && !Array.isArray(body.systemInstruction?.parts)) {
    out.push("systemInstruction: must be a Content with parts");
  }
  const thinking = body.generationConfig?.thinkingConfig;
  if (thinking?.thinkingBudget !== undefined && !Number.isInteger(thinking.thinkingBudget)) {
    out.push("generationConfig.thinkingConfig.thinkingBudget: must be an integer");
  }
  return out;
}

/** Google's JSON error envelope; RetryInfo travels in `details` as the API sends it. */
function writeError(res: ServerResponse, error: NonNullable<FakeTurn["error"]>): void {
  const status = error.type ?? STATUS_NAMES[error.status] ?? "UNKNOWN";
  const details = error.retryAfterSeconds === undefined ? undefined
    : [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: `${error.retryAfterSeconds}s` }];
  const body = { error: { code: error.status, message: error.message ?? `fake ${status}`, status, ...(details && { details }) } };
  // The server sets `retry-after` itself for every format.
  res.writeHead(error.status, { "content-type": "application/json; charset=UTF-8" });
  res.end(JSON.stringify(body, null, 2) + "\n");
}

function chunks(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** Token counts in Gemini's shape: prompt includes cached tokens, output splits into thoughts. */
function usageMetadata(turn: FakeTurn, final: boolean): Record<string, number> {
  const cached = turn.usage?.cacheRead ?? 0;
  const prompt = (turn.usage?.input ?? 12) + cached;
  const output = turn.usage?.output ?? Math.ceil(((turn.text ?? "").length + (turn.thinking ?? "").length) / 4) + 1;
  const thoughts = turn.thinking ? Math.min(output, Math.max(1, Math.ceil(turn.thinking.length / 4))) : 0;
  const candidates = final ? output - thoughts : 0;
  return {
    promptTokenCount: prompt,
    ...(final && { candidatesTokenCount: candidates }),
    totalTokenCount: prompt + thoughts + candidates,
    ...(cached > 0 && { cachedContentTokenCount: cached }),
    ...(thoughts > 0 && { thoughtsTokenCount: thoughts }),
  };
}

/** The parts the scripted model produces, in stream order, one array per SSE event. */
function partBatches(turn: FakeTurn, responseId: string): any[][] {
  const size = turn.chunkSize ?? 8;
  const batches: any[][] = chunks(turn.thinking ?? "", size).map((text) => [{ text, thought: true }]);
  batches.push(...chunks(turn.text ?? "", size).map((text) => [{ text }]));
  const calls = turn.toolCalls ?? [];
  if (calls.length > 0) {
    // Gemini sends whole calls (never partial args); the step's first call carries the signature.
    batches.push(calls.map((call, i) => ({
      functionCall: { ...(call.id && { id: call.id }), name: call.name, args: call.input ?? {} },
      ...(i === 0 && { thoughtSignature: fakeThoughtSignature(`${responseId}:call`) }),
    })));
  } else if (turn.thinking) {
    // Without calls, a thinking model signs the answer with an empty trailing text part.
    batches.push([{ text: "", thoughtSignature: fakeThoughtSignature(`${responseId}:text`) }]);
  }
  return batches;
}

async function writeTurn(turn: FakeTurn, ctx: TurnContext): Promise<void> {
  const model = STREAM_PATH.exec(splitTarget(ctx.path).pathname)?.[1] ?? "gemini";
  const responseId = Buffer.from(String(Math.random())).toString("base64url").slice(0, 22);
  const envelope = (candidate: Record<string, unknown> | undefined, final: boolean) => ({
    ...(candidate && { candidates: [{ ...candidate, index: 0 }] }),
    usageMetadata: usageMetadata(turn, final),
    modelVersion: model,
    responseId,
  });
  const content = (parts: any[]) => ({ content: { parts, role: "model" } });
  ctx.res.writeHead(200, { "content-type": "text/event-stream", "x-content-type-options": "nosniff" });
  const batches = partBatches(turn, responseId);

  if (turn.hang) {
    // The server keeps the stream open until the client goes away.
    await ctx.send(undefined, envelope(content(batches[0] ?? [{ text: "" }]), false));
    return;
  }
  if (turn.streamError) {
    for (const parts of batches.slice(0, Math.ceil(batches.length / 2))) await ctx.send(undefined, envelope(content(parts), false));
    const status = turn.streamError.type ?? "INTERNAL";
    const code = Number(Object.keys(STATUS_NAMES).find((c) => STATUS_NAMES[Number(c)] === status) ?? 500);
    await ctx.send(undefined, { error: { code, message: turn.streamError.message, status } });
    return;
  }
  const stop = STOP_REASONS[turn.stop ?? ((turn.toolCalls?.length ?? 0) > 0 ? "tool_use" : "end_turn")];
  if (stop === "SAFETY") {
    for (const parts of batches) await ctx.send(undefined, envelope(content(parts), false));
    await ctx.send(undefined, envelope({
      finishReason: "SAFETY",
      safetyRatings: [{ category: "HARM_CATEGORY_DANGEROUS_CONTENT", probability: "HIGH", blocked: true }],
    }, true));
  } else {
    // The last content event carries the finish reason and the final usage, as the API does.
    if (batches.length === 0) batches.push([{ text: "" }]);
    for (const [i, parts] of batches.entries()) {
      const last = i === batches.length - 1;
      await ctx.send(undefined, envelope({ ...content(parts), ...(last && { finishReason: stop }) }, last));
    }
  }
}

/** The Gemini `streamGenerateContent` wire format. */
export const format: WireFormat = {
  name: "gemini",
  matches: (method, path) => method === "POST" && STREAM_PATH.test(splitTarget(path).pathname),
  validate,
  writeError,
  writeTurn,
};
