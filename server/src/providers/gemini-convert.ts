/**
 * Neutral conversation -> Gemini `generateContent` request. Pure: no SDK at run time (the
 * `@google/genai` imports here are types only, erased by the compiler).
 */
import type { Content, Environment, FunctionDeclaration, GenerateContentConfig, Part, Tool } from "@google/genai";
import { GEMINI_COMPUTER } from "./native/gemini-computer.js";
import type { AssistantBlock, ContentBlock, Message, ToolCallBlock, ToolResultBlock } from "../vocabulary/messages.js";
import type { ProviderRequest } from "./provider.js";

/**
 * What Gemini needs back verbatim, kept under `providerData.gemini` of a ToolCallBlock or
 * ThinkingBlock so that another provider's opaque state is never mistaken for Gemini's.
 */
export interface GeminiPartData {
  /** The part's `thoughtSignature`, returned on the same part in later requests. */
  thoughtSignature?: string;
  /** The id Gemini gave a functionCall; absent when the adapter generated the call id. */
  callId?: string;
  /** The signature rode on an answer text part, not on a thought: replay it as a text part. */
  onText?: boolean;
}

/** Reads the Gemini state of a block, if the block came from Gemini. */
function geminiData(providerData: unknown): GeminiPartData | undefined {
  const data = (providerData as { gemini?: unknown } | undefined)?.gemini;
  return typeof data === "object" && data !== null ? (data as GeminiPartData) : undefined;
}

/** Wraps Gemini state for a block's `providerData`. */
export function toProviderData(data: GeminiPartData): { gemini: GeminiPartData } {
  return { gemini: data };
}

/**
 * Google's documented stand-in for a signature on calls no Gemini model made (history from another
 * provider): Gemini 3 rejects an unsigned first call of a step in the current turn.
 */
const SKIP_SIGNATURE = "skip_thought_signature_validator";

/** Only the newest images are sent; older ones cost tokens and rarely matter (issue 6). */
export const MAX_IMAGES = 3;

/**
 * Our tools as function declarations (Gemini's `parametersJsonSchema` takes JSON Schema as is),
 * and Gemini's computer use in place of our computer tool when it is offered natively.
 */
function toGeminiTools(tools: ProviderRequest["tools"], nativeTools: ProviderRequest["nativeTools"] = []): Tool[] | undefined {
  const computer = nativeTools.some((t) => t.kind === GEMINI_COMPUTER.kind);
  const functionDeclarations: FunctionDeclaration[] = tools
    .filter((tool) => !(computer && tool.name === GEMINI_COMPUTER.name))
    .map((tool) => ({ name: tool.name, description: tool.description, parametersJsonSchema: { type: "object", ...tool.inputSchema } }));
  const out: Tool[] = functionDeclarations.length ? [{ functionDeclarations }] : [];
  if (computer) out.push({ computerUse: { environment: "ENVIRONMENT_BROWSER" as Environment, excludedPredefinedFunctions: [...GEMINI_COMPUTER.excluded] } });
  return out.length ? out : undefined;
}

/** The request config: system prompt, limits, tools, thinking. */
export function toGeminiConfig(request: ProviderRequest): GenerateContentConfig {
  const budget = request.thinkingBudget ?? 0;
  return {
    systemInstruction: request.system ? request.system : undefined,
    maxOutputTokens: request.maxTokens,
    tools: toGeminiTools(request.tools, request.nativeTools),
    // Absent budget: leave thinking at the model's default; some models cannot turn it off.
    thinkingConfig: budget > 0 ? { includeThoughts: true, thinkingBudget: budget } : undefined,
  };
}

/** Decides, newest first, which images of the conversation are still sent. */
function imagesToKeep(messages: Message[]): Set<ContentBlock> {
  const kept = new Set<ContentBlock>();
  for (let m = messages.length - 1; m >= 0 && kept.size < MAX_IMAGES; m--) {
    const message = messages[m]!;
    const blocks = message.role === "tool" ? message.content.flatMap((r) => r.content) : message.role === "user" ? message.content : [];
    for (let b = blocks.length - 1; b >= 0 && kept.size < MAX_IMAGES; b--) {
      if (blocks[b]!.type === "image") kept.add(blocks[b]!);
    }
  }
  return kept;
}

function userPart(block: ContentBlock, kept: Set<ContentBlock>): Part | undefined {
  if (block.type === "text") return block.text ? { text: block.text } : undefined;
  if (!kept.has(block)) return { text: `[image omitted: only the newest ${MAX_IMAGES} images are sent]` };
  return { inlineData: { mimeType: block.mediaType, data: block.data } };
}

function modelParts(blocks: AssistantBlock[]): Part[] {
  const parts: Part[] = [];
  let firstCall = true;
  for (const block of blocks) {
    if (block.type === "text") {
      if (block.text) parts.push({ text: block.text });
    } else if (block.type === "thinking") {
      // Thinking from another provider means nothing to Gemini, and its signature would be rejected.
      const data = geminiData(block.providerData);
      if (!data || (!block.text && !data.thoughtSignature)) continue;
      const signature = data.thoughtSignature ? { thoughtSignature: data.thoughtSignature } : {};
      parts.push(data.onText ? { text: block.text, ...signature } : { text: block.text, thought: true, ...signature });
    } else {
      parts.push(callPart(block, firstCall));
      firstCall = false;
    }
  }
  return parts;
}

function callPart(call: ToolCallBlock, firstOfStep: boolean): Part {
  const data = geminiData(call.providerData);
  const signature = data?.thoughtSignature ?? (firstOfStep ? SKIP_SIGNATURE : undefined);
  return {
    // A native call goes back as the model wrote it, not as the tool it was rewritten to.
    functionCall: { ...(data?.callId && { id: data.callId }), name: call.native?.name ?? call.name, args: asArgs(call.native ? call.native.input : call.input) },
    ...(signature && { thoughtSignature: signature }),
  };
}

/** How a result answers its call: Gemini's id, the name the model called, a confirmation it asked. */
interface CallKey {
  id: string | undefined;
  name: string;
  confirmed: boolean;
}

function callKey(call: ToolCallBlock): CallKey {
  const decision = (call.native?.input as { safety_decision?: { decision?: string } } | undefined)?.safety_decision;
  return { id: geminiData(call.providerData)?.callId, name: call.native?.name ?? call.name, confirmed: decision?.decision === "require_confirmation" };
}

/** Gemini's args are a Struct: a JSON object. */
function asArgs(input: unknown): Record<string, unknown> {
  return typeof input === "object" && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : { input };
}

/**
 * Function responses first, each keyed by the call's name (and Gemini's id when it sent one), then
 * the results' images as inlineData in the same user turn, each run labelled with its tool.
 */
function toolResultParts(results: ToolResultBlock[], callIds: Map<string, CallKey>, kept: Set<ContentBlock>): Part[] {
  const responses: Part[] = [];
  const images: Part[] = [];
  for (const result of results) {
    const text = result.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n");
    const key = callIds.get(result.toolCallId);
    const id = key?.id;
    const response: Record<string, unknown> = result.isError ? { error: text } : { output: text };
    // A confirmation Gemini asked for was given when the call ran (the gate showed it).
    if (key?.confirmed && !result.isError) response.safety_acknowledgement = "true";
    responses.push({ functionResponse: { ...(id && { id }), name: key?.name ?? result.name, response } });
    const pictures = result.content.filter((b) => b.type === "image").flatMap((b) => userPart(b, kept) ?? []);
    if (pictures.length > 0) images.push({ text: `Image output of ${result.name}:` }, ...pictures);
  }
  return [...responses, ...images];
}

/**
 * Converts the neutral history to Gemini contents: `assistant` -> `model`, `user` and `tool` ->
 * `user`. Consecutive same-role turns are merged (a tool result followed by a user message is one
 * user turn) and turns with nothing to send are dropped: Gemini rejects empty `parts`.
 */
export function toGeminiContents(messages: Message[]): Content[] {
  const kept = imagesToKeep(messages);
  const callIds = new Map<string, CallKey>();
  const contents: Content[] = [];
  for (const message of messages) {
    let role: "user" | "model";
    let parts: Part[];
    if (message.role === "assistant") {
      for (const block of message.content) {
        if (block.type === "tool_call") callIds.set(block.id, callKey(block));
      }
      role = "model";
      parts = modelParts(message.content);
    } else if (message.role === "tool") {
      role = "user";
      parts = toolResultParts(message.content, callIds, kept);
    } else {
      role = "user";
      parts = message.content.flatMap((b) => userPart(b, kept) ?? []);
    }
    if (parts.length === 0) continue;
    const last = contents[contents.length - 1];
    if (last?.role === role) last.parts!.push(...parts);
    else contents.push({ role, parts });
  }
  return contents;
}
