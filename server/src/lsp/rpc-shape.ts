/**
 * The shape of a JSON-RPC 2.0 message, checked before the LSP library sees it. The library
 * silently drops a request whose `method` is not a string or that has an id but no method, and
 * accepts one without `"jsonrpc": "2.0"`; a client waiting for the answer to such a request would
 * wait forever. Here every malformed request gets an Invalid Request error (-32600) that says what
 * was wrong, and a malformed notification, which must never be answered, is reported for the log.
 *
 * No dependency on the LSP library: the start-up path checks messages before it loads.
 */
import type { FramingError } from "./framing.js";

/** JSON-RPC's Invalid Request code. */
const INVALID_REQUEST = -32600;

/** A value as it appears in an error message: `123`, `"1.0"`, `true`, `an object`. */
function shown(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? String(value);
  return Array.isArray(value) ? "an array" : "an object";
}

/** What is wrong with a request or notification's fields, or undefined when nothing is. */
function fieldProblem(m: Record<string, unknown>): string | undefined {
  if (m.jsonrpc !== "2.0") return `"jsonrpc" must be "2.0" (${"jsonrpc" in m ? `got ${shown(m.jsonrpc)}` : "it is missing"})`;
  if (!("method" in m)) return 'the message has no "method" (and no "result" or "error", so it is not a response either)';
  if (typeof m.method !== "string") return `"method" must be a string naming the method (got ${shown(m.method)})`;
  // `null` counts as no params: some clients send `"params": null` with shutdown.
  if (m.params !== undefined && m.params !== null && typeof m.params !== "object") {
    return `"params" must be an object or an array (got ${shown(m.params)})`;
  }
  return undefined;
}

/**
 * The problem with a parsed message, ready to answer (requests) or to log (notifications, marked
 * `notification`), or undefined for a well-formed message. Responses from the client (no method,
 * a result or an error) are the library's to match and are never answered.
 */
export function messageShapeProblem(message: object): FramingError | undefined {
  const m = message as Record<string, unknown>;
  if (!("method" in m) && ("result" in m || "error" in m)) return undefined;
  const hasId = "id" in m && m.id !== undefined;
  const idIsValid = typeof m.id === "string" || typeof m.id === "number";
  const problem = hasId && !idIsValid ? `"id" must be a string or a number (got ${shown(m.id)})` : fieldProblem(m);
  if (!problem) return undefined;
  if (!hasId) return { message: `Invalid notification: ${problem}; it was ignored.`, id: null, code: INVALID_REQUEST, notification: true };
  return { message: `Invalid request: ${problem}.`, id: idIsValid ? (m.id as string | number) : null, code: INVALID_REQUEST };
}
