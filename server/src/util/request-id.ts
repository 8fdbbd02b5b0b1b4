/**
 * Ids of the requests agent-lsp sends to the person at the other end (permission prompts,
 * questions, and every JSON-RPC request on the wire). They are random, never a counter: a
 * counter starts again at 1 with every server and every connection, so an answer meant for a
 * request of an earlier server (or an earlier prompt) could settle a later one.
 */
import { randomUUID } from "node:crypto";

/** A fresh request id, unique across sessions, connections and server restarts. */
export function newRequestId(): string {
  return randomUUID();
}
