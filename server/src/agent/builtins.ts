/**
 * Registers every built-in tool and the services and slash commands they bring.
 */
import type { SlashCommands } from "./slash-commands.js";
import type { Config } from "../config/schema.js";
import type { ToolRegistry } from "../tools/registry.js";
import type { ToolServices } from "../tools/types.js";

/** What the built-ins started and must stop. */
export interface Builtins {
  dispose(): Promise<void>;
}

/** Registers the built-in tools into `registry`. */
export function registerBuiltinTools(
  registry: ToolRegistry,
  _services: ToolServices,
  _commands: SlashCommands,
  _config: () => Config,
): Builtins {
  return { async dispose() {} };
}
