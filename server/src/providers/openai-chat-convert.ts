/**
 * Neutral request -> Chat Completions request, in the plainest form OpenAI-compatible servers
 * (Ollama, llama.cpp, vLLM, LM Studio) all accept: string content where there is no image,
 * `role: "tool"` results, and images from tool results in a user message after the run of results
 * (a tool message carries text only).
 */
import type {
  ChatCompletionContentPart,
  ChatCompletionContentPartImage,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionFunctionTool,
  ChatCompletionMessageFunctionToolCall,
  ChatCompletionMessageParam,
} from "openai/resources/chat/completions";
import type { AssistantBlock, ContentBlock, ImageBlock, Message } from "../vocabulary/messages.js";
import { argumentsText, dataUrl, resultText } from "./openai-responses-convert.js";
import type { ProviderRequest } from "./provider.js";

/** Builds the streaming request; usage is asked for so every turn can be counted and priced. */
export function buildChatParams(request: ProviderRequest): ChatCompletionCreateParamsStreaming {
  const params: ChatCompletionCreateParamsStreaming = {
    model: request.model,
    messages: toChatMessages(request.system, request.messages),
    stream: true,
    stream_options: { include_usage: true },
    // `max_completion_tokens` is newer than most compatible servers; `max_tokens` is understood by all.
    max_tokens: request.maxTokens,
  };
  if (request.tools.length > 0) {
    params.tools = request.tools.map(
      (t): ChatCompletionFunctionTool => ({
        type: "function",
        function: { name: t.name, description: t.description, parameters: t.inputSchema },
      }),
    );
  }
  return params;
}

/** The conversation as chat messages, the system prompt first. */
function toChatMessages(system: string, messages: Message[]): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = system ? [{ role: "system", content: system }] : [];
  let images: ChatCompletionContentPartImage[] = [];
  // Images wait until the run of tool messages ends: a user message inside the run would leave
  // the remaining calls unanswered.
  const flushImages = () => {
    if (images.length === 0) return;
    out.push({ role: "user", content: [{ type: "text", text: "Images returned by the tool calls above:" }, ...images] });
    images = [];
  };
  for (const message of messages) {
    if (message.role === "tool") {
      for (const result of message.content) {
        out.push({ role: "tool", tool_call_id: result.toolCallId, content: resultText(result) });
        images.push(...result.content.filter(isImage).map(imagePart));
      }
      continue;
    }
    flushImages();
    if (message.role === "user") {
      const content = userContent(message.content);
      if (content) out.push({ role: "user", content });
    } else {
      const assistant = assistantMessage(message.content);
      if (assistant) out.push(assistant);
    }
  }
  flushImages();
  return out;
}

/** Plain text when there is no image (what every server understands), else content parts. */
function userContent(blocks: ContentBlock[]): string | ChatCompletionContentPart[] | undefined {
  if (!blocks.some(isImage)) {
    const text = blocks.map((b) => (b.type === "text" ? b.text : "")).join("\n");
    return text || undefined;
  }
  return blocks.flatMap((b): ChatCompletionContentPart[] =>
    b.type === "image" ? [imagePart(b)] : b.text ? [{ type: "text", text: b.text }] : [],
  );
}

/**
 * Text and tool calls. Thinking is not sent back: the API has no field for it and compatible
 * servers that stream `reasoning_content` expect it dropped from history.
 */
function assistantMessage(blocks: AssistantBlock[]): ChatCompletionMessageParam | undefined {
  const text = blocks.map((b) => (b.type === "text" ? b.text : "")).join("");
  const calls = blocks.flatMap((b): ChatCompletionMessageFunctionToolCall[] => {
    if (b.type !== "tool_call") return [];
    return [{ id: b.id, type: "function", function: { name: b.name, arguments: argumentsText(b.input) } }];
  });
  if (!text && calls.length === 0) return undefined;
  return calls.length > 0 ? { role: "assistant", content: text || null, tool_calls: calls } : { role: "assistant", content: text };
}

function isImage(block: ContentBlock): block is ImageBlock {
  return block.type === "image";
}

function imagePart(image: ImageBlock): ChatCompletionContentPartImage {
  return { type: "image_url", image_url: { url: dataUrl(image) } };
}
