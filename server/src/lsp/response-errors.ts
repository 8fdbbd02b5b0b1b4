/**
 * How an agent protocol request's failure reaches the client: an agent error keeps its JSON-RPC
 * code and message; anything else is logged with its stack and answered as an internal error.
 */
import { ResponseError } from "./lsp-library.js";
import { AgentRequestError, ErrorCodes } from "../agent/errors.js";
import type { Logger } from "../util/log.js";

/** The JSON-RPC error `err` answers `method` with. */
export function toResponseError(method: string, err: unknown, log: Logger): ResponseError<void> {
  if (err instanceof ResponseError) return err;
  if (err instanceof AgentRequestError) return new ResponseError(err.code, err.message);
  log.error(`${method} failed: ${(err as Error).stack ?? String(err)}`);
  return new ResponseError(ErrorCodes.InternalError, `${method} failed: ${(err as Error).message}`);
}
