/**
 * Makes a history safe to send: every tool call answered (a turn cut short by a crash or a
 * cancel gets "interrupted" results), consecutive user turns merged, and only the newest three
 * images kept (older ones become a note), as every provider expects.
 */
import type { ContentBlock, Message, ToolCallBlock, ToolResultBlock } from "../../vocabulary/messages.js";

/** How many images of a conversation are sent to the model. */
export const MAX_IMAGES = 3;

/** Returns a copy of `messages` that satisfies every provider's pairing rules. */
export function normalizeHistory(messages: readonly Message[]): Message[] {
  return limitImages(mergeUserTurns(answerOpenToolCalls(messages)), MAX_IMAGES);
}

/** Adds results for tool calls that never got one (the server died or the turn was cancelled). */
function answerOpenToolCalls(messages: readonly Message[]): Message[] {
  const out: Message[] = [];
  for (let i = 0; i < messages.length; i++) {
    const msg = messages[i]!;
    out.push(msg);
    if (msg.role !== "assistant") continue;
    const calls = msg.content.filter((b): b is ToolCallBlock => b.type === "tool_call");
    if (!calls.length) continue;
    const next = messages[i + 1];
    const answered = new Set(next?.role === "tool" ? next.content.map((r) => r.toolCallId) : []);
    const missing = calls.filter((c) => !answered.has(c.id)).map(interruptedResult);
    if (!missing.length) continue;
    if (next?.role === "tool") {
      out.push({ role: "tool", content: [...next.content, ...missing] });
      i++;
    } else {
      out.push({ role: "tool", content: missing });
    }
  }
  return out;
}

/** The result recorded for a call that did not run to completion. */
function interruptedResult(call: ToolCallBlock): ToolResultBlock {
  return {
    type: "tool_result",
    toolCallId: call.id,
    name: call.name,
    isError: true,
    content: [{ type: "text", text: "Interrupted: this tool call did not finish (cancelled or the server stopped)." }],
  };
}

function mergeUserTurns(messages: Message[]): Message[] {
  const out: Message[] = [];
  for (const msg of messages) {
    const prev = out[out.length - 1];
    if (msg.role === "user" && prev?.role === "user") {
      out[out.length - 1] = { role: "user", content: [...prev.content, ...msg.content] };
    } else out.push(msg);
  }
  return out;
}

/** Replaces all but the newest `max` images with a short note. */
export function limitImages(messages: Message[], max: number): Message[] {
  let seen = 0;
  const out = [...messages];
  for (let i = out.length - 1; i >= 0; i--) {
    const msg = out[i]!;
    if (msg.role === "user") {
      const [content, kept] = thinImages(msg.content, max - seen);
      seen += kept;
      if (content !== msg.content) out[i] = { role: "user", content };
    } else if (msg.role === "tool") {
      let changed = false;
      const results = [...msg.content].reverse().map((r) => {
        const [content, kept] = thinImages(r.content, max - seen);
        seen += kept;
        if (content === r.content) return r;
        changed = true;
        return { ...r, content };
      });
      if (changed) out[i] = { role: "tool", content: results.reverse() };
    }
  }
  return out;
}

/** Keeps at most `room` images of `blocks`, newest last; returns the blocks and how many kept. */
function thinImages(blocks: ContentBlock[], room: number): [ContentBlock[], number] {
  const images = blocks.filter((b) => b.type === "image").length;
  if (images === 0) return [blocks, 0];
  if (images <= room) return [blocks, images];
  let drop = images - Math.max(room, 0);
  const out = blocks.map((b): ContentBlock => {
    if (b.type !== "image" || drop === 0) return b;
    drop--;
    return { type: "text", text: `[older image (${b.mediaType}) omitted: only the newest ${MAX_IMAGES} images are sent]` };
  });
  return [out, Math.max(room, 0)];
}
