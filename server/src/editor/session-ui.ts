/**
 * The session UI: how the core asks the person at the other end (permission prompts, questions)
 * and tells them things outside a session's stream (work-done progress, a short message). A
 * session's own stream is the event stream (session-events.ts), which front ends render.
 */
import type { ToolCallFacts } from "../protocol/updates.js";

export { newRequestId } from "../util/request-id.js";

/** The choices of a permission prompt. */
export type PermissionOptionId = "allow_once" | "allow_always" | "reject";

/** A gated action to ask the user about. */
export interface PermissionRequest {
  sessionId: string;
  /**
   * This request's own id (newRequestId: random, never reused): a front end routes the answer
   * by it, and an answer that names another request is refused, never applied to this one.
   */
  requestId: string;
  /** The call, with what it is about (kind, files, command) so each client renders it its own way. */
  toolCall: { id: string; name: string; title: string; input: unknown } & ToolCallFacts;
  /** One line: what will happen (tool, path or command, +N/-M lines). */
  summary: string;
  /**
   * False when nothing of the action can be remembered (a sensitive location, a command run
   * through a shell...): the prompt then offers no "don't ask again".
   */
  rememberable?: boolean;
  /** Unified diff of a file change set. */
  diff?: string;
  /** Proposed final text per file, so a client can review (and trim) it hunk by hunk. */
  files?: { uri: string; oldText: string; newText: string }[];
}

/** The user's answer. `accepted` replaces the proposal's final text per file. */
export interface PermissionAnswer {
  optionId: PermissionOptionId;
  accepted?: { uri: string; text: string }[];
  /** The user's own words with a refusal ("No, and tell the agent..."), passed on to the model. */
  reason?: string;
  /** Set when the client could not answer (MethodNotFound, null, timeout, cancel). */
  note?: string;
}

/** A question for the user. */
export interface Question {
  sessionId: string;
  /** This question's own id (newRequestId), as for a permission request. */
  requestId: string;
  question: string;
  choices?: string[];
  allowFreeText?: boolean;
}

/** Work-done progress of a long operation. */
export interface ProgressHandle {
  report(message: string, percentage?: number): void;
  done(message?: string): void;
}

/** A command to run in the client's own terminal, under the exec layer's limits. */
export interface TerminalRun {
  sessionId: string;
  /** The tool call running it: the client shows the terminal in that call. */
  toolCallId: string;
  command: string;
  /** Absolute folder it runs in. */
  cwd: string;
  /** Killed after this long. */
  timeoutMs: number;
  /** Output kept (the client keeps the end). */
  maxOutputBytes: number;
  /** The turn's signal: a cancel kills the command. */
  signal: AbortSignal;
  /**
   * The program line to start instead of the platform's shell running `command` (the sandbox's,
   * which runs that shell inside it), with variables to add.
   */
  program?: { file: string; args: readonly string[]; env?: Record<string, string> };
}

/** How a terminal command ended. */
export interface TerminalResult {
  exitCode: number | null;
  signal: string | null;
  output: string;
  /** The client cut the output to `maxOutputBytes`. */
  truncated: boolean;
  durationMs: number;
  /** Set when it was killed: by the timeout or by a cancel. */
  killed?: "timeout" | "cancelled";
}

/** A terminal the client runs commands in, where the user watches them (ACP `terminal/*`). */
export interface ClientTerminal {
  /** Runs one command to its end (or kill); throws when the client cannot run it at all. */
  run(request: TerminalRun): Promise<TerminalResult>;
}

/** How the core asks and tells the user. */
export interface SessionUI {
  /** The client's terminal, when it offers one for the agent's commands. */
  readonly terminal?: ClientTerminal;
  requestPermission(request: PermissionRequest, signal: AbortSignal): Promise<PermissionAnswer>;
  askUser(question: Question, signal: AbortSignal): Promise<string | undefined>;
  /**
   * False when there is nobody to ask (a headless run without a terminal): `askUser` then answers
   * undefined without showing anything, and a message must not speak of a prompt. Absent: it asks.
   */
  readonly canAsk?: boolean;
  /** Starts work-done progress, when the client shows it. */
  progress(title: string): ProgressHandle;
  /** A short message to the user (window/showMessage). */
  showMessage(type: "error" | "warning" | "info", message: string): void;
  /**
   * Opens an address outside the editor, in the user's browser (LSP `window/showDocument` with
   * `external: true`), when the client can; resolves whether it did. Absent: it cannot, and the
   * caller shows the address instead.
   */
  openExternal?(url: string): Promise<boolean>;
}
