/**
 * The checkpoint message: how a compaction's summary enters the working context. It is built from
 * the compaction record (not logged as a message of its own), so the log numbers only what was
 * really said, and a loaded session rebuilds the same context from the record.
 */
import type { Message } from "../../vocabulary/messages.js";

/** The user message that stands for everything compaction `n` archived. */
export function checkpointMessage(n: number, summary: string, through: number): Message {
  const text = [
    `[Checkpoint ${n}: the conversation so far was summarised to free the context window. Messages 1 to ${through} are in the session archive; search them or read any back whole with context_archive.]`,
    "",
    summary.trim(),
    "",
    "Continue from here: carry on with the task where the summary leaves off.",
  ].join("\n");
  return { role: "user", content: [{ type: "text", text }] };
}

/** Whether `message` is a checkpoint built above. */
export function isCheckpoint(message: Message): boolean {
  const first = message.role === "user" ? message.content[0] : undefined;
  return first?.type === "text" && first.text.startsWith("[Checkpoint ");
}
