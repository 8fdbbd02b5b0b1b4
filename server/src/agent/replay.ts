/**
 * Replays a session's history to the editor as updates, so a resumed session shows what was
 * said and done before.
 */
import type { Editor } from "../editor/editor.js";
import type { Message } from "../providers/messages.js";
import type { Session } from "./session.js";
import { summarize } from "./tool-runner.js";

/** Sends every message of the session as the updates a live turn would have sent. */
export function replayHistory(session: Session, editor: Editor): void {
  for (const msg of session.history) replayMessage(session.id, msg, editor);
}

function replayMessage(sessionId: string, msg: Message, editor: Editor): void {
  if (msg.role === "user") {
    const text = msg.content.map((b) => (b.type === "text" ? b.text : `[${b.mediaType} image]`)).join("\n");
    editor.update(sessionId, { kind: "user_message", text });
    return;
  }
  if (msg.role === "assistant") {
    for (const b of msg.content) {
      if (b.type === "text") editor.update(sessionId, { kind: "text", text: b.text });
      else if (b.type === "thinking") editor.update(sessionId, { kind: "thought", text: b.text });
      else editor.update(sessionId, { kind: "tool_call", id: b.id, name: b.name, title: b.name, input: b.input, status: "pending" });
    }
    return;
  }
  for (const r of msg.content) {
    editor.update(sessionId, {
      kind: "tool_call_update",
      id: r.toolCallId,
      status: r.isError ? "failed" : "completed",
      output: summarize({ isError: r.isError, content: r.content }),
    });
  }
}
