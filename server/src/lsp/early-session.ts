/**
 * `agent/newSession` answered before the agent has loaded: the params checked with the protocol's
 * schema, the session opened from the configuration alone (agent/runtime-start.ts); the agent
 * loads after the answer and adopts it before it serves anything else.
 */
import { ResponseError } from "./lsp-library.js";
import { ErrorCodes } from "../agent/errors.js";
import type { SessionInfo } from "../agent/agent.js";
import type { RuntimeStart } from "../agent/runtime-start.js";

export { RuntimeStart } from "../agent/runtime-start.js";
import { describeParamsError, newSessionParams } from "../protocol/schemas.js";
import type { Logger } from "../util/log.js";
import { toResponseError } from "./response-errors.js";

const METHOD = "agent/newSession";

/** Opens a session in `root` for `raw` params; a JSON-RPC error for bad params or a refused session. */
export function earlyNewSession(start: RuntimeStart, root: string, raw: unknown, log: Logger): SessionInfo {
  const parsed = newSessionParams.safeParse(raw ?? {});
  if (!parsed.success) throw new ResponseError(ErrorCodes.InvalidParams, describeParamsError(METHOD, parsed.error));
  try {
    return start.newSession(root, parsed.data);
  } catch (err) {
    throw toResponseError(METHOD, err, log);
  }
}
