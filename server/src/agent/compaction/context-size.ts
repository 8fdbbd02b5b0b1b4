/**
 * How full a session's context is: the provider's own count from the last call where there is
 * one, plus an estimate (about four characters a token) for what was added since; the model's
 * window from the model table or `[compaction] default_context_window`.
 */
import type { Config } from "../../config/schema.js";
import { contextWindowOf } from "../../providers/context-windows.js";
import type { Message, ToolDefinition, Usage } from "../../vocabulary/messages.js";
import type { Session } from "../session.js";

/** What an image costs in context, roughly (providers scale pictures to about a megapixel). */
const IMAGE_TOKENS = 1600;

/** Estimated tokens of a text. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Estimated tokens of messages. */
export function estimateMessages(messages: readonly Message[]): number {
  let chars = 0;
  let images = 0;
  for (const m of messages) {
    for (const b of m.content) {
      if (b.type === "text" || b.type === "thinking") chars += b.text.length;
      else if (b.type === "image") images += 1;
      else if (b.type === "tool_call") chars += b.name.length + JSON.stringify(b.input ?? {}).length;
      else {
        for (const c of b.content) {
          if (c.type === "text") chars += c.text.length;
          else images += 1;
        }
      }
    }
  }
  return Math.ceil(chars / 4) + images * IMAGE_TOKENS;
}

/** Estimated tokens of tool definitions as sent. */
export function estimateTools(tools: readonly ToolDefinition[]): number {
  return estimateTokens(JSON.stringify(tools));
}

/** What every request carries besides the history. */
export interface RequestFixed {
  system: string;
  tools: ToolDefinition[];
}

/** Tokens the next request of `session` would carry. */
export function contextTokens(session: Session, fixed: RequestFixed): number {
  const count = session.contextCount;
  if (count && count.messages <= session.history.length) return count.tokens + estimateMessages(session.history.slice(count.messages));
  return estimateTokens(fixed.system) + estimateTools(fixed.tools) + estimateMessages(session.history);
}

/** Records the provider's count after a call whose answer is the last history message. */
export function recordContextCount(session: Session, usage: Usage): void {
  const tokens = usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens + usage.outputTokens;
  // A call that reported nothing (cancelled before the provider counted) teaches nothing.
  if (tokens > 0) session.contextCount = { tokens, messages: session.history.length };
}

/** The context window of the session's model, in tokens. */
export function contextWindow(session: Session, config: Config): number {
  return contextWindowOf(session.model, config.compaction.default_context_window);
}

/**
 * The tokens a compacted request will carry, in the same measure as `before` (the provider's count
 * when one is known, else the estimate): the estimate's ratio of after to before, applied to
 * `before`. Reporting the provider's count before and a raw estimate after printed "about 70 ->
 * 7436 tokens" when the two measures disagreed.
 */
export function tokensAfterCompaction(before: number, fixed: RequestFixed, beforeMessages: readonly Message[], afterMessages: readonly Message[]): number {
  const fixedTokens = estimateTokens(fixed.system) + estimateTools(fixed.tools);
  const estimatedBefore = fixedTokens + estimateMessages(beforeMessages);
  const estimatedAfter = fixedTokens + estimateMessages(afterMessages);
  return estimatedBefore > 0 ? Math.round((before * estimatedAfter) / estimatedBefore) : estimatedAfter;
}
