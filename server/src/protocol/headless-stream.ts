/**
 * The lines `agent-lsp run --output-format stream-json` writes on stdout, and the one object of
 * `--output-format json`. Every line carries `schemaVersion`: a field is only ever added within a
 * version; a change that removes or renames one, or changes what one means, is a new version.
 * docs/headless.md documents each line and field; keep the two together.
 */
import type { SafetyMode } from "../config/schema.js";
import type { Usage } from "../vocabulary/messages.js";
import type { StopReason } from "./schemas.js";
import type { SessionUpdate } from "./updates.js";

/** The version of the line shapes below. */
export const HEADLESS_SCHEMA_VERSION = 1;

/** The first line: the session the run works in (a new one, or the one resumed). */
export interface SessionLine {
  schemaVersion: number;
  type: "session";
  sessionId: string;
  mode: SafetyMode;
  model: string;
  /** True for `--continue` / `--resume ID`. */
  resumed: boolean;
}

/** One update of the turn, as it streams (the same shapes as the editors' `agent/update`). */
export interface UpdateLine {
  schemaVersion: number;
  type: "update";
  sessionId: string;
  update: SessionUpdate;
}

/** A slash command that only answers (`/model`, `/context`...): its message. */
export interface CommandLine {
  schemaVersion: number;
  type: "command";
  sessionId: string;
  command: string;
  message: string;
}

/** How the run ended: the last line of stream-json, and the whole output of json. */
export interface ResultLine {
  schemaVersion: number;
  type: "result";
  sessionId: string;
  stopReason: StopReason;
  /** The final answer: the last model call's text, or attempt_completion's result. */
  text: string;
  /** Tokens of this run. */
  usage: Usage;
  /** Estimated US dollars of this run; null when the model's price is unknown. */
  cost: number | null;
  /** The process's exit status (docs/headless.md, "Exit status"). */
  exitCode: number;
  /** Why the turn did not end normally, when it did not. */
  error?: string;
  /** Gated actions refused because no one could approve them (exit status 3). */
  refusedApprovals?: number;
}

/** Any line. */
export type HeadlessLine = SessionLine | UpdateLine | CommandLine | ResultLine;

/** The line as written: one JSON object, with the schema version first. */
export function headlessLine<T extends Omit<HeadlessLine, "schemaVersion">>(line: T): string {
  return `${JSON.stringify({ schemaVersion: HEADLESS_SCHEMA_VERSION, ...line })}\n`;
}
