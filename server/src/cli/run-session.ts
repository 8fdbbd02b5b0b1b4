/**
 * The session an `agent-lsp run` works in: a new one, the project's most recent (`--continue`), or
 * a saved one by id (`--resume ID`), with --mode and --model applied. A resumed session's history
 * is loaded without being printed again: it was shown when it happened.
 */
import type { SessionInfo } from "../agent/agent.js";
import type { ConfiguredRuntime } from "../agent/configured-runtime.js";
import type { SafetyMode } from "../config/schema.js";
import type { HeadlessEditor } from "../editor/headless.js";
import { UsageError } from "./args.js";

/** Which session, and the settings asked for. */
export interface SessionChoice {
  /** `--continue`: the project's most recent saved session. */
  continueLast: boolean;
  /** `--resume ID`. */
  resume?: string;
  mode?: SafetyMode;
  model?: string;
}

/** The session to run in, and whether it was resumed; throws (exit 1) for a session that is not there. */
export async function openSession(runtime: ConfiguredRuntime, editor: HeadlessEditor, choice: SessionChoice): Promise<SessionInfo & { resumed: boolean }> {
  if (choice.continueLast && choice.resume) throw new UsageError("--continue and --resume are one or the other: --continue takes the most recent session, --resume ID a given one.");
  const agent = runtime.agent;
  if (!choice.continueLast && !choice.resume) {
    return { ...agent.newSession({ ...(choice.mode ? { mode: choice.mode } : {}), ...(choice.model ? { model: choice.model } : {}) }), resumed: false };
  }
  const id = choice.resume ?? mostRecent(runtime);
  try {
    await editor.withoutOutput(() => agent.loadSession(id));
  } catch (err) {
    throw new Error(`cannot resume the session "${id}": ${(err as Error).message}${savedSessionsHint(runtime)}`);
  }
  if (choice.mode) agent.setMode(id, choice.mode);
  const info = choice.model ? agent.setModel(id, choice.model) : { sessionId: id, mode: agent.get(id).mode, model: agent.get(id).model };
  return { ...info, resumed: true };
}

/** The id of the project's most recently written session. */
function mostRecent(runtime: ConfiguredRuntime): string {
  const [last] = runtime.agent.listSessions().sessions;
  if (!last) throw new Error(`there is no saved session in ${runtime.agent.deps.defaultRoot} to continue; start one with agent-lsp run "PROMPT".`);
  return last.sessionId;
}

/** The most recent saved sessions, to pick one from when the id given is not there. */
function savedSessionsHint(runtime: ConfiguredRuntime): string {
  let sessions;
  try {
    sessions = runtime.agent.listSessions().sessions;
  } catch {
    return "";
  }
  if (!sessions.length) return `\nThere is no saved session in ${runtime.agent.deps.defaultRoot}.`;
  const shown = sessions.slice(0, 5).map((s) => `  ${s.sessionId}  ${s.updatedAt}  ${s.title}`);
  return `\nThe most recent saved sessions here:\n${shown.join("\n")}`;
}
