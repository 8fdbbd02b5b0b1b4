/**
 * The session event stream as ACP `session/update` payloads. Pure and synchronous: one event in,
 * at most one update out, so the mapping costs next to nothing per streamed chunk (bench/acp.ts).
 */
import path from "node:path";
import { pathToFileURL } from "node:url";
import type * as acp from "@agentclientprotocol/sdk";
import type { ChangedText, SessionEvent } from "../editor/session-events.js";
import { phaseReportLine, type FileDiff, type SessionUpdate, type ToolCallLocation, type ToolCallStatus } from "../protocol/updates.js";

/**
 * What the mapping needs beyond the event: the session's folder (our locations are relative,
 * ACP's absolute) and, for a finished change, the files' whole texts from the event's detail
 * (ACP's diff content is old and new text; our stream carries unified diffs).
 */
export interface MappingContext {
  cwd: string;
  texts?: ChangedText[];
}

const STATUS: Record<ToolCallStatus, acp.ToolCallStatus> = {
  pending: "pending",
  running: "in_progress",
  completed: "completed",
  failed: "failed",
};

/** The ACP update for one event, or undefined for events ACP carries elsewhere (turn_end) or not at all. */
export function toAcpUpdate(event: SessionEvent, ctx: MappingContext): acp.SessionUpdate | undefined {
  // ACP has no nesting: a subagent's tool calls show as calls of their own, but its words are
  // its parent's to report (they come back in the parent call's result).
  if (event.kind !== "turn_end" && event.parentToolCallId && (event.kind === "text" || event.kind === "thought")) return undefined;
  switch (event.kind) {
    case "text":
      return { sessionUpdate: "agent_message_chunk", content: { type: "text", text: event.text } };
    case "thought":
      return { sessionUpdate: "agent_thought_chunk", content: { type: "text", text: event.text } };
    case "user_message":
      // Its attachments follow as resource links (userAttachments): a prompt of files alone has no text.
      return event.text || !event.attachments?.length ? { sessionUpdate: "user_message_chunk", content: { type: "text", text: event.text } } : undefined;
    case "tool_call":
      return toolCall(event, ctx);
    case "tool_call_update":
      return toolCallUpdate(event, ctx);
    case "plan":
      return { sessionUpdate: "plan", entries: event.entries.map((e) => ({ content: e.content, status: e.status, priority: e.priority ?? "medium" })) };
    case "working_message":
      return { sessionUpdate: "agent_message_chunk", content: { type: "text", text: `\n${event.text}\n` } };
    case "completion":
      return { sessionUpdate: "agent_message_chunk", content: { type: "text", text: `\n${event.result}${event.command ? `\n\n\`${event.command}\`` : ""}\n` } };
    case "phase_report":
      return { sessionUpdate: "notice", severity: "info", title: phaseReportLine(event) };
    case "task_spawned":
      return { sessionUpdate: "notice", severity: "info", title: `Started the task "${event.title}" (session ${event.sessionId})` };
    case "usage":
      return usageUpdate(event);
    case "status":
      // Live: retrying, waiting for an answer. Not worth a line of the answer where notices are not taken.
      return { sessionUpdate: "notice", severity: "info", title: event.text, _meta: { agentLsp: { live: true } } };
    case "compaction":
      return { sessionUpdate: "notice", severity: "info", title: `Context compacted (checkpoint ${event.n}): about ${event.tokensBefore} -> ${event.tokensAfter} tokens` };
    case "error":
      return { sessionUpdate: "notice", severity: "error", title: event.message };
    case "turn_end":
      return undefined; // the session/prompt answer carries how the turn ended
  }
}

function toolCall(event: Extract<SessionUpdate, { kind: "tool_call" }>, ctx: MappingContext): acp.SessionUpdate {
  return {
    sessionUpdate: "tool_call",
    toolCallId: event.id,
    title: event.title,
    kind: event.toolKind ?? "other",
    status: STATUS[event.status],
    rawInput: event.input,
    ...(event.locations ? { locations: acpLocations(event.locations, ctx.cwd) } : {}),
  };
}

function toolCallUpdate(event: Extract<SessionUpdate, { kind: "tool_call_update" }>, ctx: MappingContext): acp.SessionUpdate {
  const content: acp.ToolCallContent[] = [];
  if (event.files?.length) content.push(...diffContent(event.files, ctx.texts, ctx.cwd));
  if (event.output) content.push({ type: "content", content: { type: "text", text: event.output } });
  return { sessionUpdate: "tool_call_update", toolCallId: event.id, status: STATUS[event.status], ...(content.length ? { content } : {}) };
}

/**
 * The change as ACP `diff` content: the whole texts from the event's detail; a change that came
 * without them (a replayed history) is each hunk of its unified diff as a diff of that region (the
 * lines the hunk shows, before and after), never texts made up.
 */
function diffContent(files: FileDiff[], texts: ChangedText[] | undefined, cwd: string): acp.ToolCallContent[] {
  if (texts?.length) return texts.map((t) => ({ type: "diff", path: t.path, oldText: t.oldText, newText: t.newText }));
  return files.flatMap((f) => hunkDiffs(f, cwd));
}

/** One `diff` per hunk of a file's unified diff; the diff as text when it has no hunk to read. */
function hunkDiffs(file: FileDiff, cwd: string): acp.ToolCallContent[] {
  const out: acp.ToolCallContent[] = [];
  let hunk: { old: string[]; new: string[] } | undefined;
  const flush = () => {
    if (hunk) out.push({ type: "diff", path: path.resolve(cwd, file.path), oldText: hunk.old.join("\n"), newText: hunk.new.join("\n") });
  };
  for (const line of file.diff.split("\n")) {
    if (line.startsWith("@@")) {
      flush();
      hunk = { old: [], new: [] };
    } else if (hunk && line.startsWith(" ")) {
      hunk.old.push(line.slice(1));
      hunk.new.push(line.slice(1));
    } else if (hunk && line.startsWith("-")) hunk.old.push(line.slice(1));
    else if (hunk && line.startsWith("+")) hunk.new.push(line.slice(1));
  }
  flush();
  return out.length ? out : [{ type: "content", content: { type: "text", text: file.diff } }];
}

/**
 * ACP's usage_update is the context gauge: tokens in the context (the provider's last count) of
 * the model's window, and the session's cost so far. Sent when the count is known, and never for
 * a subagent (its context is not the session's). The turn's own tokens go in the session/prompt
 * answer's _meta.
 */
function usageUpdate(event: Extract<SessionUpdate, { kind: "usage" }>): acp.SessionUpdate | undefined {
  if (event.parentToolCallId || event.contextTokens === undefined || event.contextWindow === undefined) return undefined;
  return {
    sessionUpdate: "usage_update",
    used: event.contextTokens,
    size: event.contextWindow,
    ...(event.sessionCost !== undefined ? { cost: { amount: event.sessionCost, currency: "USD" } } : {}),
  };
}

/** A replayed prompt's files, as the resource links the client sent them as. */
export function userAttachments(event: SessionEvent, cwd: string): acp.SessionUpdate[] {
  if (event.kind !== "user_message" || !event.attachments) return [];
  return event.attachments.map((rel) => {
    const abs = path.resolve(cwd, rel);
    return { sessionUpdate: "user_message_chunk", content: { type: "resource_link", uri: pathToFileURL(abs).href, name: path.basename(abs) } };
  });
}

/** Our locations are relative to the session's folder; ACP's absolute (both count lines from 1). */
export function acpLocations(locations: ToolCallLocation[], cwd: string): acp.ToolCallLocation[] {
  return locations.map((l) => ({ path: path.resolve(cwd, l.path), ...(l.line !== undefined ? { line: l.line } : {}) }));
}

/**
 * A notice for a client that did not declare `session.notices` (ACP: agents send notices only
 * to clients that did): it becomes a quoted line of the agent's message, so the user still reads
 * it (an error, a warning, a phase report, a compaction); live status (retrying, waiting) is
 * dropped, as a notice may be anyway.
 */
export function noticeFallback(update: acp.SessionUpdate): acp.SessionUpdate | undefined {
  if (update.sessionUpdate !== "notice") return update;
  if ((update._meta?.agentLsp as { live?: boolean } | undefined)?.live) return undefined;
  const label = update.severity === "error" ? "Error: " : update.severity === "warning" ? "Warning: " : "";
  return { sessionUpdate: "agent_message_chunk", content: { type: "text", text: `\n\n> ${label}${update.title}\n\n` } };
}
