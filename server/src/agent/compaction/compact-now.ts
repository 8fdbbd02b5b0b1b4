/**
 * A compaction the user asked for (`/compact [focus]`), run outside a turn: the request frame is
 * the one the next turn would send, the summary call's tokens count towards the session's.
 */
import type { Provider } from "../../providers/provider.js";
import { compactSession } from "./compaction.js";
import { requestFrame } from "../turn/request-frame.js";
import type { CompactionRequest, Session } from "../session.js";
import { reportUsage, retryPolicy, type TurnDeps } from "../turn/turn.js";

/** Runs the compaction; resolves with what to tell the user, or rejects with why nothing changed. */
export async function compactNow(
  session: Session,
  request: CompactionRequest,
  deps: Omit<TurnDeps, "resolveProvider">,
  target: { provider: Provider; model: string },
  signal: AbortSignal,
): Promise<string> {
  const frame = requestFrame(session, deps, target.provider.type);
  const fixed = { system: frame.system, tools: frame.tools.definitions };
  const outcome = await compactSession(session, request, fixed, { ...target, config: deps.config, events: deps.events, retry: retryPolicy(deps.config) }, signal);
  reportUsage(session, deps, outcome.usage);
  if (!outcome.ok) throw new Error(outcome.reason);
  const r = outcome.record;
  return `Compacted (checkpoint ${r.n}): about ${r.tokensBefore} -> ${r.tokensAfter} tokens; messages 1-${r.through} are in the archive (the model reads them with context_archive).`;
}
