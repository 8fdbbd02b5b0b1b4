/**
 * Replays a session's history into the event stream as updates, so a resumed session shows what was
 * said and done before.
 */
import type { SessionEvents } from "../../editor/session-events.js";
import type { ContentBlock, Message } from "../../vocabulary/messages.js";
import type { FailedPrompt, Session } from "../session.js";
import { modelFacts } from "../turn/tool-call-facts.js";
import { summarize } from "../turn/tool-runner.js";
import { isCheckpoint } from "../compaction/checkpoint.js";
import { compactionUpdate } from "../compaction/compaction.js";
import { reportUpdate } from "../../tools/session/report-updates.js";

/**
 * Sends every message of the working context as the updates a live turn would have sent (after a
 * compaction: its marker, then what came after it), and each failed prompt where it stood,
 * followed by the error that says it failed.
 */
export function replayHistory(session: Session, events: SessionEvents): void {
  const failedAt = (i: number) => session.failedPrompts.filter((f) => f.at === i);
  session.history.forEach((msg, i) => {
    for (const failed of failedAt(i)) replayFailed(session.id, failed, events);
    // The checkpoint is shown as the compaction marker it stands for, not as a prompt.
    if (i === 0 && session.lastCompaction && isCheckpoint(msg)) events.emit(session.id, compactionUpdate(session.lastCompaction));
    else replayMessage(session.id, msg, events);
  });
  for (const failed of failedAt(session.history.length)) replayFailed(session.id, failed, events);
  // The checklist as it was left: what the editor shows at the top of the chat.
  if (session.checklist.length) events.emit(session.id, { kind: "plan", entries: session.checklist });
}

function replayFailed(sessionId: string, failed: FailedPrompt, events: SessionEvents): void {
  events.emit(sessionId, { kind: "user_message", text: promptText(failed.content) });
  events.emit(sessionId, { kind: "error", message: `This prompt failed and was not sent to the model: ${failed.error}` });
}

function promptText(content: ContentBlock[]): string {
  return content.map((b) => (b.type === "text" ? b.text : `[${b.mediaType} image]`)).join("\n");
}

function replayMessage(sessionId: string, msg: Message, events: SessionEvents): void {
  if (msg.role === "user") {
    events.emit(sessionId, { kind: "user_message", text: promptText(msg.content) });
    return;
  }
  if (msg.role === "assistant") {
    for (const b of msg.content) {
      if (b.type === "text") events.emit(sessionId, { kind: "text", text: b.text });
      else if (b.type === "thinking") events.emit(sessionId, { kind: "thought", text: b.text });
      else {
        events.emit(sessionId, { kind: "tool_call", id: b.id, name: b.name, title: b.name, input: b.input, status: "pending", ...modelFacts(b) });
        // A report or a result shows as itself again, as it did live.
        const report = reportUpdate(b.name, b.input);
        if (report) events.emit(sessionId, report);
      }
    }
    return;
  }
  for (const r of msg.content) {
    events.emit(sessionId, {
      kind: "tool_call_update",
      id: r.toolCallId,
      status: r.isError ? "failed" : "completed",
      output: summarize({ isError: r.isError, content: r.content }),
    });
  }
}
