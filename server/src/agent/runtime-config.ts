/**
 * A front end's configuration, apart from the runtime built on it: loaded (user file, project
 * file, the front end's own options) with provider keys redacted from logs and the log level set,
 * re-read when a config file changed. It is light on purpose: a new session is answered from it
 * alone while the runtime (tools, policy, the turn machinery) still loads (runtime-start.ts).
 */
import { loadConfig } from "../config/load.js";
import type { Config } from "../config/schema.js";
import { redactProviderKeys } from "../providers/registry.js";
import { FileLogger, type Logger } from "../util/log.js";
import { applyProviderEnv, ConfigFileStamps, configFiles, reloadReport, type ReloadReport } from "./config-refresh.js";

/** Where the configuration comes from and who hears about it. */
export interface ConfigSource {
  root: string;
  /** The front end's own settings layer (LSP initializationOptions); last and strongest. */
  initializationOptions?: unknown;
  logger?: Logger;
  /** Told after every load: the config in force and what was wrong with the files, if anything. */
  onConfig?(config: Config, errors: string[]): void;
}

/** The configuration in force, and its reloads. */
export class RuntimeConfig {
  private config: Config;
  private errors: string[] = [];
  private readonly stamps: ConfigFileStamps;
  private readonly logger: Logger;
  private onConfig: ConfigSource["onConfig"];
  private readonly reloaded: Array<(config: Config) => void> = [];

  constructor(private readonly source: ConfigSource) {
    this.logger = source.logger ?? new FileLogger();
    this.onConfig = source.onConfig;
    this.config = this.load();
    this.stamps = new ConfigFileStamps(configFiles(source.root));
  }

  /** The configuration in force (read again first when a config file changed: config-refresh.ts). */
  current(): Config {
    if (this.stamps.changed()) {
      this.logger.info("a config file changed: reading the configuration again");
      this.reload();
    }
    return this.config;
  }

  /** Reads every layer again; what listens ({@link afterReload}) sees the new settings. */
  reload(): void {
    this.config = this.load();
    for (const listener of this.reloaded) listener(this.config);
  }

  /**
   * Takes the editor's provider variables (a null value unsets one; other names are ignored),
   * reads every layer again, and says how the server will now call each provider.
   */
  reloadWithEnv(env: Record<string, string | null>): ReloadReport {
    const ignored = applyProviderEnv(env, this.config);
    this.reload();
    return reloadReport(this.config, ignored);
  }

  /** Calls `listener` after every reload from now on. */
  afterReload(listener: (config: Config) => void): void {
    this.reloaded.push(listener);
  }

  /**
   * Hands the loads to another listener (a front end whose editor exists only once the runtime
   * has loaded), telling it at once of the load that came before it.
   */
  tell(onConfig: NonNullable<ConfigSource["onConfig"]>): void {
    this.onConfig = onConfig;
    onConfig(this.config, this.errors);
  }

  private load(): Config {
    const loaded = loadConfig({ root: this.source.root, initializationOptions: this.source.initializationOptions });
    if (this.logger instanceof FileLogger) this.logger.setLevel(loaded.config.log.level);
    // Before anything can log a key: every key the config names is redacted from every log line.
    redactProviderKeys(loaded.config);
    for (const e of loaded.errors) this.logger.warn(`config: ${e}`);
    this.errors = loaded.errors;
    this.onConfig?.(loaded.config, loaded.errors);
    return loaded.config;
  }
}
