/**
 * The configuration as tools see it: the server puts a getter into `ToolContext.services`
 * (it changes when the config is reloaded). Tools run without one in tests and the headless
 * `tool` command, where the defaults apply.
 */
import { DEFAULT_CONFIG, type Config } from "../config/schema.js";
import type { ToolServices } from "./types.js";

/** The key of the configuration getter in `ToolContext.services`. */
export const CONFIG_SERVICE = "config";

/** The current configuration, or the defaults when none was provided. */
export function configFrom(services: ToolServices): Config {
  const get = services[CONFIG_SERVICE];
  return typeof get === "function" ? (get as () => Config)() : DEFAULT_CONFIG;
}
