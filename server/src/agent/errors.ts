/** Errors a front end turns into wire errors (JSON-RPC codes) or exit statuses. */

/** JSON-RPC error codes the agent protocol uses. */
export const ErrorCodes = {
  InvalidParams: -32602,
  MethodNotFound: -32601,
  InternalError: -32603,
  /** The request is valid but cannot be carried out now (LSP RequestFailed). */
  RequestFailed: -32803,
} as const;

/** A request the agent refuses, with the code a JSON-RPC front end should answer with. */
export class AgentRequestError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Runs `fn`; an error it throws (agent-lsp's state could not take a record: a full disk, a link
 * refused) fails the request with that error's message, not as an internal error.
 */
export function requestFailed<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof AgentRequestError) throw err;
    throw new AgentRequestError(ErrorCodes.RequestFailed, (err as Error).message);
  }
}
