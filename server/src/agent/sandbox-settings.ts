/**
 * The sandbox's settings from the configuration: `[exec] sandbox`, `network` and `allow_hosts`,
 * `[web] allow_hosts` for the proxy's address guard, and the places no command may read, which
 * are the gate's sensitive places (policy/sensitive.ts: credentials, agent-lsp's own config and
 * state, `[policy] sensitive_paths`). Worked out here, above both: exec/ may not import policy/.
 */
import os from "node:os";
import type { Config } from "../config/schema.js";
import type { SandboxSettings } from "../exec/sandbox/settings.js";
import { sensitivePlaces } from "../policy/sensitive.js";

/** The settings of the sandbox for `config`, in the environment `env`. */
export function sandboxSettings(config: Config, env: NodeJS.ProcessEnv = process.env, home: string = os.homedir()): SandboxSettings {
  const places = sensitivePlaces(home, env, config.policy.sensitive_paths);
  return {
    mode: config.exec.sandbox,
    network: config.exec.network,
    allowHosts: config.exec.allow_hosts,
    privateHosts: config.web.allow_hosts,
    hidden: places.credentials,
  };
}
