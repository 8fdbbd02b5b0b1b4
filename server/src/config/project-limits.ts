/**
 * A project's own config (`<project>/.agent-lsp/config.toml`) comes with the repository, so
 * whoever wrote the repository wrote it. It may make agent-lsp stricter, never more permissive:
 * a cloned repository must not switch itself to `full_access`, lift a floor, remember approvals,
 * choose who judges `auto` mode, or send the user's key to a server of its choosing. Those keys
 * are honoured from the user's config, from `initializationOptions` and from the user's answers.
 *
 * A new key that widens what runs unasked (web hosts, MCP servers, skills...) gets its rule here.
 */
import { SAFETY_MODES, type Config, type ConfigFile, type SafetyMode } from "./schema.js";

/** What was dropped from a project layer, each with its reason. */
export interface LimitedLayer {
  values: ConfigFile;
  ignored: string[];
}

const WHERE_INSTEAD = "set it in your user config (~/.config/agent-lsp/config.toml) or your editor's settings";

/** The project layer with every widening key removed, and lists made to add to (never replace) `base`. */
export function limitProjectLayer(layer: ConfigFile, base: Config): LimitedLayer {
  const values = structuredClone(layer);
  const ignored: string[] = [];
  const drop = (key: string, why: string) => ignored.push(`${key} (${why}; ${WHERE_INSTEAD})`);
  if (values.safety !== undefined && rank(values.safety) > rank(base.safety)) {
    drop(`safety = "${values.safety}"`, `a project may only choose a stricter mode than "${base.safety}"`);
    delete values.safety;
  }
  if (values.remember_approvals === true && !base.remember_approvals) {
    drop("remember_approvals = true", "a project cannot make approvals last");
    delete values.remember_approvals;
  }
  limitPolicy(values, base, drop);
  limitProviders(values, drop);
  if (values.exec?.env_deny) values.exec.env_deny = union(base.exec.env_deny, values.exec.env_deny);
  return { values, ignored };
}

function limitPolicy(values: ConfigFile, base: Config, drop: (key: string, why: string) => void): void {
  const policy = values.policy;
  if (!policy) return;
  if (policy.lift_floors?.length) {
    drop(`[policy] lift_floors = ${JSON.stringify(policy.lift_floors)}`, "a project cannot lift a floor");
    delete policy.lift_floors;
  }
  if (policy.classifier_model !== undefined) {
    drop("[policy] classifier_model", "a project cannot choose the model that judges auto mode");
    delete policy.classifier_model;
  }
  // Lists of protections: a project adds to the user's, it cannot shorten them.
  if (policy.protected_branches) policy.protected_branches = union(base.policy.protected_branches, policy.protected_branches);
  if (policy.sensitive_paths) policy.sensitive_paths = union(base.policy.sensitive_paths, policy.sensitive_paths);
}

/** Where a request goes and which variable's secret it carries are the user's to say. */
function limitProviders(values: ConfigFile, drop: (key: string, why: string) => void): void {
  for (const [name, table] of Object.entries(values.providers ?? {})) {
    for (const key of ["base_url", "api_key_env"] as const) {
      if (table[key] === undefined) continue;
      drop(`[providers.${name}] ${key}`, "a project cannot choose where your API keys are sent");
      delete table[key];
    }
  }
}

/** Strictness of a mode: lower is stricter. */
function rank(mode: SafetyMode): number {
  return SAFETY_MODES.indexOf(mode);
}

function union(a: readonly string[], b: readonly string[]): string[] {
  return [...new Set([...a, ...b])];
}
