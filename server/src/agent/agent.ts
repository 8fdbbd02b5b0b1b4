/**
 * The Agent: sessions and their turns, behind the custom protocol's methods. Front ends (LSP,
 * headless CLI) call these; nothing here knows which front end it serves.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Config, SafetyMode } from "../config/schema.js";
import type { Editor } from "../editor/editor.js";
import type { SessionEvents } from "../editor/session-events.js";
import { ZERO_USAGE, type ImageBlock, type Message, type Usage } from "../vocabulary/messages.js";
import type { Provider } from "../providers/provider.js";
import { createProvider, parseModelRef, providerSettings } from "../providers/registry.js";
import type { PromptParams, StopReason } from "../protocol/schemas.js";
import type { ToolGate } from "../policy/types.js";
import type { ToolRegistry } from "../tools/registry.js";
import type { ToolServices } from "../tools/types.js";
import { SUB_TURN_SERVICE, type SubTurns } from "../tools/knowledge/skill-services.js";
import { Workspace } from "../workspace/workspace.js";
import { AgentRequestError, ErrorCodes, requestFailed } from "./errors.js";
import { readHistory } from "./history/history.js";
import { HistoryLog } from "./history/history-log.js";
import { listHistories, type SessionSummary } from "./history/history-list.js";
import { buildPromptContent } from "./turn/prompt-content.js";
import { routedModel } from "./model-routing.js";
import { replayHistory } from "./history/replay.js";
import { callFacts } from "./turn/tool-call-facts.js";
import { restoreSession, resumedMode, unreadableLinesNote } from "./history/restore-session.js";
import { Session } from "./session.js";
import { openSession, type NewSessionParams, type OpenedSession } from "./session-open.js";
import type { CommandInput, CommandRun, SlashCommands } from "./commands/slash-commands.js";
import { runCommand } from "./commands/run-command.js";
import { runTurn, type TurnDeps } from "./turn/turn.js";
import { compactNow } from "./compaction/compact-now.js";
import { requestFrame, type RequestFrame } from "./turn/request-frame.js";
import { sessionContextService } from "./compaction/session-context-service.js";
import { SESSION_CONTEXT_SERVICE } from "../tools/session/session-context.js";
import { checkModelChoice } from "../providers/model-choices.js";
import { MODEL_ROUTING_SERVICE } from "../tools/knowledge/model-routing-config.js";
import { modelRouting } from "./model-routing.js";
import { runSubTurn } from "./delegation/sub-turn.js";

/** What the agent is built from. */
export interface AgentDeps {
  editor: Editor;
  /** The sessions' event stream: every update of every turn goes here. */
  events: SessionEvents;
  registry: ToolRegistry;
  gate: ToolGate;
  services: ToolServices;
  commands: SlashCommands;
  /** The current configuration (it can change while the server runs). */
  config(): Config;
  /** Project root for sessions that name no cwd. */
  defaultRoot: string;
  /** Creates a provider; the default imports the adapter for the settings' type. */
  createProvider?: typeof createProvider;
  /**
   * Starts what a session's tools and commands need (MCP servers) when the session first needs
   * them: before a turn's first model call, before listing or running a command it may provide.
   */
  prepareTools?(sessionId: string, signal?: AbortSignal): Promise<void>;
}

/** How a turn ended, as the protocol answers it. */
export interface TurnOutcome {
  stopReason: StopReason;
  usage: Usage;
  error?: string;
}

/** A turn that has started. */
export interface StartedTurn {
  sessionId: string;
  /** Settles when the turn ends; never rejects. */
  finished: Promise<TurnOutcome>;
  /**
   * Settles when the turn's loop has finished, even after a cancel (its last tool updates and its
   * usage emitted): for front ends whose protocol wants those before the answer (ACP).
   */
  settled: Promise<TurnOutcome>;
}

/** A session's public description. */
export interface SessionInfo {
  sessionId: string;
  mode: SafetyMode;
  model: string;
}

/** Sessions and turns. */
export class Agent {
  private readonly sessions = new Map<string, Session>();
  private readonly providers = new Map<string, Promise<Provider>>();
  private readonly workspaces = new Map<string, Workspace>();

  constructor(readonly deps: AgentDeps) {
    deps.services[SESSION_CONTEXT_SERVICE] = sessionContextService((id) => this.get(id));
    // skill_run's restricted sub-turns run on this agent's turn loop.
    deps.services[SUB_TURN_SERVICE] = { run: (id, request, signal) => runSubTurn(this.get(id), request, this.turnDeps(), signal) } satisfies SubTurns;
    deps.services[MODEL_ROUTING_SERVICE] = modelRouting(this);
  }

  /** Starts a session. */
  newSession(params: NewSessionParams): SessionInfo {
    return this.adoptSession(openSession(this.deps.config(), this.deps.defaultRoot, params));
  }

  /** Holds a session opened before this agent existed (a front end answered it while the runtime loaded). */
  adoptSession(opened: OpenedSession): SessionInfo {
    const { sessionId, mode, model } = opened;
    const session = new Session(sessionId, this.workspaceFor(opened.root), opened.log, { mode, model, spawned: opened.spawned });
    this.sessions.set(sessionId, session);
    return { sessionId, mode, model };
  }

  /** Runs one turn; answers when it ends (at once with "cancelled" when cancelled). */
  async prompt(params: PromptParams): Promise<TurnOutcome> {
    return (await this.startTurn(params)).finished;
  }

  /**
   * Starts one turn and resolves as soon as it runs, with `finished` settling when it ends (at
   * once with "cancelled" when cancelled). For front ends that must answer before the turn ends.
   */
  async startTurn(params: PromptParams): Promise<StartedTurn> {
    const session = this.get(params.sessionId);
    if (session.turn) {
      this.assertIdle(session.id);
      await session.turn.done; // a cancelled turn still finishing its history
    }
    const content = await buildPromptContent(params, session.workspace);
    session.focusFile = focusFileOf(params.context?.uri) ?? session.focusFile;
    this.assertIdle(session.id); // another turn may have started while the content was read
    if (params.replaceLast) session.rewindLastExchange();
    const controller = new AbortController();
    // runTurn never throws by design; should it ever, the turn fails and the server goes on.
    const done = runTurn(session, content, this.turnDeps(), controller.signal).catch((err: Error): TurnOutcome => ({ stopReason: "error", usage: ZERO_USAGE, error: err.message }));
    const turn = { controller, done };
    session.turn = turn;
    void done.then((end) => {
      if (session.turn === turn) session.turn = undefined;
      // The last event of every turn: how it ended (after the loop has written its history).
      this.deps.events.emit(session.id, {
        kind: "turn_end",
        stopReason: end.stopReason,
        usage: { inputTokens: end.usage.inputTokens, outputTokens: end.usage.outputTokens },
        ...(end.error ? { error: end.error } : {}),
      });
    });
    const cancelled = new Promise<TurnOutcome>((resolve) => {
      controller.signal.addEventListener("abort", () => resolve({ stopReason: "cancelled", usage: ZERO_USAGE }), { once: true });
    });
    return { sessionId: session.id, finished: Promise.race([done, cancelled]), settled: done };
  }

  /** Throws RequestFailed when the session is running a turn that was not cancelled. */
  assertIdle(sessionId: string): void {
    const session = this.get(sessionId);
    if (session.turn && !session.turn.controller.signal.aborted) {
      throw new AgentRequestError(ErrorCodes.RequestFailed, `Session ${session.id} is already running a turn; cancel it or wait for it to end.`);
    }
  }

  /** Cancels the running turn of a session (a no-op when idle). */
  cancel(sessionId: string): void {
    this.get(sessionId).turn?.controller.abort();
  }

  /** Cancels every running turn; returns the ids of the sessions it stopped. */
  cancelAll(): string[] {
    const running = this.all().filter((s) => s.turn && !s.turn.controller.signal.aborted);
    for (const s of running) s.turn!.controller.abort();
    return running.map((s) => s.id);
  }

  /** Lists the sessions saved under `root` (the default root unless a front end names another). */
  listSessions(root = this.deps.defaultRoot): { sessions: SessionSummary[] } {
    try {
      return { sessions: listHistories(root) };
    } catch (err) {
      throw new AgentRequestError(ErrorCodes.RequestFailed, (err as Error).message);
    }
  }

  /**
   * Resumes a saved session, replaying its history to the editor first. `root` is where it was
   * saved: the default root unless a front end names another (ACP names the folder per session).
   */
  loadSession(sessionId: string, root = this.deps.defaultRoot): SessionInfo {
    let session = this.sessions.get(sessionId);
    let unreadable: number[] = [];
    let narrowed: string | undefined;
    if (!session) {
      let loaded;
      try {
        loaded = readHistory(root, sessionId);
      } catch (err) {
        throw new AgentRequestError(ErrorCodes.InvalidParams, (err as Error).message);
      }
      const log = HistoryLog.reopen(root, sessionId, loaded.lastSeq);
      const config = this.deps.config();
      // The session's project is where its log was found: a log names its own cwd, and a
      // repository can ship one naming your home (then "the project" the agent may change).
      session = restoreSession(sessionId, loaded, this.workspaceFor(root), log, { mode: config.safety, model: config.model });
      this.sessions.set(sessionId, session);
      unreadable = loaded.skippedLines;
      narrowed = resumedMode(loaded.mode, config.safety).note;
    }
    replayHistory(session, this.deps.events, (name, input) => {
      const capability = this.deps.registry.find(name);
      return capability && { title: capability.title(input), facts: callFacts(capability, input, session!.root) };
    });
    if (unreadable.length) this.deps.events.emit(sessionId, { kind: "status", text: unreadableLinesNote(unreadable, session.log.file) });
    if (narrowed) this.deps.events.emit(sessionId, { kind: "status", text: narrowed });
    return { sessionId, mode: session.mode, model: session.model };
  }

  /**
   * Compacts a session now (`/compact`), as a turn of its own: a prompt waits for it. Returns what
   * happened; throws when it could not run or failed (then nothing changed).
   */
  async compact(sessionId: string, focus?: string): Promise<string> {
    const session = this.get(sessionId);
    this.assertIdle(sessionId);
    const deps = this.turnDeps();
    const target = await this.resolveProvider({ model: routedModel(session, "compaction", deps.config) }, deps.config);
    const controller = new AbortController();
    const done = compactNow(session, { trigger: "user", ...(focus ? { focus } : {}) }, deps, target, controller.signal);
    // A prompt that waits for this "turn" must not inherit its failure.
    const turn = { controller, done: done.catch(() => undefined) };
    session.turn = turn;
    try {
      return await done;
    } finally {
      if (session.turn === turn) session.turn = undefined;
    }
  }

  /** The system prompt and tools the session's next request would carry (for /context). */
  async frameOf(sessionId: string): Promise<RequestFrame> {
    const session = this.get(sessionId);
    const deps = this.turnDeps();
    // Without a provider (no key yet) the frame is still shown, with our own tool schemas.
    const type = await this.resolveProvider(session, deps.config).then((p) => p.provider.type, () => "openai-compatible" as const);
    return requestFrame(session, deps, type);
  }

  /** Changes a session's safety mode. */
  setMode(sessionId: string, mode: SafetyMode): { mode: SafetyMode } {
    const session = this.get(sessionId);
    requestFailed(() => session.log.settings({ mode }));
    session.mode = mode;
    return { mode };
  }

  /** Changes a session's model: one of a provider that can be called (and in its `models` list, where it has one). */
  setModel(sessionId: string, model: string): SessionInfo {
    const session = this.get(sessionId);
    try {
      checkModelChoice(model, this.deps.config());
    } catch (err) {
      throw new AgentRequestError(ErrorCodes.InvalidParams, `model: ${(err as Error).message}`);
    }
    requestFailed(() => session.log.settings({ model }));
    session.model = model;
    return { sessionId, mode: session.mode, model };
  }

  /** Runs a slash command; `input.context` goes with a command that sends a message. */
  command(sessionId: string, command: string, args: string[] = [], input: CommandInput = {}): Promise<CommandRun> {
    return runCommand({ commands: this.deps.commands, prepare: (id) => this.deps.prepareTools?.(id) }, this.get(sessionId), command, args, input);
  }

  /** Every slash command (built-in and MCP) with its arguments, for editors that complete them. */
  async listCommands(sessionId: string): Promise<{ commands: ReturnType<SlashCommands["describe"]> }> {
    const session = this.get(sessionId);
    await this.deps.prepareTools?.(sessionId);
    return { commands: this.deps.commands.describe(session) };
  }

  /** The session with this id, or an InvalidParams error naming it. */
  get(sessionId: string): Session {
    const session = this.sessions.get(sessionId);
    if (!session) {
      throw new AgentRequestError(ErrorCodes.InvalidParams, `Unknown session "${sessionId}": start one with agent/newSession or resume it with agent/loadSession.`);
    }
    return session;
  }

  /** Every live session. */
  all(): Session[] {
    return [...this.sessions.values()];
  }

  /** Cancels every turn and closes the logs. */
  async shutdown(): Promise<void> {
    const turns = this.all().map((s) => {
      s.turn?.controller.abort();
      return s.turn?.done;
    });
    await Promise.allSettled(turns);
    for (const s of this.all()) s.log.close();
  }

  /**
   * One short model call outside the conversation (the auto-mode safety check): the session's
   * model, or `request.model` when given. Returns the whole text; throws when the call fails.
   */
  async complete(
    sessionId: string,
    request: { system: string; prompt: string; model?: string; maxTokens: number; images?: ImageBlock[] },
    signal: AbortSignal,
  ): Promise<string> {
    const session = this.get(sessionId);
    const { provider, model } = await this.resolveProvider({ model: request.model ?? session.model }, this.deps.config());
    const messages: Message[] = [{ role: "user", content: [{ type: "text", text: request.prompt }, ...(request.images ?? [])] }];
    let text = "";
    for await (const ev of provider.stream({ model, system: request.system, messages, tools: [], maxTokens: request.maxTokens }, signal)) {
      if (ev.type === "text_delta") text += ev.text;
      else if (ev.type === "error") throw new Error(ev.message);
    }
    if (signal.aborted) throw new Error("Cancelled.");
    return text;
  }

  /**
   * The Workspace of a project root, one for every session on that root: its change lock then
   * holds across sessions, so one session's change never lands over another's unseen. Writes
   * outside the root are let through to the gate, which asks, classifies or refuses them by mode
   * (the Workspace alone would refuse them all).
   */
  workspaceFor(root: string): Workspace {
    let workspace = this.workspaces.get(root);
    if (!workspace) this.workspaces.set(root, (workspace = new Workspace(root, this.deps.editor, { allowExternalWrites: true })));
    return workspace;
  }

  /**
   * What a turn runs with. A subagent's turn gets its own event stream (forwarded to its parent's,
   * tagged) and its own turn limit.
   */
  turnDeps(overrides: { events?: SessionEvents; maxTurns?: number } = {}): TurnDeps {
    const base = this.deps.config();
    const config = overrides.maxTurns === undefined ? base : { ...base, max_turns: overrides.maxTurns };
    return {
      editor: this.deps.editor,
      events: overrides.events ?? this.deps.events,
      registry: this.deps.registry,
      gate: this.deps.gate,
      services: this.deps.services,
      outputBudget: config.tools.output_budget,
      profile: config.tools.profile,
      config,
      resolveProvider: (session: Session) => this.resolveProvider(session, config),
      resolveSummaryProvider: (session: Session) => this.resolveProvider({ model: routedModel(session, "compaction", config) }, config),
      ...(this.deps.prepareTools ? { prepareTools: (session: Session, signal: AbortSignal) => this.deps.prepareTools!(session.id, signal) } : {}),
    };
  }

  private async resolveProvider(session: { model: string }, config: Config): Promise<{ provider: Provider; model: string }> {
    const ref = parseModelRef(session.model, config);
    const settings = providerSettings(ref.provider, config);
    if (!ref.model) throw new Error(`No model id for provider "${ref.provider}": set model = "${ref.provider}/MODEL-ID".`);
    const key = JSON.stringify(settings);
    let provider = this.providers.get(key);
    if (!provider) {
      provider = (this.deps.createProvider ?? createProvider)(settings);
      this.providers.set(key, provider);
      provider.catch(() => this.providers.delete(key));
    }
    return { provider: await provider, model: ref.model };
  }
}

/** The file a prompt's context names, absolute; undefined for a URI that names no local file. */
function focusFileOf(uri: string | undefined): string | undefined {
  if (!uri?.startsWith("file:")) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined; // file://host/... and the like: no folder rules to add
  }
}
