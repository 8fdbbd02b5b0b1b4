/**
 * What a new session is before the agent holds it: its id, mode, model and the history log it
 * writes to, checked and created from the configuration alone. The Agent adopts it (its
 * workspace and turns); a front end can answer the new session from this while the runtime
 * still loads (runtime-start.ts), so it imports nothing of the turn machinery.
 */
import path from "node:path";
import type { Config, SafetyMode } from "../config/schema.js";
import { parseModelRef, providerSettings } from "../providers/registry.js";
import { AgentRequestError, ErrorCodes, requestFailed } from "./errors.js";
import { HistoryLog } from "./history/history-log.js";

/** What a new session asks for. */
export interface NewSessionParams {
  cwd?: string;
  mode?: SafetyMode;
  model?: string;
  spawned?: boolean;
}

/** A session opened and logged, not yet held by an agent. */
export interface OpenedSession {
  sessionId: string;
  mode: SafetyMode;
  model: string;
  root: string;
  log: HistoryLog;
  spawned: boolean;
}

/**
 * Checks the model, picks an id and starts the session's history log in `defaultRoot` (or the
 * params' cwd). Throws an InvalidParams error for a model no provider serves, and a request
 * error naming the state folder's problem when it cannot take the log (a link refused, a full
 * disk).
 */
export function openSession(config: Config, defaultRoot: string, params: NewSessionParams): OpenedSession {
  const root = path.resolve(defaultRoot, params.cwd ?? ".");
  const model = params.model ?? config.model;
  checkModel(model, config);
  const sessionId = newSessionId();
  const mode = params.mode ?? config.safety;
  const log = requestFailed(() => HistoryLog.create(root, { type: "session", sessionId, created: new Date().toISOString(), cwd: root, mode, model }));
  if (params.spawned) requestFailed(() => log.settings({ spawned: true }));
  return { sessionId, mode, model, root, log, spawned: params.spawned ?? false };
}

/** InvalidParams unless a configured provider serves `model`. */
export function checkModel(model: string, config: Config): void {
  try {
    const ref = parseModelRef(model, config);
    providerSettings(ref.provider, config);
  } catch (err) {
    throw new AgentRequestError(ErrorCodes.InvalidParams, `model: ${(err as Error).message}`);
  }
}

/** A new session id: time-ordered and safe as a file name. */
export function newSessionId(): string {
  const t = Date.now().toString(36);
  const r = Math.random().toString(36).slice(2, 8);
  return `s-${t}-${r}`;
}
