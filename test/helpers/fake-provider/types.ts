/**
 * Shared shapes of the fake provider: a local HTTP server that speaks each model API's real
 * streaming wire format, scripted turn by turn, recording and validating every request.
 */
import type { IncomingHttpHeaders, ServerResponse } from "node:http";

/** The wire APIs the fake speaks. */
export type WireFormatName = "anthropic" | "openai-responses" | "openai-chat" | "gemini";

/** A tool call the scripted model makes. */
export interface FakeToolCall {
  /** Call id; generated in the format's own style when absent. */
  id?: string;
  name: string;
  input: unknown;
  /**
   * Format-specific kind of call, for provider-native tools: e.g. `"apply_patch_call"` on
   * OpenAI Responses (then `input` is the `operation` object). Absent: an ordinary function call.
   */
  nativeKind?: string;
}

/** One scripted model response. Every field is optional; an empty turn answers "" and ends. */
export interface FakeTurn {
  /** Answer text, streamed in chunks of `chunkSize` characters (default 8). */
  text?: string;
  /** Reasoning / thinking text, streamed before the answer. */
  thinking?: string;
  toolCalls?: FakeToolCall[];
  /**
   * Anthropic only: the request asked for server-side compaction (`context_management`) and the
   * API compacted: this summary streams first as a `compaction` block.
   */
  compaction?: string;
  usage?: { input?: number; output?: number; cacheRead?: number; cacheWrite?: number };
  /** Defaults to `tool_use` when there are tool calls, else `end_turn`. */
  stop?: "end_turn" | "tool_use" | "max_tokens" | "refusal";
  /** Answer with this HTTP error instead of a stream, shaped like the API's own error body. */
  error?: { status: number; message?: string; type?: string; retryAfterSeconds?: number };
  /** Send this many stream events, then destroy the connection (a stream that closes halfway). */
  cutAfterEvents?: number;
  /** Send an event in the middle of the stream that the format defines as an error event. */
  streamError?: { message: string; type?: string };
  /** Pause between streamed events. */
  chunkDelayMs?: number;
  chunkSize?: number;
  /** Start the stream, send the first text chunk, then stay open until the client disconnects. */
  hang?: boolean;
  /**
   * Go silent after `afterEvents` stream events (0: before even the response headers): write
   * nothing until the client leaves, or for `forMs` and then carry on. With `pingEveryMs` the
   * silence carries the format's keep-alive (Anthropic's `ping` event, an SSE comment elsewhere).
   */
  stall?: { afterEvents: number; forMs?: number; pingEveryMs?: number };
}

/** A request the fake received. */
export interface RecordedRequest {
  format: WireFormatName;
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: any;
  /** What was wrong with it (empty when valid). */
  violations: string[];
}

/** What a format's writer gets. */
export interface TurnContext {
  res: ServerResponse;
  /** The parsed request body. */
  body: any;
  path: string;
  /** Aborted when the client disconnects. */
  signal: AbortSignal;
  /** Writes one SSE/NDJSON event honouring chunkDelayMs, cutAfterEvents and the abort signal. */
  send(event: string | undefined, data: unknown): Promise<void>;
}

/** One model API's wire format. */
export interface WireFormat {
  name: WireFormatName;
  /** True when this format serves the request. */
  matches(method: string, path: string): boolean;
  /** Returns every way the request violates the API's contract (empty when valid). */
  validate(body: any, path: string, headers: IncomingHttpHeaders): string[];
  /** Writes the API's HTTP error response for `turn.error` (or for a violation, status 400). */
  writeError(res: ServerResponse, error: NonNullable<FakeTurn["error"]>): void;
  /** Streams `turn` in the API's exact format. */
  writeTurn(turn: FakeTurn, ctx: TurnContext): Promise<void>;
  /** The API's own keep-alive event, when it has one (else a stall's pings are SSE comments). */
  keepAlive?: { event: string; data: unknown };
}
