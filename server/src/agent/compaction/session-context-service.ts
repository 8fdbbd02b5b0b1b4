/**
 * The agent's side of the context tools' service (tools/session/session-context.ts): the session's log as
 * an archive, and compaction requests.
 */
import type { SessionContextService } from "../../tools/session/session-context.js";
import { logArchive } from "../history/archive.js";
import type { Session } from "../session.js";

/** The service over the sessions `get` finds (it throws for an unknown id). */
export function sessionContextService(get: (sessionId: string) => Session): SessionContextService {
  return {
    archive: (sessionId) => logArchive(get(sessionId).log.file),
    requestCompaction(sessionId, focus) {
      get(sessionId).compactionRequest = { trigger: "model", ...(focus ? { focus } : {}) };
    },
  };
}
