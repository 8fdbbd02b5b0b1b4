/**
 * One MCP server: started on demand, connected through the SDK (`server/discover` first, the
 * `initialize` handshake for a server that does not answer it), its tools, resources, templates
 * and prompts listed, and kept: a local server that dies is restarted with backoff, and whatever
 * a stop leaves behind is found by its containment marker and ended.
 */
import { carriesToken, type MarkerOwner } from "../exec/marker.js";
import type { Launch, Sandbox } from "../exec/sandbox/sandbox.js";
import { describeOutcome } from "../exec/sandbox/settings.js";
import { terminateTree, type StopReport } from "../exec/stop-tree.js";
import type { Logger } from "../util/log.js";
import { VERSION } from "../version.js";
import { describeMcpError, ServerUnavailableError } from "./errors.js";
import { listEverything } from "./listing.js";
import { SignInNeededError, type SignInReason } from "./oauth/errors.js";
import type { McpAuth } from "./oauth/mcp-auth.js";
import { loadSdk, type Client, type Prompt, type Resource, type ResourceTemplate, type ServerCapabilities, type Tool } from "./sdk.js";
import type { EraMemory } from "./eras.js";
import type { McpServerSpec } from "./specs.js";
import { buildTransport, type StderrTail } from "./transport.js";

/** Where a server is in its life. */
export type ServerState = "stopped" | "starting" | "ready" | "restarting" | "failed" | "disabled" | "not_approved";

/** What a ready server offers. */
export interface ServerListing {
  capabilities: ServerCapabilities;
  tools: Tool[];
  resources: Resource[];
  templates: ResourceTemplate[];
  prompts: Prompt[];
  /** Lists that failed (the server claimed a capability it did not serve), each in words. */
  warnings: string[];
}

/** Restart backoff of a local server that died. */
export interface RestartPolicy {
  initialDelayMs: number;
  maxDelayMs: number;
  /** Restarts in a row that fail before the server is left failed. */
  maxAttempts: number;
}

/** What a connection needs. */
export interface ConnectionDeps {
  logger: Logger;
  /** The project root: what a sandboxed server may write. */
  root: string;
  /** Where a local server with `sandbox = true` starts. */
  sandbox?: Sandbox;
  /** Makes the containment token of each start (the manager's marker owner). */
  owner: MarkerOwner;
  /** How long a stdio server may leave `server/discover` unanswered before it counts as 2025-11-25. */
  discoverTimeoutMs: number;
  /** Called on every change of state or listing. */
  onChange(connection: McpConnection): void;
  restart?: RestartPolicy;
  /** OAuth for remote servers; without it a `401` is a failure like any other. */
  auth?: McpAuth;
  /** Local servers known to speak the 2025 protocol: they start without the `server/discover` probe. */
  eras?: EraMemory;
}

const DEFAULT_RESTART: RestartPolicy = { initialDelayMs: 500, maxDelayMs: 30_000, maxAttempts: 5 };

/** Grace between SIGTERM and SIGKILL for what a stopped server left running. */
const STOP_GRACE_MS = 1000;

/** One server's connection. */
export class McpConnection {
  state: ServerState = "stopped";
  /** Ends what the sandbox set up for the running start (its network proxy). */
  private releaseLaunch: (() => void) | undefined;
  /** Why the server is failed, restarting or not approved. */
  error: string | undefined;
  listing: ServerListing | undefined;
  protocolVersion: string | undefined;
  /** Milliseconds the last start took, from spawn to listed. */
  startMs: number | undefined;
  /** Set when the last start failed for want of a sign-in, and why. */
  signInNeeded: SignInReason | undefined;
  private client: Client | undefined;
  private starting: Promise<void> | undefined;
  private stderr: StderrTail | undefined;
  private token: string | undefined;
  private starts = 0;
  private failedRestarts = 0;
  private restartTimer: NodeJS.Timeout | undefined;
  private recovering = false;
  /** When the pending (or running) restart starts: a call made meanwhile waits until its start-up timeout after that. */
  private restartDue = 0;
  /** Calls waiting for a restart to end, told of every change of state. */
  private readonly waiters = new Set<() => void>();

  constructor(
    readonly spec: McpServerSpec,
    private readonly deps: ConnectionDeps,
  ) {}

  /** Starts the server unless it is ready or starting; resolves when it is ready or has failed. */
  start(): Promise<void> {
    if (this.state === "ready") return Promise.resolve();
    if (this.starting) return this.starting;
    clearTimeout(this.restartTimer);
    this.set("starting");
    const starting = this.connect().finally(() => {
      if (this.starting === starting) this.starting = undefined;
    });
    this.starting = starting;
    return starting;
  }

  /** Marks the server as not started for `reason` (disabled in config, not approved by the user). */
  hold(state: "disabled" | "not_approved", reason: string): void {
    this.error = reason;
    this.set(state);
  }

  /** Stops the server and everything it started; says what the stop ended. */
  async stop(): Promise<StopReport | undefined> {
    clearTimeout(this.restartTimer);
    this.recovering = false;
    const { client, token } = this;
    this.client = undefined;
    this.token = undefined;
    this.listing = undefined;
    if (this.state !== "disabled" && this.state !== "not_approved") this.set("stopped");
    return this.teardown(client, token);
  }

  /** The ready server's client, or an error that says why there is none. */
  ready(): Client {
    if (this.state === "ready" && this.client) return this.client;
    throw new ServerUnavailableError(this.unavailableReason());
  }

  /** Whether the server died and is being started again (restarting, or starting once more): its tools stay offered. */
  get restarting(): boolean {
    return this.recovering;
  }

  /**
   * Runs one request on the ready server; failures come back described, naming nothing but the
   * cause. A request `signal` cancelled ends in an AbortError (the SDK reports it as a timeout).
   * A request made while the server is being restarted waits for the restart (at most its
   * start-up timeout from when the restart began), then goes to the new process.
   */
  async request<T>(run: (client: Client) => Promise<T>, options: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<T> {
    await this.restarted(options.signal);
    const client = this.ready();
    const { timeoutMs, signal } = options;
    try {
      return await run(client);
    } catch (err) {
      if (signal?.aborted || (err as Error).name === "AbortError") throw new DOMException("Cancelled.", "AbortError");
      const closed = this.client !== client || (err as { code?: unknown }).code === "CONNECTION_CLOSED";
      const description = describeMcpError(err, { ...(timeoutMs !== undefined ? { timeoutMs } : {}), ...(closed ? { stderr: this.stderr?.last() } : {}) });
      throw new Error(closed ? `${description}; the call was lost${this.spec.transport === "stdio" ? " and the server is being restarted" : ""}` : description);
    }
  }

  /** Resolves once a restart under way has ended (ready, or given up), the time allowed has passed, or `signal` aborts. */
  private restarted(signal?: AbortSignal): Promise<void> {
    if (!this.recovering || this.state === "ready" || signal?.aborted) return Promise.resolve();
    const deadline = this.restartDue + this.spec.startupTimeoutMs;
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(check);
        signal?.removeEventListener("abort", done);
        resolve();
      };
      const check = () => {
        if (this.state === "ready" || !this.recovering) done();
      };
      const timer = setTimeout(done, Math.max(deadline - Date.now(), 0));
      this.waiters.add(check);
      signal?.addEventListener("abort", done, { once: true });
    });
  }

  /** Why calls cannot go to the server now. */
  unavailableReason(): string {
    switch (this.state) {
      case "starting":
        return `the MCP server "${this.spec.name}" is still starting`;
      case "restarting":
        return `the MCP server "${this.spec.name}" is restarting (it stopped: ${this.error}); try again in a moment`;
      case "stopped":
        return `the MCP server "${this.spec.name}" is not running`;
      default:
        return `the MCP server "${this.spec.name}" is ${this.state.replace("_", " ")}: ${this.error ?? "no reason given"}`;
    }
  }

  private async connect(): Promise<void> {
    const began = Date.now();
    const token = this.deps.owner.token(`mcp-${this.spec.name}-${++this.starts}`);
    let client: Client | undefined;
    const knownLegacy = this.spec.transport === "stdio" && this.deps.eras?.isLegacy(this.spec) === true;
    try {
      const sdk = await loadSdk();
      const auth = this.spec.oauthEnabled && this.deps.auth ? await this.deps.auth.provider(this.spec) : undefined;
      // A local server starts in the project (as Claude Code starts them) unless its `cwd` says
      // otherwise: the editor's own folder may be a subfolder, or, for a sandboxed server, a place
      // the sandbox hides (its /tmp is private), where it could not start at all.
      const spec = this.spec.transport === "stdio" && !this.spec.cwd ? { ...this.spec, cwd: this.deps.root } : this.spec;
      const launch = await this.sandboxLaunch(spec);
      this.releaseLaunch = launch?.release;
      const built = buildTransport(sdk, spec, token, this.deps.logger, process.env, auth, launch);
      this.stderr = built.stderr;
      client = new sdk.client.Client({ name: "agent-lsp", version: VERSION }, this.clientOptions(knownLegacy));
      this.client = client;
      this.token = token;
      const own = client;
      client.onclose = () => this.onClosed(own);
      client.onerror = (err) => this.deps.logger.debug(`mcp ${this.spec.name}: ${err.message}`);
      const deadline = began + this.spec.startupTimeoutMs;
      await withDeadline(client.connect(built.transport, { timeout: this.spec.startupTimeoutMs }), deadline);
      const listing = await withDeadline(listEverything(client, sdk), deadline);
      if (this.client !== client) return; // stopped while starting
      this.listing = listing;
      this.protocolVersion = client.getNegotiatedProtocolVersion();
      if (this.spec.transport === "stdio" && this.protocolVersion) this.deps.eras?.remember(this.spec, this.protocolVersion);
      this.startMs = Date.now() - began;
      this.error = undefined;
      this.signInNeeded = undefined;
      this.failedRestarts = 0;
      this.recovering = false;
      this.set("ready");
    } catch (err) {
      if (client && this.client !== client) return; // stopped while starting: not a failure
      if (knownLegacy) return this.renegotiate(client, token);
      const signIn = await this.signInFailure(err);
      const message = signIn?.message ?? describeMcpError(err, { timeoutMs: this.spec.startupTimeoutMs, stderr: this.stderr?.last() });
      this.signInNeeded = signIn?.reason;
      this.client = undefined;
      this.token = undefined;
      await this.teardown(client, token);
      if (this.recovering) this.scheduleRestart(message);
      else this.fail(message);
    }
  }

  /** A start as a 2025 server failed: forget that and start again, negotiating the version. */
  private async renegotiate(client: Client | undefined, token: string): Promise<void> {
    this.deps.eras?.forget(this.spec);
    this.client = undefined;
    this.token = undefined;
    await this.teardown(client, token);
    return this.connect();
  }

  /** Fails the server with `message` (a sign-in that did not succeed). */
  failWith(message: string): void {
    this.fail(message);
  }

  /**
   * The sign-in a failed start needs, if that is why it failed: none yet, one that could not be
   * refreshed, or more scopes (remembered, so the next sign-in asks for them with the old ones).
   */
  private async signInFailure(err: unknown): Promise<SignInNeededError | undefined> {
    for (let e = err as { cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
      if (e instanceof SignInNeededError) return e;
      const scopeError = e as { name?: string; requiredScope?: string; constructor?: { name?: string } };
      if (scopeError.constructor?.name === "InsufficientScopeError" || scopeError.name === "InsufficientScopeError") {
        await this.deps.auth?.noteNeededScope(this.spec, scopeError.requiredScope).catch((e2: Error) => this.deps.logger.warn(`mcp ${this.spec.name}: ${e2.message}`));
        return new SignInNeededError(this.spec.name, "scope", scopeError.requiredScope ? `it asked for ${scopeError.requiredScope}` : undefined);
      }
    }
    return undefined;
  }

  /** The SDK client's options; a server known to speak 2025 gets no `server/discover` probe. */
  private clientOptions(knownLegacy: boolean) {
    const onChanged = <K extends "tools" | "prompts" | "resources">(key: K) => ({
      onChanged: (error: Error | null, items: unknown[] | null) => this.listChanged(key, error, items),
    });
    return {
      // No sampling, elicitation or roots: a tool that asks for them fails with the server's error.
      capabilities: {},
      versionNegotiation: knownLegacy ? { mode: "legacy" as const } : { mode: "auto" as const, probe: { timeoutMs: Math.min(this.deps.discoverTimeoutMs, this.spec.startupTimeoutMs) } },
      listChanged: { tools: onChanged("tools"), prompts: onChanged("prompts"), resources: onChanged("resources") },
    };
  }

  private listChanged(key: "tools" | "prompts" | "resources", error: Error | null, items: unknown[] | null): void {
    if (!this.listing) return;
    if (error || !items) {
      this.deps.logger.warn(`mcp ${this.spec.name}: could not refresh its ${key} after it said they changed: ${error?.message ?? "no list"}`);
      return;
    }
    this.listing = { ...this.listing, [key]: items };
    this.deps.onChange(this);
  }

  /** The transport closed: on its own while ready means the server died. */
  private onClosed(client: Client): void {
    if (this.client !== client || this.state !== "ready") return;
    const last = this.stderr?.last();
    const token = this.token;
    this.client = undefined;
    this.token = undefined;
    this.listing = undefined;
    void this.teardown(undefined, token);
    this.recovering = this.spec.transport === "stdio";
    const reason = `exited unexpectedly${last ? ` (its last output: ${last})` : ""}`;
    this.deps.logger.warn(`mcp ${this.spec.name}: ${reason}`);
    if (this.recovering) this.scheduleRestart(reason);
    else this.fail(`closed the connection`);
  }

  private scheduleRestart(reason: string): void {
    const policy = this.deps.restart ?? DEFAULT_RESTART;
    if (this.failedRestarts >= policy.maxAttempts) {
      this.recovering = false;
      this.fail(`${reason}; gave up after ${policy.maxAttempts} restarts`);
      return;
    }
    const delay = Math.min(policy.initialDelayMs * 2 ** this.failedRestarts, policy.maxDelayMs);
    this.restartDue = Date.now() + delay;
    this.failedRestarts += 1;
    this.error = reason;
    this.set("restarting");
    this.restartTimer = setTimeout(() => {
      this.set("stopped");
      this.start().catch((err: Error) => this.deps.logger.error(`mcp ${this.spec.name}: restart failed: ${err.message}`));
    }, delay);
    // A pending restart must not keep a finished CLI run alive.
    this.restartTimer.unref();
  }

  private fail(message: string): void {
    this.error = message;
    this.listing = undefined;
    this.set("failed");
  }

  private set(state: ServerState): void {
    this.state = state;
    for (const waiter of [...this.waiters]) waiter();
    this.deps.onChange(this);
  }

  /** Closes the client, then ends every process still carrying this start's marker. */
  private async teardown(client: Client | undefined, token: string | undefined): Promise<StopReport | undefined> {
    const closing = client ? client.close().catch((err: Error) => this.deps.logger.debug(`mcp ${this.spec.name}: close: ${err.message}`)) : Promise.resolve();
    // The polite way first (stdin closed), briefly: the marker stop below ends what does not listen.
    await Promise.race([closing, delay(300)]);
    const report = token ? await terminateTree({ groups: [], marked: (v) => carriesToken(v, token) }, STOP_GRACE_MS) : undefined;
    await Promise.race([closing, delay(3000)]);
    this.releaseLaunch?.();
    this.releaseLaunch = undefined;
    return report;
  }

  /**
   * The sandbox's program line for a local server that opts in (`sandbox = true`); undefined for
   * the others. Throws when `[exec] sandbox = "required"` and it cannot run (the start fails).
   */
  private async sandboxLaunch(spec: McpServerSpec): Promise<Launch | undefined> {
    if (spec.transport !== "stdio" || !spec.sandbox) return undefined;
    if (!this.deps.sandbox) throw new Error("sandbox = true, but this agent-lsp has no sandbox to start it in");
    const launch = await this.deps.sandbox.launch({ file: spec.command!, args: spec.args, cwd: spec.cwd ?? this.deps.root, root: this.deps.root, sharesSession: true });
    if (!launch.outcome.sandboxed) this.deps.logger.warn(`mcp ${this.spec.name}: sandbox = true, but it starts ${describeOutcome(launch.outcome)}`);
    return launch;
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/** `promise`, or a timeout error once `deadline` (epoch ms) passes. */
function withDeadline<T>(promise: Promise<T>, deadline: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error("timed out"), { code: "REQUEST_TIMEOUT" })), Math.max(deadline - Date.now(), 0));
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
