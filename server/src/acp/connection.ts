/**
 * One ACP client: its capabilities, its sessions and their folders, and the Editor (document
 * host over `fs/*`, session UI over `session/request_permission`) the runtime is built around.
 * The runtime is built at the first session request, in that session's folder: ACP names the
 * project there, not at initialize, and initialize stays as light as it can be.
 */
import path from "node:path";
import type * as acp from "@agentclientprotocol/sdk";
import type { ConfiguredRuntime } from "../agent/configured-runtime.js";
import type { createRuntime } from "../agent/runtime.js";
import { RuntimeStart } from "../agent/runtime-start.js";
import type { Agent } from "../agent/agent.js";
import { AgentRequestError, ErrorCodes } from "../agent/errors.js";
import type { Config, McpServerTable } from "../config/schema.js";
import type { Editor } from "../editor/editor.js";
import type { EventDetail, SessionEvent } from "../editor/session-events.js";
import type { ClientTerminal } from "../editor/session-ui.js";
import { FileLogger, type Logger } from "../util/log.js";
import { AcpDocumentHost, type AcpFiles } from "./document-host.js";
import { mcpServerTables } from "./mcp-servers.js";
import { AcpSessionUI, type Elicit } from "./session-ui.js";
import { AcpTerminal } from "./terminal.js";
import { noticeFallback, toAcpUpdate, userAttachments } from "./updates.js";
import { configOptions } from "./session-options.js";

/** How the connection is set up. */
export interface AcpClientOptions {
  logger: Logger;
  /** Builds the runtime (tests put a recording provider in); createRuntime by default. */
  create?: typeof createRuntime;
}

/** The state of one ACP client connection. */
export class AcpClient {
  /** Set once initialize has been answered. */
  capabilities: acp.ClientCapabilities = {};
  /** The sessions this client started or loaded, with their folders. */
  readonly sessions = new Map<string, string>();
  private started: RuntimeStart | undefined;
  /** Error notices held while a prompt runs: the answer carries a turn-ending one. */
  private readonly heldErrors = new Map<string, acp.SessionUpdate[]>();
  private ui: AcpSessionUI | undefined;
  private host: AcpDocumentHost | undefined;
  /** The front end's config layer: the client's MCP servers. */
  private readonly layer: { mcp_servers: Record<string, McpServerTable> } = { mcp_servers: {} };

  constructor(
    private readonly peer: () => acp.AgentContext,
    private readonly options: AcpClientOptions,
  ) {}

  /**
   * The runtime's start, in `cwd` on first use: its configuration is read at once; the runtime
   * itself loads when {@link ready} is first asked (after the first session has been answered).
   */
  start(cwd: string): RuntimeStart {
    if (this.started) return this.started;
    const log = this.options.logger;
    // The project's log file, as over LSP (.agent-lsp/logs/), from the first session's folder.
    if (log instanceof FileLogger) log.attachFile(cwd);
    const elicit: Elicit | undefined = this.capabilities.elicitation?.form
      ? (params, signal) => this.peer().request("elicitation/create", params, { cancellationSignal: signal, stopWaitingOnCancel: true })
      : undefined;
    const ui = new AcpSessionUI((params, signal) => this.peer().request("session/request_permission", params, { cancellationSignal: signal, stopWaitingOnCancel: true }), (id) => this.sessions.get(id) ?? cwd, log, elicit);
    const host = new AcpDocumentHost(this.files(), (p) => this.sessionFor(p), log);
    this.ui = ui;
    this.host = host;
    const terminal = this.capabilities.terminal ? new AcpTerminal({ peer: this.peer, notify: (id, update) => this.notify(id, update), log }) : undefined;
    const editor = joinEditor(host, ui, terminal);
    const source = {
      root: cwd,
      initializationOptions: this.layer,
      logger: log,
      onConfig: (config: Config, errors: string[]) => {
        ui.timeoutS = config.approval_timeout_s;
        if (errors.length) ui.showMessage("error", `agent-lsp configuration: ${errors.join("; ")}`);
      },
    };
    this.started = new RuntimeStart(source, async (settings) => {
      const { buildRuntime } = await import("../agent/configured-runtime.js");
      // The configuration's loads keep telling the UI set up above (source.onConfig).
      const runtime = buildRuntime({ root: cwd, logger: log, editor, settings, ...(this.options.create ? { create: this.options.create } : {}) });
      runtime.events.subscribe((sessionId, event, detail) => this.forward(sessionId, event, detail));
      return runtime;
    });
    return this.started;
  }

  /** The runtime, loading it first if it has not loaded (in the first session's folder). */
  ready(): Promise<ConfiguredRuntime> {
    if (!this.started) return Promise.reject(new AgentRequestError(ErrorCodes.InvalidParams, "No session yet: start one with session/new or load one with session/load."));
    return this.started.ready();
  }

  /** The agent holding `sessionId` (waiting for the runtime to load); InvalidParams for a session this client does not have. */
  async agentFor(sessionId: string): Promise<Agent> {
    if (!this.sessions.has(sessionId)) throw new AgentRequestError(ErrorCodes.InvalidParams, `Unknown session "${sessionId}": start one with session/new or load it with session/load.`);
    return (await this.ready()).agent;
  }

  /**
   * Adds the client's MCP servers (before the runtime is built, or reloading its config after).
   * Returns what could not be taken, for the session to be told.
   */
  addMcpServers(servers: acp.McpServer[]): string[] {
    const { tables, refused } = mcpServerTables(servers);
    const changed = Object.entries(tables).some(([name, table]) => JSON.stringify(this.layer.mcp_servers[name]) !== JSON.stringify(table));
    if (changed) {
      Object.assign(this.layer.mcp_servers, tables);
      this.started?.settings.reload();
    }
    return refused;
  }

  /**
   * Stops what the runtime started; a runtime still loading is waited for first (it holds the
   * sessions' logs and may have begun what it starts).
   */
  async dispose(): Promise<void> {
    const runtime = await this.started?.begun()?.catch(() => undefined);
    await runtime?.dispose();
  }

  /** The runtime once it has loaded. */
  built(): ConfiguredRuntime | undefined {
    return this.started?.runtime();
  }

  /**
   * Sends one session/update (a notice only to a client that takes them); a failed send is
   * logged, never thrown into the core.
   */
  notify(sessionId: string, update: acp.SessionUpdate): void {
    const sent = this.capabilities.session?.notices ? update : noticeFallback(update);
    if (!sent) return;
    this.peer()
      .notify("session/update", { sessionId, update: sent })
      .catch((err: Error) => this.options.logger.warn(`session/update to the client failed: ${err.message}`));
  }

  /** The session's config options as they stand (mode and model). */
  configOptionsOf(sessionId: string): acp.SessionConfigOption[] {
    const runtime = this.built()!;
    const session = runtime.agent.get(sessionId);
    return configOptions({ model: session.model, mode: session.mode }, runtime.config());
  }

  /** Tells the client a session's mode changed, both ways clients follow it. */
  modeChanged(sessionId: string): void {
    const mode = this.built()!.agent.get(sessionId).mode;
    this.notify(sessionId, { sessionUpdate: "current_mode_update", currentModeId: mode });
    this.notify(sessionId, { sessionUpdate: "config_option_update", configOptions: this.configOptionsOf(sessionId) });
  }

  /** Holds the session's error notices until {@link releaseErrors}. */
  holdErrors(sessionId: string): void {
    this.heldErrors.set(sessionId, []);
  }

  /**
   * Sends the held error notices, except the one that ended the turn (`turnError`): the prompt's
   * error answer says it, and a client would show it twice.
   */
  releaseErrors(sessionId: string, turnError: string | undefined): void {
    const held = this.heldErrors.get(sessionId) ?? [];
    this.heldErrors.delete(sessionId);
    for (const update of held) {
      const title = update.sessionUpdate === "notice" ? update.title : "";
      if (turnError !== undefined && title.startsWith(turnError)) continue;
      this.notify(sessionId, update);
    }
  }

  /** The session of this client whose folder holds `absPath` (the deepest), else the latest. */
  sessionFor(absPath: string): string | undefined {
    let best: { id: string; depth: number } | undefined;
    for (const [id, cwd] of this.sessions) {
      const inside = absPath === cwd || absPath.startsWith(cwd.endsWith(path.sep) ? cwd : cwd + path.sep);
      if (inside && (!best || cwd.length >= best.depth)) best = { id, depth: cwd.length };
    }
    return best?.id ?? [...this.sessions.keys()].pop();
  }

  private forward(sessionId: string, event: SessionEvent, detail?: EventDetail): void {
    // A new tool call reads the client's files afresh (acp/document-host.ts).
    if (event.kind === "tool_call") this.host?.forget();
    const cwd = this.sessions.get(sessionId);
    if (cwd === undefined) return; // a session of another front end on the same runtime
    const update = toAcpUpdate(event, { cwd, ...(detail?.texts ? { texts: detail.texts } : {}) });
    const held = event.kind === "error" ? this.heldErrors.get(sessionId) : undefined;
    if (update && held) held.push(update);
    else if (update) this.notify(sessionId, update);
    for (const link of userAttachments(event, cwd)) this.notify(sessionId, link);
  }

  /** The client's fs methods when it declares both reading and writing, else none (the disk). */
  private files(): AcpFiles | undefined {
    const fs = this.capabilities.fs;
    if (!fs?.readTextFile || !fs.writeTextFile) return undefined;
    return {
      read: (params, signal) => this.peer().request("fs/read_text_file", params, signal ? { cancellationSignal: signal } : {}),
      write: (params, signal) => this.peer().request("fs/write_text_file", params, signal ? { cancellationSignal: signal } : {}),
    };
  }
}

/** The Editor the core takes: the two halves, each method bound to its own object. */
function joinEditor(host: AcpDocumentHost, ui: AcpSessionUI, terminal: ClientTerminal | undefined): Editor {
  return {
    ...(terminal ? { terminal } : {}),
    supportsResourceOperations: host.supportsResourceOperations,
    canSaveDocuments: host.canSaveDocuments,
    readDocument: (uri) => host.readDocument(uri),
    openDocuments: () => host.openDocuments(),
    onDidChange: () => host.onDidChange(),
    applyEdit: (label, changes, options) => host.applyEdit(label, changes, options),
    saveDocuments: (uris) => host.saveDocuments(uris),
    takeNotices: () => host.takeNotices(),
    // The user may change files while a prompt waits: reads after it ask the client again.
    requestPermission: (request, signal) => {
      host.forget();
      return ui.requestPermission(request, signal).finally(() => host.forget());
    },
    askUser: (question, signal) => ui.askUser(question, signal),
    progress: () => ui.progress(),
    showMessage: (type, message) => ui.showMessage(type, message),
  };
}
