/**
 * Server-to-client requests that never hang a turn: each one is withdrawn ($/cancelRequest)
 * when the turn is cancelled or its deadline passes, and the caller learns which happened. The
 * request itself may still be answered later (`late`): an editor can apply an edit it was slow
 * to answer.
 */
import type { CancellationToken } from "vscode-languageserver/node.js";
import { CancellationTokenSource } from "./lsp-library.js";

/** How a request ended. */
export type RequestOutcome =
  | { kind: "answer"; value: unknown }
  | { kind: "error"; error: unknown }
  | { kind: "cancelled"; note: string }
  | { kind: "timeout"; note: string };

/** A sent request: its outcome, and the answer should it come after a cancel or timeout. */
export interface SentRequest {
  outcome: Promise<RequestOutcome>;
  /** Settles with the client's own answer (or error), whenever it comes. */
  late: Promise<RequestOutcome>;
}

/** Sends a request that `signal` or `timeoutMs` withdraws. */
export function sendWithdrawable(signal: AbortSignal | undefined, timeoutMs: number, send: (token: CancellationToken) => Promise<unknown>): SentRequest {
  const source = new CancellationTokenSource();
  const late = send(source.token).then(
    (value): RequestOutcome => ({ kind: "answer", value }),
    (error): RequestOutcome => ({ kind: "error", error }),
  );
  if (signal?.aborted) {
    source.cancel();
    return { outcome: Promise.resolve({ kind: "cancelled", note: "Cancelled." }), late };
  }
  let withdraw!: (o: RequestOutcome) => void;
  const withdrawn = new Promise<RequestOutcome>((resolve) => (withdraw = resolve));
  const stop = (o: RequestOutcome) => {
    withdraw(o);
    source.cancel();
  };
  const onAbort = () => stop({ kind: "cancelled", note: "Cancelled." });
  signal?.addEventListener("abort", onAbort, { once: true });
  const timer = setTimeout(() => stop({ kind: "timeout", note: `No answer within ${formatSeconds(timeoutMs)}.` }), timeoutMs);
  const outcome = Promise.race([late, withdrawn]).finally(() => {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
    source.dispose();
  });
  return { outcome, late };
}

function formatSeconds(ms: number): string {
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}
