/**
 * The agent loop: one user prompt in, model calls and tool runs until the model stops, the
 * user cancels, or the step limit is reached. Everything streams to the editor as it happens
 * and every message is logged before the loop moves on.
 */
import type { Config } from "../../config/schema.js";
import type { ContentBlock, Message, Usage } from "../../vocabulary/messages.js";
import { addUsage, ZERO_USAGE } from "../../vocabulary/messages.js";
import { estimateCost } from "../../providers/pricing.js";
import type { Provider } from "../../providers/provider.js";
import type { StopReason } from "../../protocol/schemas.js";
import { unwrapToolCalls } from "./deferred-advertising.js";
import { applyProviderCompaction, compactSession, dueCompaction, providerCompactAt, providerCompacts } from "../compaction/compaction.js";
import { contextWindow, recordContextCount } from "../compaction/context-size.js";
import { rewriteNativeCalls, isNativeToolRejection } from "./native-tools.js";
import { normalizeHistory } from "./normalize.js";
import { callModel } from "./provider-call.js";
import { requestFrame, type RequestFrame } from "./request-frame.js";
import type { Session } from "../session.js";
import { refreshKnowledge } from "../knowledge/knowledge.js";
import { readOnlyCheckoutNotice } from "./checkout-notice.js";
import { editorNotices, runToolBatch, type ToolRunnerDeps } from "./tool-runner.js";
import { releaseAfterLargeWork } from "../../util/release-memory.js";

/** What a turn needs besides the session. */
export interface TurnDeps extends ToolRunnerDeps {
  config: Config;
  /** The provider and model id for the session's model selection. */
  resolveProvider(session: Session): Promise<{ provider: Provider; model: string }>;
  /** The provider and model that write compaction summaries (the session's `compaction` route); the session's own when absent. */
  resolveSummaryProvider?(session: Session): Promise<{ provider: Provider; model: string }>;
  /** Starts what the session's tools need (MCP servers) before its first model call. */
  prepareTools?(session: Session, signal: AbortSignal): Promise<void>;
}

/** How a turn ended. */
export interface TurnResult {
  stopReason: StopReason;
  usage: Usage;
  /** Readable reason when stopReason is "error". */
  error?: string;
}

/**
 * Runs one turn of `session` for the prompt `content`. Never throws: failures end the turn as "error".
 *
 * A turn that fails before the model answered anything takes its prompt back out of the history
 * (the log keeps it, marked failed): the user saw it fail, so it must not ride along with the
 * next prompt. A turn that fails later keeps everything: the answer shown and the tools that
 * ran are real, and the next prompt needs them as context.
 */
export async function runTurn(session: Session, content: ContentBlock[], deps: TurnDeps, signal: AbortSignal): Promise<TurnResult> {
  // What subagents use while the turn runs counts as the turn's (and is already the session's).
  session.delegatedThisTurn = ZERO_USAGE;
  const rssBefore = process.memoryUsage.rss();
  const result = await runTurnSteps(session, content, deps, signal);
  // A turn that streamed a huge tool input leaves its garbage resident until something allocates.
  releaseAfterLargeWork(rssBefore);
  return { ...result, usage: addUsage(result.usage, session.delegatedThisTurn) };
}

async function runTurnSteps(session: Session, content: ContentBlock[], deps: TurnDeps, signal: AbortSignal): Promise<TurnResult> {
  // What the editor learned meanwhile (an edit that did not land...) rides along with the prompt.
  const prompt: Message = { role: "user", content: [...content, ...editorNotices(deps.editor, session.id)] };
  let promptSeq: number;
  try {
    promptSeq = session.append(prompt);
  } catch (err) {
    // The log could not take the prompt (a full disk...): it was never part of the conversation.
    const message = (err as Error).message;
    deps.events.emit(session.id, { kind: "error", message: `${message}\n${NOT_SENT}` });
    return { stopReason: "error", usage: ZERO_USAGE, error: message };
  }
  const endWithError = (usage: Usage, message: string): TurnResult => {
    const retracted = session.retractPrompt(prompt, promptSeq, message);
    const note = retracted ? `\n${NOT_SENT}` : "";
    deps.events.emit(session.id, { kind: "error", message: `${message}${note}` });
    return { stopReason: "error", usage, error: message };
  };
  let usage = ZERO_USAGE;
  try {
    const { provider, model } = await deps.resolveProvider(session);
    await deps.prepareTools?.(session, signal);
    refreshKnowledge(session, deps.config, (text) => deps.events.emit(session.id, { kind: "status", text }));
    const readOnly = readOnlyCheckoutNotice(session);
    if (readOnly) deps.events.emit(session.id, { kind: "status", text: readOnly });
    for (let step = 0; step < deps.config.max_turns; step++) {
      if (signal.aborted) return { stopReason: "cancelled", usage };
      const frame = requestFrame(session, deps, provider.type);
      const tools = frame.tools;
      usage = addUsage(usage, await compactIfDue(session, frame, deps, { provider, model }, signal));
      if (signal.aborted) return { stopReason: "cancelled", usage };
      const response = await callModel(
        provider,
        {
          model,
          system: frame.system,
          messages: normalizeHistory(session.history),
          tools: tools.definitions,
          nativeTools: tools.native,
          maxTokens: deps.config.max_tokens,
          thinkingBudget: deps.config.thinking_budget,
          ...compactAtOf(session, deps.config, provider),
        },
        signal,
        {
          text: (t) => deps.events.emit(session.id, { kind: "text", text: t }),
          thought: (t) => deps.events.emit(session.id, { kind: "thought", text: t }),
          status: (t) => deps.events.emit(session.id, { kind: "status", text: t }),
        },
        retryPolicy(deps.config),
      );
      usage = addUsage(usage, response.usage);
      const native = rewriteNativeCalls(response.content, tools);
      const blocks = unwrapToolCalls(native.blocks, deps.registry, session);
      const rewritten = { ...native, blocks, calls: blocks.filter((b) => b.type === "tool_call") };
      if (response.providerCompaction) applyProviderCompaction(session, response.providerCompaction, deps.events, { system: frame.system, tools: frame.tools.definitions });
      if (rewritten.blocks.length) await session.appendAsync({ role: "assistant", content: rewritten.blocks });
      // After a server-side compaction the call's input counted what the provider then dropped.
      if (!response.providerCompaction) recordContextCount(session, response.usage);
      if (response.stop === "cancelled") return { stopReason: "cancelled", usage };
      if (response.stop === "error") {
        if (tools.native.length && isNativeToolRejection(response)) {
          // The model or endpoint would not take its own tool definitions: ours from now on.
          session.nativeToolsDisabled = true;
          deps.events.emit(session.id, { kind: "status", text: "The provider rejected its native tools; using agent-lsp's tool schemas for the rest of this session." });
          step--;
          continue;
        }
        return endWithError(usage, response.error ?? "The provider failed.");
      }
      if (rewritten.calls.length === 0) return { stopReason: stopReasonOf(response.stop), usage };
      const batch = await runToolBatch(session, rewritten.calls, deps, signal, rewritten.answers);
      await session.appendAsync({ role: "tool", content: batch.results });
      if (batch.fault) return endWithError(usage, batch.fault);
      if (batch.endTurn) return { stopReason: "end_turn", usage };
    }
    return { stopReason: "max_turns", usage };
  } catch (err) {
    if (signal.aborted) return { stopReason: "cancelled", usage };
    return endWithError(usage, (err as Error).message);
  } finally {
    reportUsage(session, deps, usage);
  }
}

/**
 * Runs the compaction due before the next call, if any; returns the summary call's usage. A
 * failed compaction changes nothing and the turn goes on (the failure was said as a status).
 */
async function compactIfDue(session: Session, frame: RequestFrame, deps: TurnDeps, target: { provider: Provider; model: string }, signal: AbortSignal): Promise<Usage> {
  const fixed = { system: frame.system, tools: frame.tools.definitions };
  const due = dueCompaction(session, deps.config, fixed, providerCompacts(deps.config, target.provider));
  if (!due) return ZERO_USAGE;
  const writer = deps.resolveSummaryProvider ? await deps.resolveSummaryProvider(session) : target;
  const outcome = await compactSession(session, due, fixed, { ...writer, config: deps.config, events: deps.events, retry: retryPolicy(deps.config) }, signal);
  return outcome.usage;
}

function compactAtOf(session: Session, config: Config, provider: Provider): { compactAt?: number } {
  const at = providerCompactAt(session, config, provider);
  return at ? { compactAt: at } : {};
}

/** Told with the error of a turn whose prompt was taken back. */
const NOT_SENT = "Your prompt was not sent to the model and is not part of the conversation; send it again once this is fixed.";

function stopReasonOf(stop: string): StopReason {
  if (stop === "refusal") return "refusal";
  if (stop === "max_tokens") return "max_tokens";
  return "end_turn";
}

/** The retry settings of `config`, as callModel takes them. */
export function retryPolicy(config: Config) {
  return { maxRetries: config.retry.max_retries, initialDelayMs: config.retry.initial_delay_ms, maxDelayMs: config.retry.max_delay_ms };
}

/** Adds a turn's usage to the session's and reports it (with its cost) as a `usage` update. */
export function reportUsage(session: Session, deps: Pick<TurnDeps, "events"> & { config?: Config }, usage: Usage): void {
  // A turn that used nothing (it failed before the model read a token) has nothing to report:
  // a "$0.0000" line would only suggest the model was reached.
  if (usage.inputTokens + usage.outputTokens + usage.cacheReadTokens + usage.cacheWriteTokens === 0) return;
  session.usage = addUsage(session.usage, usage);
  const model = session.model.includes("/") ? session.model.slice(session.model.indexOf("/") + 1) : session.model;
  const cost = estimateCost(model, usage);
  if (cost !== undefined) session.cost += cost;
  deps.events.emit(session.id, {
    kind: "usage",
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    cachedTokens: usage.cacheReadTokens,
    ...(cost !== undefined ? { cost, sessionCost: session.cost } : {}),
    // How full the context is, by the provider's last count (what a client's gauge shows).
    ...(session.contextCount && deps.config ? { contextTokens: session.contextCount.tokens, contextWindow: contextWindow(session, deps.config) } : {}),
  });
}
