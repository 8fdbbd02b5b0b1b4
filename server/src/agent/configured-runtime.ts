/**
 * The one place a front end gets its runtime from: the configuration loaded (user file, project
 * file, the front end's own options) with provider keys redacted from logs, the log level set, and
 * the runtime built on it; a reload re-reads every layer and reaches the processes started after
 * it. Front ends only say how their user hears about a bad config and translate their protocol.
 */
import { loadConfig } from "../config/load.js";
import type { Config } from "../config/schema.js";
import type { Editor } from "../editor/editor.js";
import { processManagerFrom } from "../exec/processes.js";
import { redactProviderKeys } from "../providers/registry.js";
import { processOptions } from "./builtins.js";
import { FileLogger, type Logger } from "../util/log.js";
import { applyProviderEnv, ConfigFileStamps, configFiles, reloadReport, type ReloadReport } from "./config-refresh.js";
import { createRuntime, type Runtime } from "./runtime.js";

/** What a front end hands in. */
export interface RuntimeOptions {
  editor: Editor;
  root: string;
  /** The front end's own settings layer (LSP initializationOptions); last and strongest. */
  initializationOptions?: unknown;
  logger?: Logger;
  /** Told after every load: the config in force and what was wrong with the files, if anything. */
  onConfig?(config: Config, errors: string[]): void;
  /** Builds the runtime (tests put a recording provider in); createRuntime by default. */
  create?: typeof createRuntime;
}

/** A runtime and its configuration. */
export interface ConfiguredRuntime extends Runtime {
  /** The configuration in force (re-read first when a config file changed: config-refresh.ts). */
  config(): Config;
  /** Reads every layer again; commands started from now on see the new settings. */
  reloadConfig(): void;
  /**
   * Takes the editor's provider variables (a null value unsets one; other names are ignored),
   * reads every layer again, and says how the server will now call each provider.
   */
  reloadWithEnv(env: Record<string, string | null>): ReloadReport;
}

/** Loads the configuration and builds the runtime on it. */
export function buildRuntime(options: RuntimeOptions): ConfiguredRuntime {
  const logger = options.logger ?? new FileLogger();
  let config = load(options, logger);
  const stamps = new ConfigFileStamps(configFiles(options.root));
  const current = () => {
    if (stamps.changed()) {
      logger.info("a config file changed: reading the configuration again");
      reload();
    }
    return config;
  };
  const runtime = (options.create ?? createRuntime)({ editor: options.editor, root: options.root, config: current, logger });
  const reload = () => {
    config = load(options, logger);
    processManagerFrom(runtime.services)?.configure(processOptions(config));
  };
  return {
    ...runtime,
    config: current,
    reloadConfig: reload,
    reloadWithEnv(env) {
      const ignored = applyProviderEnv(env, config);
      reload();
      return reloadReport(config, ignored);
    },
  };
}

function load(options: RuntimeOptions, logger: Logger): Config {
  const loaded = loadConfig({ root: options.root, initializationOptions: options.initializationOptions });
  if (logger instanceof FileLogger) logger.setLevel(loaded.config.log.level);
  // Before anything can log a key: every key the config names is redacted from every log line.
  redactProviderKeys(loaded.config);
  for (const e of loaded.errors) logger.warn(`config: ${e}`);
  options.onConfig?.(loaded.config, loaded.errors);
  return loaded.config;
}
