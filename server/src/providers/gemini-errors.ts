/**
 * Gemini failures -> the `error` ProviderEvent, on top of the shared mapping in errors.ts.
 * `@google/genai`'s ApiError carries only `status` and a message holding Google's JSON error body
 * (`{"error":{code,message,status,details}}`): verbatim for an HTTP error, after
 * `got status: X. ` for an error event inside the stream. Its headers are lost, so the adapter
 * passes the ones it recorded.
 */
import {
  isRetryableStatus,
  providerErrorEvent,
  truncatedStreamEvent,
  type ErrorContext,
  type ProviderErrorEvent,
} from "./errors.js";

interface GoogleErrorBody {
  code?: number;
  message?: string;
  status?: string;
  details?: Array<{ "@type"?: string; retryDelay?: string }>;
}

/** Finds Google's error envelope inside an ApiError message. */
function parseErrorBody(message: string): GoogleErrorBody | undefined {
  const start = message.indexOf("{");
  if (start < 0) return undefined;
  try {
    const parsed = JSON.parse(message.slice(start)) as { error?: GoogleErrorBody };
    return typeof parsed.error === "object" && parsed.error !== null ? parsed.error : undefined;
  } catch {
    return undefined;
  }
}

/** `google.rpc.RetryInfo.retryDelay` is a protobuf Duration in JSON: `"3s"`, `"0.250s"`. */
function retryInfoDelayMs(body: GoogleErrorBody | undefined): number | undefined {
  const info = body?.details?.find((d) => d["@type"]?.endsWith("google.rpc.RetryInfo"));
  const match = /^(\d+(?:\.\d+)?)s$/.exec(info?.retryDelay ?? "");
  return match ? Math.round(Number(match[1]) * 1000) : undefined;
}

function isApiError(error: unknown): error is Error & { status: number } {
  return error instanceof Error && error.name === "ApiError" && typeof (error as { status?: unknown }).status === "number";
}

/**
 * Maps whatever the SDK threw to an error event, or `undefined` for our own abort. `headers` are
 * those of the HTTP response, when one arrived (the source of `retry-after`).
 */
export function geminiErrorEvent(error: unknown, ctx: ErrorContext, headers?: Headers): ProviderErrorEvent | undefined {
  if (ctx.signal?.aborted) return undefined;
  if (isApiError(error)) {
    const body = parseErrorBody(error.message);
    const words = [body?.status, body?.message].filter(Boolean).join(": ") || error.message;
    if (error.message.startsWith("got status:")) {
      // In-band: the HTTP status was 200, `code` is the status the failure would have had.
      return {
        type: "error",
        message: `${ctx.provider ?? "gemini"} reported an error mid-stream: ${words}`,
        status: error.status,
        retryable: isRetryableStatus(error.status) && !ctx.emittedContent,
      };
    }
    const event = providerErrorEvent({ status: error.status, headers, error: { message: words } }, ctx)!;
    const retryInfo = retryInfoDelayMs(body);
    if (event.retryAfterMs === undefined && retryInfo !== undefined) event.retryAfterMs = retryInfo;
    return event;
  }
  // The SDK's own words when the connection closed inside an event.
  if (error instanceof Error && error.message.startsWith("Incomplete JSON segment")) return truncatedStreamEvent(ctx);
  return providerErrorEvent(error, ctx);
}
