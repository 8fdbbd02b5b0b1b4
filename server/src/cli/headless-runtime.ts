/** Builds a runtime for the terminal front ends (run, tool) in the current directory. */
import { createRuntime, type Runtime } from "../agent/runtime.js";
import { loadConfig } from "../config/load.js";
import { SAFETY_MODES, type SafetyMode } from "../config/schema.js";
import { HeadlessEditor, type HeadlessOptions } from "../editor/headless.js";
import { redactProviderKeys } from "../providers/registry.js";

/** A runtime with its terminal editor. */
export interface HeadlessRuntime {
  runtime: Runtime;
  editor: HeadlessEditor;
}

/** Loads config for cwd (errors go to stderr) and builds the runtime. */
export function createHeadlessRuntime(options: HeadlessOptions): HeadlessRuntime {
  const root = process.cwd();
  const loaded = loadConfig({ root });
  for (const e of loaded.errors) process.stderr.write(`agent-lsp: config: ${e}\n`);
  redactProviderKeys(loaded.config);
  const editor = new HeadlessEditor(options);
  const runtime = createRuntime({ editor, root, config: () => loaded.config });
  editor.follow(runtime.events);
  return { runtime, editor };
}

/** Validates a --mode value. */
export function parseMode(value: string | undefined): SafetyMode | undefined {
  if (value === undefined) return undefined;
  if (!SAFETY_MODES.includes(value as SafetyMode)) {
    throw new Error(`--mode must be one of ${SAFETY_MODES.join(", ")}; got "${value}".`);
  }
  return value as SafetyMode;
}
