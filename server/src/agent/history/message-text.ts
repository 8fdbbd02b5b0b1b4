/**
 * A message as plain text: how the archive shows and searches it, and how the compaction summary
 * request reads the conversation (a transcript works with every provider and needs no tools).
 */
import type { ContentBlock, Message } from "../../vocabulary/messages.js";

/** Every block of `message` as text; tool results longer than `resultLimit` characters are cut in the middle. */
export function messageText(message: Message, resultLimit = Infinity): string {
  if (message.role === "user") return blocksText(message.content);
  if (message.role === "assistant") {
    return message.content
      .map((b) => {
        if (b.type === "text") return b.text;
        if (b.type === "thinking") return b.text ? `[thinking] ${b.text}` : "";
        return `[tool call ${b.name} ${b.id}] ${JSON.stringify(b.input)}`;
      })
      .filter(Boolean)
      .join("\n");
  }
  return message.content
    .map((r) => `[result of ${r.name} ${r.toolCallId}${r.isError ? ", error" : ""}] ${cutMiddle(blocksText(r.content), resultLimit)}`)
    .join("\n");
}

function blocksText(content: ContentBlock[]): string {
  return content.map((b) => (b.type === "text" ? b.text : `[${b.mediaType} image]`)).join("\n");
}

/** Keeps the head and the tail of a long text, saying how much was left out. */
export function cutMiddle(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const half = Math.floor(limit / 2);
  return `${text.slice(0, half)}\n[... ${text.length - 2 * half} characters left out ...]\n${text.slice(text.length - half)}`;
}
