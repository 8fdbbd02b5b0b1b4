/**
 * A runtime that loads after the first session has been answered. The configuration (light) is
 * read at once; a new session is checked and its history log started from it alone
 * (session-open.ts), and answered; the runtime (tools, policy, providers, the turn machinery:
 * most of the server's code) loads next, off that answer's path, and adopts the sessions opened
 * meanwhile before anything else reaches it. Every request that needs the agent waits for
 * {@link RuntimeStart.ready}.
 */
import type { Config } from "../config/schema.js";
import type { ConfiguredRuntime } from "./configured-runtime.js";
import type { SessionInfo } from "./agent.js";
import { RuntimeConfig, type ConfigSource } from "./runtime-config.js";
import { openSession, type NewSessionParams, type OpenedSession } from "./session-open.js";

/** Builds the runtime on the configuration already loaded (imports it: it is the heavy part). */
export type RuntimeLoader = (settings: RuntimeConfig) => Promise<ConfiguredRuntime>;

/** The configuration now, the runtime when it has loaded. */
export class RuntimeStart {
  readonly settings: RuntimeConfig;
  private loaded: ConfiguredRuntime | undefined;
  private loading: Promise<ConfiguredRuntime> | undefined;
  /** Sessions answered before the runtime had loaded, in the order they were opened. */
  private readonly opened: OpenedSession[] = [];

  constructor(
    source: ConfigSource,
    private readonly load: RuntimeLoader,
  ) {
    this.settings = new RuntimeConfig(source);
  }

  /** The configuration in force. */
  config(): Config {
    return this.settings.current();
  }

  /** The runtime, once it has loaded. */
  runtime(): ConfiguredRuntime | undefined {
    return this.loaded;
  }

  /**
   * Starts a session: in the agent once it has loaded, else from the configuration alone (held
   * until the agent adopts it). Throws what the agent's newSession throws (a model no provider
   * serves, a state folder that refuses the log).
   */
  newSession(root: string, params: NewSessionParams): SessionInfo {
    if (this.loaded) return this.loaded.agent.newSession(params);
    const opened = openSession(this.settings.current(), root, params);
    this.opened.push(opened);
    return { sessionId: opened.sessionId, mode: opened.mode, model: opened.model };
  }

  /** The runtime's load when it has begun (loaded or not), else undefined. */
  begun(): Promise<ConfiguredRuntime> | undefined {
    return this.loading;
  }

  /** Loads the runtime (once) and resolves when it has adopted every session opened meanwhile. */
  ready(): Promise<ConfiguredRuntime> {
    this.loading ??= this.load(this.settings).then((runtime) => {
      for (const session of this.opened.splice(0)) runtime.agent.adoptSession(session);
      this.loaded = runtime;
      return runtime;
    });
    return this.loading;
  }
}
