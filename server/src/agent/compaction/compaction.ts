/**
 * Compaction: the older history is summarised by the model into a checkpoint, and the working
 * context continues from it. Nothing is deleted: the log keeps every message, and the compaction
 * record it gains marks which ones left the context (context_archive reads them back). A summary
 * call that fails leaves the session exactly as it was, and says so.
 */
import type { Config } from "../../config/schema.js";
import type { SessionEvents } from "../../editor/session-events.js";
import type { Provider } from "../../providers/provider.js";
import type { Message, Usage } from "../../vocabulary/messages.js";
import { ZERO_USAGE } from "../../vocabulary/messages.js";
import { checkpointMessage, isCheckpoint } from "./checkpoint.js";
import { contextTokens, contextWindow, tokensAfterCompaction, type RequestFixed } from "./context-size.js";
import type { CompactionRecord } from "../history/history.js";
import { cutMiddle, messageText } from "../history/message-text.js";
import { callModel, type RetryPolicy } from "../turn/provider-call.js";
import type { CompactionRequest, Session } from "../session.js";

/** What a compaction needs. */
export interface CompactionDeps {
  provider: Provider;
  model: string;
  config: Config;
  events: SessionEvents;
  retry: RetryPolicy;
}

/** How a compaction went; `usage` is the summary call's, counted either way. */
export type CompactionOutcome = { ok: true; record: CompactionRecord; usage: Usage } | { ok: false; reason: string; usage: Usage };

/** A tool result longer than this is cut in the transcript the summary is written from (the archive keeps it whole). */
const TRANSCRIPT_RESULT_LIMIT = 4000;

const SUMMARY_SYSTEM = [
  "You write the checkpoint of a coding session between a user and an AI coding agent: a handoff that lets the agent continue the work with nothing but this summary.",
  "The full conversation stays in an archive the agent can search, so keep what is needed to go on, not everything.",
].join(" ");

const SUMMARY_INSTRUCTIONS = [
  "Summarise the conversation above as the agent's checkpoint. Include, in this order:",
  "1. The user's requests and constraints, in their own words where they matter.",
  "2. What has been done: files read, changed or created (with paths), commands run and their outcome.",
  "3. Decisions made and why, and anything the user rejected.",
  "4. Open problems, errors not yet fixed, and the exact next steps.",
  "Name files, functions and message numbers (#n) precisely so the agent can look them up. Write only the summary.",
].join("\n");

/**
 * The compaction due before the next model call, if any: one asked for (compact_context, /compact),
 * or the automatic one when the request would pass `[compaction] auto_threshold_percent` of the
 * window (left to the provider when `provider_native` and the provider compacts server-side).
 */
export function dueCompaction(session: Session, config: Config, fixed: RequestFixed, providerCompacts: boolean): CompactionRequest | undefined {
  if (session.compactionRequest) return session.compactionRequest;
  // Nothing left to summarise (a checkpoint and a long prompt): trying before every call would only fail.
  if (providerCompacts || archivableCount(session.history) === 0) return undefined;
  const limit = (contextWindow(session, config) * config.compaction.auto_threshold_percent) / 100;
  return contextTokens(session, fixed) >= limit ? { trigger: "auto" } : undefined;
}

/** Whether the provider takes over the automatic trigger (`[compaction] provider_native` on Anthropic). */
export function providerCompacts(config: Config, provider: Provider): boolean {
  return config.compaction.provider_native && provider.type === "anthropic";
}

/** The input tokens at which the provider should compact, when it takes over the automatic trigger. */
export function providerCompactAt(session: Session, config: Config, provider: Provider): number | undefined {
  if (!providerCompacts(config, provider)) return undefined;
  return Math.floor((contextWindow(session, config) * config.compaction.auto_threshold_percent) / 100);
}

/** Runs one compaction of `session`. Never throws; on failure nothing changed. */
export async function compactSession(
  session: Session,
  request: CompactionRequest,
  fixed: RequestFixed,
  deps: CompactionDeps,
  signal: AbortSignal,
): Promise<CompactionOutcome> {
  // A request is used up whether it works or not: a failing summary must not be retried before every call.
  session.compactionRequest = undefined;
  const count = archivableCount(session.history);
  if (count === 0) return { ok: false, reason: "Nothing to compact: the working context holds no messages before the last prompt.", usage: ZERO_USAGE };
  const tokensBefore = contextTokens(session, fixed);
  const emit = deps.events.for(session.id);
  emit({ kind: "status", text: `Compacting the conversation: summarising ${count} message(s), about ${tokensBefore} tokens...` });
  const res = await callModel(deps.provider, summaryRequest(session, count, request.focus, deps), signal, silentSink(emit), deps.retry);
  const summary = res.content.map((b) => (b.type === "text" ? b.text : "")).join("").trim();
  if (res.stop === "cancelled") return fail(emit, "cancelled", res.usage);
  if (res.stop === "error" || !summary) return fail(emit, res.error ?? "the model wrote no summary", res.usage);
  const through = lastSeqOf(session, count);
  const n = (session.lastCompaction?.n ?? 0) + 1;
  const checkpoint = checkpointMessage(n, summary, through);
  const kept = session.history.slice(count);
  const tokensAfter = tokensAfterCompaction(tokensBefore, fixed, session.history, [checkpoint, ...kept]);
  const archived = session.seqs.slice(0, count).filter((s) => s !== undefined).length;
  const record = session.log.compaction({ n, through, summary, ...(request.focus ? { focus: request.focus } : {}), trigger: request.trigger, tokensBefore, tokensAfter, archived });
  session.applyCompaction(record, checkpoint, count);
  emit(compactionUpdate(record));
  emit({ kind: "status", text: `Compacted: about ${tokensBefore} -> ${tokensAfter} tokens; messages 1-${through} are in the archive (context_archive).` });
  return { ok: true, record, usage: res.usage };
}

/**
 * Takes in a compaction the provider ran server-side (ProviderRequest.compactAt): its summary
 * stands for the whole working context the request carried, so it becomes the checkpoint in place
 * of it, logged as any compaction is. Call before the answer that followed it joins the history.
 */
export function applyProviderCompaction(session: Session, summary: string, events: SessionEvents, fixed: RequestFixed): CompactionRecord {
  const count = session.history.length;
  const tokensBefore = contextTokens(session, fixed);
  const through = lastSeqOf(session, count);
  const n = (session.lastCompaction?.n ?? 0) + 1;
  const checkpoint = checkpointMessage(n, summary, through);
  const archived = session.seqs.filter((s) => s !== undefined).length;
  const tokensAfter = tokensAfterCompaction(tokensBefore, fixed, session.history, [checkpoint]);
  const record = session.log.compaction({ n, through, summary, trigger: "provider", tokensBefore, tokensAfter, archived });
  session.applyCompaction(record, checkpoint, count);
  events.emit(session.id, compactionUpdate(record));
  events.emit(session.id, { kind: "status", text: `The provider compacted the conversation: messages 1-${through} are in the archive (context_archive).` });
  return record;
}

/** The `compaction` update for a record (live, and when a loaded session is replayed). */
export function compactionUpdate(record: CompactionRecord) {
  return {
    kind: "compaction" as const,
    n: record.n,
    trigger: record.trigger,
    tokensBefore: record.tokensBefore,
    tokensAfter: record.tokensAfter,
    through: record.through,
    summaryPreview: cutMiddle(record.summary, 400),
  };
}

/**
 * How many leading history messages a compaction replaces: all of them, except a last prompt the
 * model has not answered yet (it stays verbatim, so the model answers what the user asked).
 */
function archivableCount(history: readonly Message[]): number {
  const last = history[history.length - 1];
  const keep = last?.role === "user" && !isCheckpoint(last) ? 1 : 0;
  const count = history.length - keep;
  // A lone checkpoint is already as small as it gets.
  if (count === 1 && isCheckpoint(history[0]!)) return 0;
  return count;
}

function lastSeqOf(session: Session, count: number): number {
  const seqs = session.seqs.slice(0, count).filter((s): s is number => s !== undefined);
  return seqs.length ? Math.max(...seqs) : (session.lastCompaction?.through ?? 0);
}

function summaryRequest(session: Session, count: number, focus: string | undefined, deps: CompactionDeps) {
  const window = contextWindow(session, deps.config);
  const transcript = session.history
    .slice(0, count)
    .map((m, i) => `### ${session.seqs[i] !== undefined ? `#${session.seqs[i]} ` : ""}${m.role}\n${messageText(m, TRANSCRIPT_RESULT_LIMIT)}`)
    .join("\n\n");
  // The transcript must fit the window with room for the answer: cut its middle when it would not.
  const room = Math.max((window - deps.config.compaction.summary_max_tokens) * 3, 4000);
  const focusLine = focus ? `\n\nFocus the summary on: ${focus}` : "";
  const text = `<conversation>\n${cutMiddle(transcript, room)}\n</conversation>\n\n${SUMMARY_INSTRUCTIONS}${focusLine}`;
  return {
    model: deps.model,
    system: SUMMARY_SYSTEM,
    messages: [{ role: "user" as const, content: [{ type: "text" as const, text }] }],
    tools: [],
    maxTokens: deps.config.compaction.summary_max_tokens,
  };
}

/** The summary streams to no one; only retry notices reach the user. */
function silentSink(emit: ReturnType<SessionEvents["for"]>) {
  return { text: () => undefined, thought: () => undefined, status: (text: string) => emit({ kind: "status", text }) };
}

function fail(emit: ReturnType<SessionEvents["for"]>, why: string, usage: Usage): CompactionOutcome {
  const reason = `Compaction failed (${why}); the conversation was left as it was.`;
  emit({ kind: "status", text: reason });
  return { ok: false, reason, usage };
}
