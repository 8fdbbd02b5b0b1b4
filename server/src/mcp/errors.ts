/**
 * Errors from the SDK, a server or its process, in words that say which server and what went
 * wrong, for status updates, `agent-lsp mcp list`, doctor and tool results.
 */

/** What an error from the SDK or a server means, in one sentence without the server's name. */
export function describeMcpError(err: unknown, context: { timeoutMs?: number; stderr?: string } = {}): string {
  const e = err as { code?: unknown; message?: string; cause?: { code?: string; message?: string } };
  const message = e?.message ?? String(err);
  const tail = context.stderr ? ` (its last output: ${context.stderr})` : "";
  switch (e?.code) {
    case "ENOENT":
      return `the command was not found: ${message.replace(/^spawn\s+/, "").replace(/\s+ENOENT$/, "")}`;
    case "EACCES":
      return `the command cannot be run (permission denied): ${message}`;
    case "REQUEST_TIMEOUT":
      return `did not answer within ${context.timeoutMs !== undefined ? `${Math.round(context.timeoutMs / 100) / 10} s` : "the time allowed"}${tail}`;
    case "CONNECTION_CLOSED":
    case "NOT_CONNECTED":
      return `closed the connection${tail}`;
    case "UNSUPPORTED_RESULT_TYPE":
    case "INPUT_REQUIRED_ROUNDS_EXCEEDED":
      return `asked for input from the user or the model (elicitation, sampling or roots), which agent-lsp does not provide: ${message}`;
    case "INVALID_RESULT":
      return `sent an answer that is not valid MCP: ${message}`;
    default:
      break;
  }
  if (e?.code === -32021) {
    // MissingRequiredClientCapability: the tool wanted elicitation, sampling or roots.
    return `asked for input from the user or the model (elicitation, sampling or roots), which agent-lsp does not provide: ${message}`;
  }
  if (e?.code === -32022) {
    // A 2026-07-28-only server that answered server/discover after the client gave up on it.
    return `answered with error -32022: ${message} (it may speak only newer protocol versions and have answered server/discover too late: raise [mcp] discover_timeout_s)`;
  }
  if (typeof e?.code === "number") return `answered with error ${e.code}: ${message}${tail}`;
  if (e?.cause?.code === "ECONNREFUSED") return `cannot be reached (connection refused): ${e.cause.message ?? message}`;
  if (/fetch failed/i.test(message) && e?.cause) return `cannot be reached: ${e.cause.message ?? message}`;
  return `${message}${tail}`;
}

/** An error raised when a call is made while the server is not ready. */
export class ServerUnavailableError extends Error {}
