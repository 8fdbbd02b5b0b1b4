/** Builds a runtime for the terminal front ends (run, tool) in the current directory. */
import { buildRuntime, type ConfiguredRuntime } from "../agent/configured-runtime.js";
import { SAFETY_MODES, type SafetyMode } from "../config/schema.js";
import { HeadlessEditor, type HeadlessOptions } from "../editor/headless.js";
import { FileLogger, type Logger } from "../util/log.js";
import { projectRoot } from "../workspace/project-root.js";
import { UsageError } from "./args.js";

/** A runtime with its terminal editor. */
export interface HeadlessRuntime {
  runtime: ConfiguredRuntime;
  editor: HeadlessEditor;
}

/** What the terminal commands add to the editor's options. */
export interface HeadlessRuntimeOptions extends HeadlessOptions {
  /** The log (MCP servers' stderr included) on the terminal too, not only in the log file. */
  verbose?: boolean;
}

/**
 * Loads config for cwd (errors go to stderr) and builds the runtime. The log goes to the project's
 * log file (`.agent-lsp/logs/agent-lsp.log`: MCP servers' stderr, their state changes); only
 * errors reach the terminal, unless `verbose`. A cwd that is no project folder (`/`, the home, a
 * system folder) is not used: the runtime works in the user's state folder and stderr says so
 * (workspace/project-root.ts).
 */
export function createHeadlessRuntime(options: HeadlessRuntimeOptions, logger?: Logger): HeadlessRuntime {
  const editor = new HeadlessEditor(options);
  const { root, refused } = projectRoot(process.cwd());
  if (refused) process.stderr.write(`agent-lsp: ${refused}\n`);
  const runtime = buildRuntime({
    editor,
    root,
    logger: logger ?? terminalLogger(root, options.verbose === true),
    onConfig: (_config, errors) => {
      for (const e of errors) process.stderr.write(`agent-lsp: config: ${e}\n`);
    },
  });
  editor.follow(runtime.events);
  // Nobody here to sign in through an editor: a server that needs it says to run `mcp login`.
  runtime.mcp.signIns = false;
  return { runtime, editor };
}

/** The log file of `root`, and stderr for errors (everything with --verbose). */
function terminalLogger(root: string, verbose: boolean): FileLogger {
  const logger = new FileLogger("info", verbose ? true : "errors");
  logger.attachFile(root);
  return logger;
}

/** Validates a --mode value. */
export function parseMode(value: string | undefined): SafetyMode | undefined {
  if (value === undefined) return undefined;
  if (!SAFETY_MODES.includes(value as SafetyMode)) {
    throw new UsageError(`--mode must be one of ${SAFETY_MODES.join(", ")}; got "${value}".`);
  }
  return value as SafetyMode;
}
