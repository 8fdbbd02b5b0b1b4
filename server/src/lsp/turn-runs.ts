/**
 * Turns started through workspace/executeCommand (the code actions and `agent.prompt`). Clients
 * such as eglot call executeCommand synchronously with a short timeout, so the request is
 * answered as soon as the turn runs (or before the user is asked something that comes first);
 * the end is reported by $/progress and, to clients without the agent protocol, a
 * window/showMessage carrying the answer. A caller that asks to `wait` gets the end as the answer.
 */
import type { ClientCapabilities } from "vscode-languageserver/node.js";
import type { Agent, TurnOutcome } from "../agent/agent.js";
import { AgentRequestError, ErrorCodes } from "../agent/errors.js";
import type { Editor } from "../editor/editor.js";
import type { ProgressHandle } from "../editor/session-ui.js";
import { ZERO_USAGE } from "../vocabulary/messages.js";
import type { PromptParams } from "../protocol/schemas.js";
import type { Logger } from "../util/log.js";
import { outcome, summaryText, summaryType } from "./run-summary.js";
import { watchRun, type RunWatch } from "./run-watch.js";

/** The editor as runs need it: the seam plus what the client declared. */
export type CommandEditor = Editor & { capabilities: ClientCapabilities };

/** What the runs are built from. */
export interface TurnRunsDeps {
  agent: () => Agent;
  editor: CommandEditor;
  log: Logger;
  /**
   * The chat file, when it is on: each run's turn is written into a section of its own (the
   * user's words under `## You`, then the answer under `## Agent`); a prompt taken from the
   * file's draft (`draft`) leaves the draft.
   */
  chat?: () => ChatTurns | undefined;
}

/** The chat file as runs use it. */
export interface ChatTurns {
  /** Starts the run's section: its words under `## You`; a prompt from the draft leaves it. */
  follow(sessionId: string, prompt: string, draft?: string): Promise<void>;
  /** Resolves once everything rendered so far is in the file. */
  written(): Promise<void>;
  /** Holds the turn back while another session's block waits; false when cancelled meanwhile. */
  queueTurn(sessionId: string, title: string, signal: AbortSignal, onQueued: () => void): Promise<boolean>;
  /** The turn of `sessionId` (queued or not) ended or failed to start. */
  turnEnded(sessionId: string): void;
}

/** How a run stood when its client was answered: running (or over), or queued behind a waiting block. */
export type RunStart = "started" | "queued";

/** One run to start. */
export interface RunRequest {
  sessionId: string;
  /** Progress title and the summary's headline, in words ("Agent: fix math.js:2"). */
  title: string;
  /** The prompt; it may ask the user first (then `asks` is set). Undefined: the user dismissed it. */
  prompt(signal: AbortSignal): Promise<string | undefined>;
  asks?: boolean;
  context?: PromptParams["context"];
  /** What the chat file shows as the user's words: the title by default. */
  chatText?: string;
  /** The chat file's draft as it was read, when the prompt came from it (it leaves the draft). */
  draft?: string;
}

/** How a run ended, with the answer text. */
export interface RunResult extends TurnOutcome {
  sessionId: string;
  answer: string;
}

/** A run under way. */
export interface StartedRun {
  /** Resolves when the client may be answered, saying whether it was queued; rejects when the run could not start. */
  begun: Promise<RunStart>;
  /** Settles when the run ends; rejects only when it failed before `begun`. */
  finished: Promise<RunResult>;
}

/** Starts and reports executeCommand turns. */
export class TurnRuns {
  /** Sessions whose run is being set up (building the prompt, perhaps asking the user). */
  private readonly setting = new Map<string, AbortController>();

  constructor(private readonly deps: TurnRunsDeps) {}

  /** Starts a run; throws RequestFailed at once when the session is busy. */
  start(request: RunRequest): StartedRun {
    const agent = this.deps.agent();
    agent.assertIdle(request.sessionId);
    if (this.setting.has(request.sessionId)) {
      throw new AgentRequestError(ErrorCodes.RequestFailed, `Session ${request.sessionId} is already starting a turn; cancel it or wait for it to end.`);
    }
    const abort = new AbortController();
    this.setting.set(request.sessionId, abort);
    let markBegun!: (status: RunStart) => void;
    const began = new Promise<RunStart>((resolve) => (markBegun = resolve));
    let begun = false;
    const onBegun = (status: RunStart = "started") => {
      begun = true;
      markBegun(status);
    };
    const finished = this.run(agent, request, abort.signal, onBegun)
      .catch((err: Error) => {
        if (!begun) throw err;
        return this.failedLate(request, err);
      })
      .finally(() => {
        if (this.setting.get(request.sessionId) === abort) this.setting.delete(request.sessionId);
      });
    return { begun: Promise.race([began, finished.then((): RunStart => "started")]), finished };
  }

  /** Cancels the run of `sessionId` (its question or its turn), or every run without one. */
  cancel(sessionId?: string): string[] {
    const agent = this.deps.agent();
    if (sessionId === undefined) {
      const asking = [...this.setting.keys()];
      for (const controller of this.setting.values()) controller.abort();
      return [...new Set([...asking, ...agent.cancelAll()])];
    }
    this.setting.get(sessionId)?.abort();
    agent.cancel(sessionId);
    return [sessionId];
  }

  private async run(agent: Agent, request: RunRequest, signal: AbortSignal, begun: (status?: RunStart) => void): Promise<RunResult> {
    const { sessionId } = request;
    // A question comes before the turn: answer the client first, it may be waiting synchronously.
    if (request.asks) begun();
    const prompt = await request.prompt(signal);
    const chat = this.deps.chat?.();
    // While a block waits in the chat file the turn queues after the one waiting; the client is answered now.
    const go = prompt && !signal.aborted && (!chat || (await chat.queueTurn(sessionId, request.title, signal, () => begun("queued"))));
    if (!go || signal.aborted) {
      chat?.turnEnded(sessionId);
      begun();
      return { sessionId, stopReason: "cancelled", usage: ZERO_USAGE, answer: "" };
    }
    try {
      return await this.runTurn(agent, request, prompt, begun);
    } finally {
      chat?.turnEnded(sessionId);
    }
  }

  /** The turn itself, once it may start: its section, the agent's turn, the report. */
  private async runTurn(agent: Agent, request: RunRequest, prompt: string, begun: (status?: RunStart) => void): Promise<RunResult> {
    const { sessionId } = request;
    const chat = this.deps.chat?.();
    if (chat) await chat.follow(sessionId, request.chatText ?? request.title, request.draft);
    const progress = this.deps.editor.progress(request.title);
    const watch = watchRun(this.deps.agent().deps.events, sessionId, progress);
    try {
      const started = await agent.startTurn({ sessionId, prompt, ...(request.context ? { context: request.context } : {}) });
      this.setting.delete(sessionId);
      begun();
      const end = await started.finished;
      // The end is said once the answer is in the chat file, so "done" means it can be read there.
      await chat?.written().catch(() => undefined); // a failed write is logged by the writer; the turn still ends
      this.report(request, end, watch, progress);
      return { sessionId, ...end, answer: watch.answer() };
    } catch (err) {
      progress.done(`Failed: ${(err as Error).message}`);
      throw err;
    } finally {
      watch.stop();
    }
  }

  /** Ends the progress and, for a client without the agent protocol, shows the summary. */
  private report(request: RunRequest, end: TurnOutcome, watch: RunWatch, progress: ProgressHandle): void {
    const facts = { stopReason: end.stopReason, error: end.error, files: watch.files, notDone: watch.notDone };
    progress.done(outcome(facts));
    if (this.hasChatUi()) return;
    const cost = watch.cost();
    const summary = { ...facts, title: request.title, answer: watch.answer(), ...(cost === undefined ? {} : { cost }) };
    this.deps.editor.showMessage(summaryType(summary), summaryText(summary));
  }

  /** A run that failed after the client was answered: said to the user, since no request can carry it. */
  private failedLate(request: RunRequest, err: Error): RunResult {
    const message = err instanceof AgentRequestError ? err.message : `${err.message}`;
    if (!(err instanceof AgentRequestError)) this.deps.log.error(`${request.title} failed: ${err.stack ?? err.message}`);
    this.deps.editor.showMessage("error", `${request.title}: failed: ${message}`);
    return { sessionId: request.sessionId, stopReason: "error", usage: ZERO_USAGE, error: message, answer: "" };
  }

  /** A client that declares the agent protocol streams the answer into its own UI. */
  private hasChatUi(): boolean {
    const exp = this.deps.editor.capabilities.experimental as { agent?: unknown } | undefined;
    return Boolean(exp?.agent);
  }
}
