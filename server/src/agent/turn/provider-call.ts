/**
 * One model call with retries: streams text and thinking to the editor as it arrives, assembles
 * the assistant message, and retries 429/529/5xx/connection resets with backoff (honouring
 * retry-after) as long as nothing has been shown to the user from the failed attempt.
 */
import type { AssistantBlock, ToolCallBlock, Usage } from "../../vocabulary/messages.js";
import { addUsage, ZERO_USAGE } from "../../vocabulary/messages.js";
import { retryReason } from "../../providers/errors.js";
import type { Provider, ProviderRequest, ProviderStopReason } from "../../providers/provider.js";

/** Retry settings (config `[retry]`). */
export interface RetryPolicy {
  maxRetries: number;
  initialDelayMs: number;
  maxDelayMs: number;
}

/** Where streamed pieces go. */
export interface StreamSink {
  text(delta: string): void;
  thought(delta: string): void;
  status(text: string): void;
}

/** The outcome of one model call. */
export interface ModelResponse {
  content: AssistantBlock[];
  stop: ProviderStopReason | "error" | "cancelled";
  usage: Usage;
  /** Readable error when stop is "error". */
  error?: string;
  /** Provider status of the error, if any (lets the caller react to e.g. a native-tool 400). */
  errorStatus?: number;
  /** The summary of a server-side compaction the provider ran before answering (ProviderRequest.compactAt). */
  providerCompaction?: string;
}

/** Calls the model, retrying transient failures. */
export async function callModel(
  provider: Provider,
  request: ProviderRequest,
  signal: AbortSignal,
  sink: StreamSink,
  retry: RetryPolicy,
): Promise<ModelResponse> {
  let usage = ZERO_USAGE;
  for (let attempt = 0; ; attempt++) {
    const res = await streamOnce(provider, request, signal, sink);
    usage = addUsage(usage, res.usage);
    res.usage = usage;
    if (res.stop !== "error" || !res.retryable || res.emitted || attempt >= retry.maxRetries) return res;
    const delay = backoffDelay(attempt, retry, res.retryAfterMs);
    const reason = retryReason({ status: res.errorStatus, message: res.error ?? "the call failed" });
    sink.status(`retrying in ${formatSeconds(delay)}: ${reason} (attempt ${attempt + 2} of ${retry.maxRetries + 1})`);
    if (!(await sleep(delay, signal))) return { ...res, stop: "cancelled", error: undefined };
  }
}

interface AttemptResult extends ModelResponse {
  retryable: boolean;
  retryAfterMs?: number;
  /** Something from this attempt reached the user. */
  emitted: boolean;
}

async function streamOnce(
  provider: Provider,
  request: ProviderRequest,
  signal: AbortSignal,
  sink: StreamSink,
): Promise<AttemptResult> {
  const builder = new MessageBuilder();
  let usage = ZERO_USAGE;
  let stop: AttemptResult["stop"] | undefined;
  // Every outcome carries what was assembled so far and whether any of it reached the user.
  let providerCompaction: string | undefined;
  const end = (outcome: Omit<AttemptResult, "content" | "usage" | "emitted">): AttemptResult => ({
    content: builder.blocks,
    usage,
    emitted: builder.emitted,
    ...(providerCompaction !== undefined ? { providerCompaction } : {}),
    ...outcome,
  });
  try {
    for await (const ev of provider.stream(request, signal)) {
      // Running totals: the newest counts, even when it arrives as the user cancels.
      if (ev.type === "usage") usage = ev.usage;
      if (signal.aborted) break;
      switch (ev.type) {
        case "text_delta":
          builder.text(ev.text);
          sink.text(ev.text);
          break;
        case "thinking_delta":
          builder.thinkingDelta(ev.text);
          sink.thought(ev.text);
          break;
        case "thinking_end":
          builder.thinkingEnd(ev.text, ev.signature, ev.providerData);
          break;
        case "tool_call_start":
          builder.emitted = true;
          break;
        case "tool_call_delta":
          break;
        case "tool_call_end":
          builder.toolCall({
            type: "tool_call",
            id: ev.id,
            name: ev.name,
            input: ev.input,
            ...(ev.native ? { native: ev.native } : {}),
            ...(ev.providerData !== undefined ? { providerData: ev.providerData } : {}),
          });
          break;
        case "compaction":
          providerCompaction = ev.summary;
          break;
        case "stop":
          stop = ev.reason;
          break;
        case "error":
          return end({
            stop: signal.aborted ? "cancelled" : "error",
            error: ev.message,
            errorStatus: ev.status,
            retryable: ev.retryable,
            retryAfterMs: ev.retryAfterMs,
          });
      }
    }
  } catch (err) {
    // Providers promise never to throw; one that does is a bug we still must not crash on.
    if (!signal.aborted) return end({ stop: "error", error: `Provider failed: ${(err as Error).message}`, retryable: false });
  }
  if (signal.aborted) return end({ stop: "cancelled", retryable: false });
  if (!stop) return end({ stop: "error", error: "The model's response ended without a stop reason.", retryable: !builder.emitted });
  return end({ stop, retryable: false });
}

/** Collects streamed pieces into assistant blocks in the order they came. */
class MessageBuilder {
  readonly blocks: AssistantBlock[] = [];
  private pendingThinking = "";
  /** Something (text, thinking, a call) reached the user: a failure after this is not retried. */
  emitted = false;

  text(delta: string): void {
    this.emitted = true;
    const last = this.blocks[this.blocks.length - 1];
    if (last?.type === "text") last.text += delta;
    else this.blocks.push({ type: "text", text: delta });
  }

  thinkingDelta(delta: string): void {
    this.emitted = true;
    this.pendingThinking += delta;
  }

  thinkingEnd(text: string, signature?: string, providerData?: unknown): void {
    this.blocks.push({
      type: "thinking",
      text: text || this.pendingThinking,
      ...(signature ? { signature } : {}),
      ...(providerData !== undefined ? { providerData } : {}),
    });
    this.pendingThinking = "";
  }

  toolCall(call: ToolCallBlock): void {
    this.emitted = true;
    this.blocks.push(call);
  }
}

/** Exponential backoff with jitter, or the server's retry-after when it gave one. */
function backoffDelay(attempt: number, retry: RetryPolicy, retryAfterMs?: number): number {
  if (retryAfterMs !== undefined && retryAfterMs >= 0) return Math.min(retryAfterMs, retry.maxDelayMs * 4);
  const base = retry.initialDelayMs * 2 ** attempt;
  const jitter = base * 0.2 * Math.random();
  return Math.min(base + jitter, retry.maxDelayMs);
}

function formatSeconds(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${Math.round(ms / 100) / 10} s`;
}

/** Resolves true after `ms`, or false as soon as `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
