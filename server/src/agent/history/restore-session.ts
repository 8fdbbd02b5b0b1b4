/**
 * A session rebuilt from its log (agent/loadSession): what the log recorded becomes the
 * session's state, and lines that could not be read are said, not silently dropped.
 */
import { isWiderMode } from "../../config/project-limits.js";
import { SAFETY_MODES, type SafetyMode } from "../../config/schema.js";
import type { Workspace } from "../../workspace/workspace.js";
import type { LoadedHistory } from "./history.js";
import type { HistoryLog } from "./history-log.js";
import { Session } from "../session.js";

/**
 * The mode a resumed session comes back in: the one its log recorded, unless that lets the agent
 * do more unasked than the configured `safety`. A session log is a file in the project, which a
 * repository can ship with `full_access` in it; widening again takes the user's own `/mode`.
 */
export function resumedMode(logged: string, configured: SafetyMode): { mode: SafetyMode; note?: string } {
  if (!SAFETY_MODES.includes(logged as SafetyMode)) return { mode: configured };
  if (!isWiderMode(logged as SafetyMode, configured)) return { mode: logged as SafetyMode };
  return {
    mode: configured,
    note: `This session was left in ${logged} mode; it comes back in ${configured} (your configured safety), as a session log is a file a repository can ship. Use /mode ${logged} to go back to it.`,
  };
}

/** The session `loaded` describes, on `workspace`, appending to `log`; mode and model default from the config. */
export function restoreSession(sessionId: string, loaded: LoadedHistory, workspace: Workspace, log: HistoryLog, defaults: { mode: SafetyMode; model: string }): Session {
  return new Session(sessionId, workspace, log, {
    mode: resumedMode(loaded.mode, defaults.mode).mode,
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
