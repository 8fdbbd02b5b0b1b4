/**
 * Replays a session's history to the editor as updates, so a resumed session shows what was
 * said and done before.
 */
import type { Editor } from "../editor/editor.js";
import type { ContentBlock, Message } from "../vocabulary/messages.js";
import type { FailedPrompt, Session } from "./session.js";
import { summarize } from "./tool-runner.js";

/**
 * Sends every message of the session as the updates a live turn would have sent, and each
 * failed prompt where it stood, followed by the error that says it failed.
 */
export function replayHistory(session: Session, editor: Editor): void {
  const failedAt = (i: number) => session.failedPrompts.filter((f) => f.at === i);
  session.history.forEach((msg, i) => {
    for (const failed of failedAt(i)) replayFailed(session.id, failed, editor);
    replayMessage(session.id, msg, editor);
  });
  for (const failed of failedAt(session.history.length)) replayFailed(session.id, failed, editor);
}

function replayFailed(sessionId: string, failed: FailedPrompt, editor: Editor): void {
  editor.update(sessionId, { kind: "user_message", text: promptText(failed.content) });
  editor.update(sessionId, { kind: "error", message: `This prompt failed and was not sent to the model: ${failed.error}` });
}

function promptText(content: ContentBlock[]): string {
  return content.map((b) => (b.type === "text" ? b.text : `[${b.mediaType} image]`)).join("\n");
}

function replayMessage(sessionId: string, msg: Message, editor: Editor): void {
  if (msg.role === "user") {
    editor.update(sessionId, { kind: "user_message", text: promptText(msg.content) });
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
