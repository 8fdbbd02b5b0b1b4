/**
 * Neutral request -> OpenAI Responses request. The conversation is sent in full every call
 * (`store: false`: nothing is kept server-side), so reasoning comes back as encrypted items that we
 * replay verbatim, and every call is followed by its output item.
 */
import { JsonText, stringChars } from "../util/json-pieces.js";
import type {
  FunctionTool,
  ResponseCreateParamsStreaming,
  ResponseFunctionCallOutputItemList,
  ResponseInputItem,
  ResponseInputMessageContentList,
  ResponseReasoningItem,
  Tool,
} from "openai/resources/responses/responses";
import type { ContentBlock, ImageBlock, Message, ToolDefinition, ToolResultBlock } from "../vocabulary/messages.js";
import type { NativeToolSpec, ProviderRequest } from "./provider.js";
import { COMPUTER_CALL, OPENAI_COMPUTER } from "./native/openai-computer.js";

/** The native-tool kind that offers OpenAI's `apply_patch`. */
export const APPLY_PATCH_KIND = "openai_apply_patch";
/** The `native.kind` of a tool call the model made through the native `apply_patch` tool. */
export const APPLY_PATCH_CALL = "apply_patch_call";

/** Models that reason (and so take `reasoning` and return encrypted reasoning items). */
function isReasoningModel(model: string): boolean {
  return /^(gpt-5|o\d|codex)/i.test(model);
}

/**
 * Builds the streaming request. `reasoning` (from the provider's config options) overrides the
 * guess from the model name, for fine-tunes and proxies with other names.
 */
export function buildResponsesParams(request: ProviderRequest, reasoning?: boolean): ResponseCreateParamsStreaming {
  const params: ResponseCreateParamsStreaming = {
    model: request.model,
    input: toInputItems(request.messages, offersApplyPatch(request.nativeTools), offersComputer(request.nativeTools)),
    stream: true,
    store: false,
    max_output_tokens: request.maxTokens,
  };
  if (request.system) params.instructions = request.system;
  const tools = toTools(request.tools, request.nativeTools);
  if (tools.length > 0) params.tools = tools;
  if (reasoning ?? isReasoningModel(request.model)) {
    // Without store, the encrypted reasoning is the only way the next call can continue it.
    params.include = ["reasoning.encrypted_content"];
    params.reasoning = { summary: "auto" };
    const effort = effortFor(request.thinkingBudget);
    if (effort) params.reasoning.effort = effort;
  }
  return params;
}

/** A thinking budget in tokens, mapped onto the API's coarse effort levels. */
function effortFor(budget: number | undefined): "low" | "medium" | "high" | undefined {
  if (!budget || budget <= 0) return undefined;
  return budget <= 4096 ? "low" : budget <= 16384 ? "medium" : "high";
}

function offersApplyPatch(nativeTools: NativeToolSpec[] | undefined): boolean {
  return nativeTools?.some((t) => t.kind === APPLY_PATCH_KIND) ?? false;
}

function offersComputer(nativeTools: NativeToolSpec[] | undefined): boolean {
  return nativeTools?.some((t) => t.kind === OPENAI_COMPUTER.kind) ?? false;
}

/** Our tools as function tools; the native `apply_patch` replaces our tool of the same name. */
function toTools(tools: ToolDefinition[], nativeTools: NativeToolSpec[] | undefined): Tool[] {
  const patch = nativeTools?.find((t) => t.kind === APPLY_PATCH_KIND);
  const computer = offersComputer(nativeTools);
  const out: Tool[] = tools
    .filter((t) => t.name !== patch?.name && !(computer && t.name === OPENAI_COMPUTER.name))
    .map(
      (t): FunctionTool => ({
        type: "function",
        name: t.name,
        description: t.description,
        parameters: t.inputSchema,
        // Strict mode demands every property required and no extra keys; our schemas are not written so.
        strict: false,
      }),
    );
  if (patch) out.push({ type: "apply_patch" });
  if (computer) out.push({ type: "computer" } as Tool);
  return out;
}

/**
 * The conversation as input items. Native apply_patch calls go back in their own shape only while
 * the request offers that tool; once the session fell back to our schemas they replay as what
 * they ran as, a call of our apply_patch.
 */
function toInputItems(messages: Message[], nativePatch: boolean, nativeComputer = false): ResponseInputItem[] {
  const items: ResponseInputItem[] = [];
  // Results of native apply_patch calls must answer as apply_patch_call_output, not function output.
  const patchCalls = new Set<string>();
  // Native computer calls, by call id, with the safety checks their output acknowledges.
  const computerCalls = new Map<string, unknown[]>();
  for (const message of messages) {
    if (message.role === "user") {
      const content = toInputContent(message.content);
      if (content.length > 0) items.push({ type: "message", role: "user", content });
    } else if (message.role === "assistant") {
      items.push(...assistantItems(message.content, nativePatch ? patchCalls : undefined, nativeComputer ? computerCalls : undefined));
    } else {
      items.push(...toolResultItems(message.content, patchCalls, computerCalls));
    }
  }
  return items;
}

function toInputContent(blocks: ContentBlock[]): ResponseInputMessageContentList {
  return blocks.flatMap((b): ResponseInputMessageContentList => {
    if (b.type === "image") return [{ type: "input_image", image_url: dataUrl(b), detail: "auto" }];
    return b.text ? [{ type: "input_text", text: b.text }] : [];
  });
}

/** Text, replayed reasoning and calls, in the order the model produced them. */
function assistantItems(
  blocks: Extract<Message, { role: "assistant" }>["content"],
  patchCalls: Set<string> | undefined,
  computerCalls: Map<string, unknown[]> | undefined,
): ResponseInputItem[] {
  const items: ResponseInputItem[] = [];
  let text = "";
  const flushText = () => {
    if (text) items.push({ type: "message", role: "assistant", content: text });
    text = "";
  };
  for (const block of blocks) {
    if (block.type === "text") {
      text += block.text;
      continue;
    }
    flushText();
    if (block.type === "thinking") {
      // Only reasoning items this API produced can go back; another provider's thinking cannot.
      if (isReasoningItem(block.providerData)) items.push(block.providerData);
    } else if (patchCalls && block.native?.kind === APPLY_PATCH_CALL) {
      patchCalls.add(block.id);
      const operation = block.native.input as Extract<ResponseInputItem, { type: "apply_patch_call" }>["operation"];
      items.push({ type: "apply_patch_call", call_id: block.id, status: "completed", operation });
    } else if (computerCalls && block.native?.kind === COMPUTER_CALL) {
      const call = block.native.input as { id?: string; actions?: unknown[]; action?: unknown; pending_safety_checks?: unknown[] };
      computerCalls.set(block.id, call.pending_safety_checks ?? []);
      items.push({
        type: "computer_call",
        id: call.id ?? `cu_${block.id}`,
        call_id: block.id,
        status: "completed",
        pending_safety_checks: call.pending_safety_checks ?? [],
        ...(call.actions ? { actions: call.actions } : { action: call.action }),
      } as unknown as ResponseInputItem);
    } else {
      items.push({ type: "function_call", call_id: block.id, name: block.name, arguments: argumentsText(block.input) });
    }
  }
  flushText();
  return items;
}

/** Inputs with more string data than this (in characters) are serialised when the body is written. */
const LARGE_INPUT_CHARS = 1 << 20;

/**
 * A call's `arguments` (in both OpenAI APIs): the JSON of its input (a string input is sent as the model wrote it). A
 * large input (a 50 MB `create`) stays a value that the request body serialises a piece at a
 * time (largeJsonBody), or JSON.stringify whole if the SDK writes the body: either way the same
 * string, without a 50 MB JSON.stringify while the request is put together.
 */
export function argumentsText(input: unknown): string {
  if (typeof input === "string") return input;
  if (stringChars(input, LARGE_INPUT_CHARS) > LARGE_INPUT_CHARS) return new JsonText(input) as unknown as string;
  return JSON.stringify(input ?? {});
}

function isReasoningItem(data: unknown): data is ResponseReasoningItem {
  return typeof data === "object" && data !== null && (data as { type?: unknown }).type === "reasoning";
}

/**
 * One output item per result. Function outputs carry their images inline (the API takes
 * input_image parts there); apply_patch outputs take text only, so their images follow the run of
 * results as a user message.
 */
function toolResultItems(results: ToolResultBlock[], patchCalls: Set<string>, computerCalls: Map<string, unknown[]>): ResponseInputItem[] {
  const items: ResponseInputItem[] = [];
  const strayImages: ResponseInputMessageContentList = [];
  const notes: string[] = [];
  for (const result of results) {
    const text = resultText(result);
    const images = result.content.filter((b): b is ImageBlock => b.type === "image");
    const checks = computerCalls.get(result.toolCallId);
    if (checks) {
      items.push(computerOutput(result, images.at(-1), checks));
      // The output holds only the screenshot; what the actions said follows as text.
      notes.push(`computer call ${result.toolCallId}: ${text}`);
    } else if (patchCalls.has(result.toolCallId)) {
      const status = result.isError ? "failed" : "completed";
      items.push({ type: "apply_patch_call_output", call_id: result.toolCallId, status, output: text });
      strayImages.push(...images.map((b) => ({ type: "input_image" as const, image_url: dataUrl(b), detail: "auto" as const })));
    } else if (images.length === 0) {
      items.push({ type: "function_call_output", call_id: result.toolCallId, output: text });
    } else {
      const output: ResponseFunctionCallOutputItemList = [
        { type: "input_text", text },
        ...images.map((b) => ({ type: "input_image" as const, image_url: dataUrl(b), detail: "auto" as const })),
      ];
      items.push({ type: "function_call_output", call_id: result.toolCallId, output });
    }
  }
  if (strayImages.length > 0) {
    items.push({ type: "message", role: "user", content: [{ type: "input_text", text: "Images from the tool results above:" }, ...strayImages] });
  }
  if (notes.length > 0) items.push({ type: "message", role: "user", content: [{ type: "input_text", text: notes.join("\n") }] });
  return items;
}

/**
 * A computer call's output: the screenshot taken after its actions, and the safety checks the
 * user (or the mode) accepted by letting it run (the gate saw them with the actions). The API wants a screenshot even when none could
 * be taken; then a blank pixel stands in and the text that follows says why.
 */
function computerOutput(result: ToolResultBlock, shot: ImageBlock | undefined, checks: unknown[]): ResponseInputItem {
  const image_url = shot ? dataUrl(shot) : `data:image/png;base64,${BLANK_PNG}`;
  // Checks are acknowledged only for a call that went through: a refused one accepted nothing.
  const ran = !result.isError;
  return {
    type: "computer_call_output",
    call_id: result.toolCallId,
    output: { type: "computer_screenshot", image_url },
    ...(ran && checks.length ? { acknowledged_safety_checks: checks } : {}),
  } as unknown as ResponseInputItem;
}

/** A 1x1 white PNG: the stand-in when a computer call produced no screenshot (its text says why). */
const BLANK_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8/5+hHgAHggJ/PchI7wAAAABJRU5ErkJggg==";

/**
 * A result's text. The wire formats have no error flag on tool output, so a failure says so in
 * words the model cannot miss.
 */
export function resultText(result: ToolResultBlock): string {
  const text = result.content
    .filter((b): b is Extract<ContentBlock, { type: "text" }> => b.type === "text")
    .map((b) => b.text)
    .join("\n");
  if (result.isError) return /^error\b/i.test(text) ? text : `Error: ${text || "the tool failed"}`;
  return text || "(no output)";
}

/** An image as a `data:` URL, the form both OpenAI APIs accept inline. */
export function dataUrl(image: ImageBlock): string {
  return `data:${image.mediaType};base64,${image.data}`;
}
