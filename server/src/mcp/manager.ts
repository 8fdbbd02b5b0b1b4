/**
 * The MCP manager: one per runtime, in `ctx.services.mcp`. It knows the configured servers,
 * starts them concurrently when a session first needs them (never at initialize), asks the user
 * once before a server a project file defines may start, keeps each server's tools, resources and
 * prompts as they change, and stops every server process, whatever way agent-lsp ends.
 *
 * What the servers offer becomes capabilities, commands and status updates elsewhere
 * (agent/mcp/mcp-wiring.ts): this module only reports changes.
 */
import type { Config } from "../config/schema.js";
import { MarkerOwner } from "../exec/marker.js";
import type { Sandbox } from "../exec/sandbox/sandbox.js";
import { terminateTreeSync, type StopReport } from "../exec/stop-tree.js";
import { Bm25Index } from "../util/bm25.js";
import type { Logger } from "../util/log.js";
import { McpCatalog } from "./catalog.js";
import { McpConnection, type RestartPolicy, type ServerState } from "./connection.js";
import { promptCommandNames, serverParts } from "./names.js";
import { McpAuth } from "./oauth/mcp-auth.js";
import type { Prompt } from "./sdk.js";
import type { EraMemory } from "./eras.js";
import { serverSpecs, type McpServerSpec, type SpecError } from "./specs.js";
import { toolEntries, type McpToolEntry, type ToolEntries } from "./tool-entries.js";

/** The key of the manager in `ToolContext.services`. */
export const MCP_SERVICE = "mcp";

/** Who needs the servers: a session (the approval prompt and status updates go to it). */
export interface McpNeed {
  sessionId: string;
  /** Withdraws the approval prompt of a project server when the need goes away (a cancelled turn). */
  signal?: AbortSignal;
  /** False when nobody is there to sign in (`mcp list`, doctor): a server that needs it fails saying so. */
  signIn?: boolean;
  /** Only these servers (`agent-lsp tool mcp__NAME__...`): the others are neither started nor waited for. */
  only?: readonly string[];
}

/** What the manager is built from. */
export interface McpManagerDeps {
  config(): Config;
  root: string;
  logger: Logger;
  /** Where local servers with `sandbox = true` start (the commands' sandbox); they fail to start without one. */
  sandbox?: Sandbox;
  /**
   * Asks the user whether a server a project file defines may start with its exact command line
   * (recorded once approved). Resolves undefined when it may, else the reason it may not.
   */
  approve(spec: McpServerSpec, need: McpNeed): Promise<string | undefined>;
  /**
   * Runs the sign-in of a remote server that has none yet, for the session that needs it (opens
   * the browser through the editor). Absent where nobody can sign in (`mcp list`): such a server
   * fails, saying to run `agent-lsp mcp login`.
   */
  signIn?(spec: McpServerSpec, need: McpNeed): Promise<void>;
  /** OAuth of remote servers; by default one over the config's token store. */
  auth?: McpAuth;
  restart?: RestartPolicy;
  /** Local servers known to speak the 2025 protocol (mcp/eras.ts); without it every start negotiates. */
  eras?: EraMemory;
}

/** One server as `agent-lsp mcp list`, doctor and status updates describe it. */
export interface ServerStatus {
  name: string;
  transport: "stdio" | "http";
  state: ServerState | "misconfigured";
  error?: string;
  protocolVersion?: string;
  tools: number;
  resources: number;
  templates: number;
  prompts: number;
  /** Tools left out (bad schema), lists that failed. */
  warnings: string[];
  /** Milliseconds its last start took. */
  startMs?: number;
  /** The project file that defines it, when one does. */
  projectSource?: string;
}

/** A server prompt and the slash command it becomes. */
export interface PromptCommand {
  server: string;
  command: string;
  prompt: Prompt;
}

/** The configured MCP servers. */
export class McpManager {
  private readonly connections = new Map<string, McpConnection>();
  private readonly listeners = new Set<(server: string) => void>();
  private readonly owner = new MarkerOwner();
  private readonly entries = new Map<string, ToolEntries>();
  private specErrors: SpecError[] = [];
  private parts = new Map<string, string>();
  private catalogCache: McpCatalog | undefined;
  private deferredCache: Bm25Index | undefined;
  /** Command lines the user declined to start in this run: not asked again until agent-lsp restarts. */
  private readonly declined = new Map<string, string>();
  /** Sessions that already caused a start: a later need of theirs does not retry failed servers. */
  private readonly needs = new Set<string>();
  private disposed = false;
  /** OAuth sign-in of remote servers. */
  readonly auth: McpAuth;
  /**
   * Starts under way (a sign-in included), by server: a need that comes meanwhile (the turn after
   * the editor asked for the command list) waits for them rather than going on without the server.
   */
  private readonly inFlight = new Map<string, Promise<void>>();

  constructor(private readonly deps: McpManagerDeps) {
    this.auth = deps.auth ?? new McpAuth({ config: deps.config });
  }

  /** Whether any server is configured (enabled or not). */
  configured(): boolean {
    return Object.keys(this.deps.config().mcp_servers).length > 0;
  }

  /** Calls `listener` with a server's name whenever its state or what it offers changes. */
  onChange(listener: (server: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Starts every enabled server that is not running, concurrently, and resolves once each is
   * ready or has failed (each within its own startup timeout). A session's first need also
   * retries servers that failed before.
   */
  async ensureStarted(need: McpNeed): Promise<void> {
    if (this.disposed) return;
    for (const c of this.startable(need.sessionId, need.only)) this.track(c.spec.name, this.startOne(c, need));
    if (!need.only) this.needs.add(need.sessionId);
    const waited = [...this.inFlight].filter(([name]) => !need.only || need.only.includes(name));
    await Promise.all(waited.map(([, p]) => p.catch(() => undefined)));
  }

  /** The servers a need of this session would start now (after bringing the config in), of `only` when given. */
  startable(sessionId: string, only?: readonly string[]): McpConnection[] {
    this.sync();
    const first = !this.needs.has(sessionId);
    return [...this.connections.values()].filter(
      (c) => (!only || only.includes(c.spec.name)) && (c.state === "stopped" || (first && (c.state === "failed" || c.state === "not_approved"))),
    );
  }

  /** The configured server whose tools `toolName` (`mcp__PART__tool`) would be, if any. */
  serverOfTool(toolName: string): string | undefined {
    this.sync();
    return [...this.parts].find(([, part]) => toolName.startsWith(`mcp__${part}__`))?.[0];
  }

  /** Brings the connections in line with the config: new servers added, changed ones replaced, removed ones stopped. */
  sync(): void {
    const { specs, errors } = serverSpecs(this.deps.config(), this.deps.root);
    this.specErrors = errors;
    const names = specs.map((s) => s.name);
    const parts = serverParts(names);
    this.parts = new Map(names.map((n, i) => [n, parts[i]!]));
    for (const [name, connection] of this.connections) {
      const spec = specs.find((s) => s.name === name);
      if (spec && JSON.stringify(spec) === JSON.stringify(connection.spec)) continue;
      this.connections.delete(name);
      this.forget(name);
      void connection.stop();
    }
    for (const spec of specs) {
      if (this.connections.has(spec.name)) continue;
      const connection = new McpConnection(spec, {
        logger: this.deps.logger,
        owner: this.owner,
        root: this.deps.root,
        ...(this.deps.sandbox ? { sandbox: this.deps.sandbox } : {}),
        discoverTimeoutMs: this.deps.config().mcp.discover_timeout_s * 1000,
        ...(this.deps.eras ? { eras: this.deps.eras } : {}),
        onChange: (c) => this.changed(c),
        auth: this.auth,
        ...(this.deps.restart ? { restart: this.deps.restart } : {}),
      });
      this.connections.set(spec.name, connection);
      if (!spec.enabled) connection.hold("disabled", "enabled = false in its config");
    }
  }

  /** Every configured server's status, in name order (misconfigured ones included). */
  statuses(): ServerStatus[] {
    const out: ServerStatus[] = [...this.connections.values()].map((c) => this.statusOf(c));
    for (const e of this.specErrors) out.push({ name: e.name, transport: "stdio", state: "misconfigured", error: e.message, tools: 0, resources: 0, templates: 0, prompts: 0, warnings: [] });
    return out.sort((a, b) => a.name.localeCompare(b.name));
  }

  /** The status of one server. */
  status(name: string): ServerStatus | undefined {
    return this.statuses().find((s) => s.name === name);
  }

  /** The connection of a configured server (ready or not). */
  connection(name: string): McpConnection | undefined {
    return this.connections.get(name);
  }

  /** The tools of every ready server. */
  tools(): McpToolEntry[] {
    return [...this.entries.values()].flatMap((e) => e.entries);
  }

  /** The tools of one server (none unless it is ready). */
  toolsOf(server: string): McpToolEntry[] {
    return this.entries.get(server)?.entries ?? [];
  }

  /** A ready server's prompts with their slash commands. */
  promptsOf(server: string): PromptCommand[] {
    const c = this.connections.get(server);
    const prompts = c?.state === "ready" ? (c.listing?.prompts ?? []) : [];
    const names = promptCommandNames(this.parts.get(server) ?? server, prompts.map((p) => p.name));
    return prompts.map((prompt, i) => ({ server, command: names[i]!, prompt }));
  }

  /** Ready servers that declare resources. */
  resourceServers(): string[] {
    return [...this.connections.values()].filter((c) => c.state === "ready" && c.listing?.capabilities.resources).map((c) => c.spec.name);
  }

  /** The names of the configured servers. */
  serverNames(): string[] {
    return [...this.connections.keys()];
  }

  /** The catalog `mcp_tools` searches, rebuilt after any change. */
  catalog(): McpCatalog {
    this.catalogCache ??= new McpCatalog(
      [...this.connections.values()]
        .filter((c) => c.state === "ready" && c.listing)
        .map((c) => ({
          server: c.spec.name,
          tools: this.toolsOf(c.spec.name),
          resources: c.listing!.resources,
          templates: c.listing!.templates,
          prompts: this.promptsOf(c.spec.name),
        })),
    );
    return this.catalogCache;
  }

  /**
   * The deferred tools (not hidden) that best match `query` (`tool_search`: BM25 with k1 1.5 and
   * b 0.75 over names and descriptions, names weighing more), best first.
   */
  searchDeferred(query: string, limit: number): McpToolEntry[] {
    const candidates = this.tools().filter((t) => t.deferred && !t.hidden);
    this.deferredCache ??= new Bm25Index(
      candidates.map((t) => ({ id: t.name, fields: { name: `${t.rawName} ${t.server}`, title: t.title ?? "", description: t.description } })),
      { k1: 1.5, b: 0.75, weights: { name: 3, title: 3, description: 1 } },
    );
    const byName = new Map(candidates.map((t) => [t.name, t]));
    return this.deferredCache.search(query, limit).map((hit) => byName.get(hit.id)!);
  }

  /** Stops every server and what it started. */
  async dispose(): Promise<StopReport[]> {
    this.disposed = true;
    const reports = await Promise.all([...this.connections.values()].map((c) => c.stop()));
    return reports.filter((r): r is StopReport => r !== undefined);
  }

  /** Stops every process any server started, synchronously (exit handlers, signals). */
  stopAllSync(): StopReport {
    this.disposed = true;
    return terminateTreeSync({ groups: [], marked: (v) => this.owner.owns(v) }, 500);
  }

  private async startOne(connection: McpConnection, need: McpNeed): Promise<void> {
    const spec = connection.spec;
    if (spec.projectSource) {
      const declined = this.declined.get(spec.launchLine);
      const refusal = declined ?? (await this.deps.approve(spec, need));
      if (refusal) {
        this.declined.set(spec.launchLine, refusal);
        connection.hold("not_approved", refusal);
        return;
      }
    }
    await connection.start();
    if (connection.signInNeeded !== "not_signed_in" || !this.deps.signIn || need.signIn === false || need.signal?.aborted) return;
    await this.signInAndStart(connection, need);
  }

  private track(name: string, start: Promise<void>): void {
    this.inFlight.set(name, start);
    void start.finally(() => {
      if (this.inFlight.get(name) === start) this.inFlight.delete(name);
    });
  }

  /** The first `401` of a server never signed in to: sign in through the session's editor, then start again. */
  private async signInAndStart(connection: McpConnection, need: McpNeed): Promise<void> {
    try {
      await this.deps.signIn!(connection.spec, need);
    } catch (err) {
      connection.failWith(`the sign-in did not complete: ${(err as Error).message}`);
      return;
    }
    await connection.start();
  }

  private changed(connection: McpConnection): void {
    const name = connection.spec.name;
    if (this.connections.get(name) !== connection) return;
    if (connection.state === "ready" && connection.listing) {
      const built = toolEntries(connection.spec, this.parts.get(name) ?? name, connection.listing.tools);
      for (const s of built.skipped) this.deps.logger.warn(`mcp ${name}: ${s}`);
      this.entries.set(name, built);
    } else if (!connection.restarting) {
      // A server being restarted keeps its tools: a call made meanwhile waits for the restart
      // instead of finding no such tool.
      this.entries.delete(name);
    }
    this.catalogCache = undefined;
    this.deferredCache = undefined;
    this.logState(connection);
    for (const listener of this.listeners) listener(name);
  }

  private forget(name: string): void {
    this.entries.delete(name);
    this.catalogCache = undefined;
    this.deferredCache = undefined;
    for (const listener of this.listeners) listener(name);
  }

  private logState(c: McpConnection): void {
    const { name } = c.spec;
    if (c.state === "ready") this.deps.logger.info(`mcp ${name}: ready (${c.protocolVersion}, ${this.toolsOf(name).length} tools, ${c.startMs} ms)`);
    else if (c.state === "failed" || c.state === "restarting") this.deps.logger.warn(`mcp ${name}: ${c.state}: ${c.error}`);
  }

  private statusOf(c: McpConnection): ServerStatus {
    const listing = c.state === "ready" ? c.listing : undefined;
    const built = this.entries.get(c.spec.name);
    return {
      name: c.spec.name,
      transport: c.spec.transport,
      state: c.state,
      ...(c.error && c.state !== "ready" ? { error: c.error } : {}),
      ...(c.protocolVersion && c.state === "ready" ? { protocolVersion: c.protocolVersion } : {}),
      tools: built?.entries.length ?? 0,
      resources: listing?.resources.length ?? 0,
      templates: listing?.templates.length ?? 0,
      prompts: listing?.prompts.length ?? 0,
      warnings: [...(built?.skipped ?? []), ...(listing?.warnings ?? [])],
      ...(c.startMs !== undefined && c.state === "ready" ? { startMs: c.startMs } : {}),
      ...(c.spec.projectSource ? { projectSource: c.spec.projectSource } : {}),
    };
  }
}

/** The manager among a tool context's services, if the runtime provided one. */
export function mcpManagerFrom(services: Record<string, unknown>): McpManager | undefined {
  const candidate = services[MCP_SERVICE];
  return candidate instanceof McpManager ? candidate : undefined;
}
