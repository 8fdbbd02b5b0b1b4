/**
 * Replays a session's history into the event stream as updates, so a resumed session shows what was
 * said and done before.
 */
import type { SessionEvents } from "../../editor/session-events.js";
import type { ToolCallFacts } from "../../protocol/updates.js";
import { callFacts, fileDiffs } from "../turn/tool-call-facts.js";
import type { ContentBlock, Message } from "../../vocabulary/messages.js";
import type { FailedPrompt, Session } from "../session.js";
import { modelFacts } from "../turn/tool-call-facts.js";
import { summarize } from "../turn/tool-runner.js";
import { isCheckpoint } from "../compaction/checkpoint.js";
import { compactionUpdate } from "../compaction/compaction.js";
import { reportUpdate } from "../../tools/session/report-updates.js";
import { boundedInput } from "../../util/bounded-input.js";

/** How a replayed call is described: its title and facts, as the live call had them. */
export type DescribeCall = (name: string, input: unknown) => { title: string; facts: ToolCallFacts } | undefined;

/**
 * Sends every message of the working context as the updates a live turn would have sent (after a
 * compaction: its marker, then what came after it), and each failed prompt where it stood,
 * followed by the error that says it failed. Tool calls get their live title, kind and
 * locations (`describe`, from the registry) and their change as a diff; a prompt comes back as the
 * user wrote it, its files as attachments.
 */
export function replayHistory(session: Session, events: SessionEvents, describe: DescribeCall = () => undefined): void {
  const failedAt = (i: number) => session.failedPrompts.filter((f) => f.at === i);
  session.history.forEach((msg, i) => {
    for (const failed of failedAt(i)) replayFailed(session.id, failed, events);
    // The checkpoint is shown as the compaction marker it stands for, not as a prompt.
    if (i === 0 && session.lastCompaction && isCheckpoint(msg)) events.emit(session.id, compactionUpdate(session.lastCompaction));
    else replayMessage(session, msg, events, describe);
  });
  for (const failed of failedAt(session.history.length)) replayFailed(session.id, failed, events);
  // The checklist as it was left: what the editor shows at the top of the chat.
  if (session.checklist.length) events.emit(session.id, { kind: "plan", entries: session.checklist });
}

function replayFailed(sessionId: string, failed: FailedPrompt, events: SessionEvents): void {
  events.emit(sessionId, userMessage(failed.content));
  events.emit(sessionId, { kind: "error", message: `This prompt failed and was not sent to the model: ${failed.error}` });
}

/** A file the prompt carried, as buildPromptContent spelled it out for the model. */
const FILE_BLOCK = /^<file path="([^"]*)">\n[\s\S]*\n<\/file>$/;
/** The editor's context (file, range, diagnostics) added to a prompt: not the user's words. */
const CONTEXT_BLOCK = /^<editor_context>\n[\s\S]*<\/editor_context>$/;

/** A prompt as the user wrote it: its words and pictures, its files named as attachments. */
function userMessage(content: ContentBlock[]): { kind: "user_message"; text: string; attachments?: string[] } {
  const attachments: string[] = [];
  const parts: string[] = [];
  for (const b of content) {
    if (b.type === "image") parts.push(`[${b.mediaType} image]`);
    else if (FILE_BLOCK.test(b.text)) attachments.push(FILE_BLOCK.exec(b.text)![1]!);
    else if (!CONTEXT_BLOCK.test(b.text)) parts.push(b.text);
  }
  return { kind: "user_message", text: parts.join("\n"), ...(attachments.length ? { attachments } : {}) };
}

function replayMessage(session: Session, msg: Message, events: SessionEvents, describe: DescribeCall): void {
  const sessionId = session.id;
  if (msg.role === "user") {
    events.emit(sessionId, userMessage(msg.content));
    return;
  }
  if (msg.role === "assistant") {
    for (const b of msg.content) {
      if (b.type === "text") events.emit(sessionId, { kind: "text", text: b.text });
      else if (b.type === "thinking") events.emit(sessionId, { kind: "thought", text: b.text });
      else {
        const live = describe(b.name, b.input);
        const facts = live?.facts ?? callFacts(undefined, b.input, session.root);
        events.emit(sessionId, { kind: "tool_call", id: b.id, name: b.name, title: live?.title ?? b.name, input: boundedInput(b.input), status: "pending", ...facts, ...modelFacts(b) });
        // A report or a result shows as itself again, as it did live.
        const report = reportUpdate(b.name, b.input);
        if (report) events.emit(sessionId, report);
      }
    }
    return;
  }
  for (const r of msg.content) {
    const diff = r.isError ? undefined : diffIn(r.content);
    events.emit(sessionId, {
      kind: "tool_call_update",
      id: r.toolCallId,
      status: r.isError ? "failed" : "completed",
      output: summarize({ isError: r.isError, content: r.content }),
      ...(diff ? { diff, files: fileDiffs(diff) } : {}),
    });
  }
}

/** The unified diff a change's result ends with (changeResult writes it after the headline), if any. */
function diffIn(content: ContentBlock[]): string | undefined {
  const text = content.map((b) => (b.type === "text" ? b.text : "")).join("\n");
  const at = text.search(/^--- .*\n\+\+\+ /m);
  return at === -1 ? undefined : text.slice(at);
}
