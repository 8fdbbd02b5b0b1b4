/**
 * The one place a front end gets its runtime from: the runtime built on a configuration
 * (runtime-config.ts); a reload re-reads every layer and reaches the processes started after it.
 * Front ends only say how their user hears about a bad config and translate their protocol.
 */
import type { Config } from "../config/schema.js";
import type { Editor } from "../editor/editor.js";
import { processManagerFrom } from "../exec/processes.js";
import { processOptions } from "./builtins.js";
import { FileLogger } from "../util/log.js";
import type { ReloadReport } from "./config-refresh.js";
import { RuntimeConfig, type ConfigSource } from "./runtime-config.js";
import { createRuntime, type Runtime } from "./runtime.js";

/** What a front end hands in. */
export interface RuntimeOptions extends ConfigSource {
  editor: Editor;
  /**
   * The configuration loaded already (a new session answered before the runtime loaded); loaded
   * here otherwise. With it, `onConfig` (when given) takes over its loads, told at once of the last.
   */
  settings?: RuntimeConfig;
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

/** Loads the configuration (unless given) and builds the runtime on it. */
export function buildRuntime(options: RuntimeOptions): ConfiguredRuntime {
  const logger = options.logger ?? new FileLogger();
  const settings = options.settings ?? new RuntimeConfig({ ...options, logger });
  if (options.settings && options.onConfig) options.settings.tell(options.onConfig);
  const config = () => settings.current();
  const runtime = (options.create ?? createRuntime)({ editor: options.editor, root: options.root, config, logger });
  settings.afterReload((current) => processManagerFrom(runtime.services)?.configure(processOptions(current)));
  return {
    ...runtime,
    config,
    reloadConfig: () => settings.reload(),
    reloadWithEnv: (env) => settings.reloadWithEnv(env),
  };
}
