/**
 * A session rebuilt from its log (agent/loadSession): what the log recorded becomes the
 * session's state, and lines that could not be read are said, not silently dropped.
 */
import type { SafetyMode } from "../../config/schema.js";
import type { Workspace } from "../../workspace/workspace.js";
import type { LoadedHistory } from "./history.js";
import type { HistoryLog } from "./history-log.js";
import { Session } from "../session.js";

/** The session `loaded` describes, on `workspace`, appending to `log`; mode and model default from the config. */
export function restoreSession(sessionId: string, loaded: LoadedHistory, workspace: Workspace, log: HistoryLog, defaults: { mode: SafetyMode; model: string }): Session {
  return new Session(sessionId, workspace, log, {
    mode: (loaded.mode || defaults.mode) as SafetyMode,
    model: loaded.model || defaults.model,
    history: loaded.messages,
    seqs: loaded.seqs,
    failedPrompts: loaded.failedPrompts,
    activatedTools: loaded.activatedTools,
    lastPromptSeq: loaded.lastPromptSeq,
    ...(loaded.compaction ? { lastCompaction: loaded.compaction } : {}),
    checklist: loaded.checklist,
    spawned: loaded.spawned,
    routes: loaded.routes,
  });
}

/** The status that names the log lines a load left out (the replay and the model's context have a gap). */
export function unreadableLinesNote(lines: readonly number[], file: string): string {
  const shown = lines.length > 10 ? `${lines.slice(0, 10).join(", ")}...` : lines.join(", ");
  return `${lines.length} line(s) of this session's log could not be read (cut off by a crash, or corrupt) and were left out: line ${shown} of ${file}.`;
}
