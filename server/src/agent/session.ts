/**
 * A session: one conversation in one project, with its mode, model, history and log.
 */
import type { SafetyMode } from "../config/schema.js";
import type { Message, Usage } from "../providers/messages.js";
import { ZERO_USAGE } from "../providers/messages.js";
import type { Trust } from "../policy/types.js";
import type { Workspace } from "../workspace/workspace.js";
import type { HistoryLog } from "./history.js";

/** A turn in flight. */
export interface ActiveTurn {
  controller: AbortController;
  /** Settles when the turn has finished writing its history. */
  done: Promise<unknown>;
}

/** One conversation. */
export class Session {
  readonly history: Message[] = [];
  mode: SafetyMode;
  model: string;
  trust: Trust = "operator";
  usage: Usage = ZERO_USAGE;
  cost = 0;
  turn: ActiveTurn | undefined;
  /** Set after a provider rejected its native tools: our schemas for the rest of the session. */
  nativeToolsDisabled = false;

  constructor(
    readonly id: string,
    readonly workspace: Workspace,
    readonly log: HistoryLog,
    init: { mode: SafetyMode; model: string; history?: Message[] },
  ) {
    this.mode = init.mode;
    this.model = init.model;
    if (init.history) this.history.push(...init.history);
  }

  get root(): string {
    return this.workspace.root;
  }

  /** Appends a message to memory and to the log, in that order of durability: log first. */
  append(message: Message): void {
    this.log.append(message);
    this.history.push(message);
  }
}

/** A new session id: time-ordered and safe as a file name. */
export function newSessionId(): string {
  const t = Date.now().toString(36);
  const r = Math.random().toString(36).slice(2, 8);
  return `s-${t}-${r}`;
}
