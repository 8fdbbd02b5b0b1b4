/**
 * A project's own config (`<project>/.agent-lsp/config.toml`) comes with the repository, so
 * whoever wrote the repository wrote it. It may make agent-lsp stricter, never more permissive:
 * a cloned repository must not switch itself to `full_access`, lift a floor, remember approvals,
 * choose who judges `auto` mode, or send the user's key to a server of its choosing. Those keys
 * are honoured from the user's config, from `initializationOptions` and from the user's answers.
 *
 * MCP servers are the exception that is honoured, on one condition: a server whose launch
 * (command, args, env, cwd, url, headers) a project file sets starts only after the user approved
 * that exact command line once (mcp/approval). Such servers are listed in `approvalNeeded`.
 *
 * A new key that widens what runs unasked (web hosts, skills...) gets its rule here.
 */
import { SAFETY_MODES, type Config, type ConfigFile, type SafetyMode } from "./schema.js";

/** What was dropped from a project layer, each with its reason. */
export interface LimitedLayer {
  values: ConfigFile;
  ignored: string[];
  /** MCP servers whose launch the layer set: honoured only once the user approved them. */
  approvalNeeded: string[];
}

/** The keys of an MCP server table that decide what runs, and where requests and secrets go. */
const MCP_LAUNCH_KEYS = ["command", "args", "env", "env_vars", "cwd", "url", "headers", "env_headers", "bearer_token_env_var"] as const;

/** Per-tool classes that would let a project's MCP tool run with fewer questions than the default. */
const WIDENING_TOOL_CLASSES = new Set(["read_only", "read_write"]);

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
  if (values.editor?.approvals === "message" && base.editor.approvals !== "message") {
    drop('[editor] approvals = "message"', "a project cannot hide the diff of what you approve");
    delete values.editor.approvals;
  }
  limitPolicy(values, base, drop);
  limitProviders(values, drop);
  limitOutside(values, base, drop);
  limitExec(values, base, drop);
  limitMcpTools(values, drop);
  limitMcpSandbox(values, base, drop);
  limitMcpSignIn(values, drop);
  return { values, ignored, approvalNeeded: projectLaunchedServers(values) };
}

/** Names of the MCP servers whose launch keys `values` sets. */
function projectLaunchedServers(values: ConfigFile): string[] {
  return Object.entries(values.mcp_servers ?? {})
    .filter(([, table]) => MCP_LAUNCH_KEYS.some((k) => table[k] !== undefined))
    .map(([name]) => name);
}

/** Where sign-in tokens are kept and what agent-lsp calls itself to authorization servers are the user's to say. */
function limitMcpSignIn(values: ConfigFile, drop: (key: string, why: string) => void): void {
  for (const key of ["token_store", "client_metadata_url"] as const) {
    if (values.mcp?.[key] === undefined) continue;
    drop(`[mcp] ${key}`, "a project cannot choose where sign-in tokens are kept or how agent-lsp identifies itself when signing in");
    delete values.mcp[key];
  }
  // The variable's value is sent to an authorization server as the client secret: a project
  // naming one (ANTHROPIC_API_KEY...) could send any secret of the user's environment there.
  for (const [server, table] of Object.entries(values.mcp_servers ?? {})) {
    if (table.oauth?.client_secret_env === undefined) continue;
    drop(`[mcp_servers.${server}.oauth] client_secret_env`, "a project cannot choose which of your environment's secrets is sent when signing in");
    delete table.oauth.client_secret_env;
  }
}

/** A project may put an MCP server into the sandbox, never take one of yours out of it. */
function limitMcpSandbox(values: ConfigFile, base: Config, drop: (key: string, why: string) => void): void {
  for (const [server, table] of Object.entries(values.mcp_servers ?? {})) {
    if (table.sandbox !== false || base.mcp_servers[server]?.sandbox !== true) continue;
    drop(`[mcp_servers.${server}] sandbox = false`, "a project cannot take an MCP server out of the sandbox");
    delete table.sandbox;
  }
}

/** A project may mark an MCP tool hidden or stricter, never less asked than `external_api`. */
function limitMcpTools(values: ConfigFile, drop: (key: string, why: string) => void): void {
  for (const [server, table] of Object.entries(values.mcp_servers ?? {})) {
    for (const [tool, settings] of Object.entries(table.tools ?? {})) {
      if (!settings.policy_class || !WIDENING_TOOL_CLASSES.has(settings.policy_class)) continue;
      drop(`[mcp_servers.${server}.tools.${tool}] policy_class = "${settings.policy_class}"`, "a project cannot make an MCP tool run with fewer questions");
      delete settings.policy_class;
    }
  }
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

/**
 * Commands: a project adds to the variables kept from them and may make the sandbox stricter
 * (`required`), never switch it off or open the network to hosts of its choosing.
 */
function limitExec(values: ConfigFile, base: Config, drop: (key: string, why: string) => void): void {
  const exec = values.exec;
  if (!exec) return;
  if (exec.env_deny) exec.env_deny = union(base.exec.env_deny, exec.env_deny);
  const strictness = { off: 0, auto: 1, required: 2 } as const;
  if (exec.sandbox !== undefined && strictness[exec.sandbox] < strictness[base.exec.sandbox]) {
    drop(`[exec] sandbox = "${exec.sandbox}"`, `a project may only make the sandbox stricter than "${base.exec.sandbox}"`);
    delete exec.sandbox;
  }
  if (exec.network === "allow_hosts" && base.exec.network !== "allow_hosts") {
    drop('[exec] network = "allow_hosts"', "a project cannot give commands the network");
    delete exec.network;
  }
  if (exec.allow_hosts?.length) {
    drop(`[exec] allow_hosts = ${JSON.stringify(exec.allow_hosts)}`, "a project cannot choose which hosts commands reach");
    delete exec.allow_hosts;
  }
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

/**
 * The web, the browser and the desktop: which hosts count as public, which program is started as
 * the browser, where searches (and their key) go, and whether the screen is driven are the user's.
 */
function limitOutside(values: ConfigFile, base: Config, drop: (key: string, why: string) => void): void {
  const web = values.web;
  if (web?.allow_hosts?.length) {
    drop(`[web] allow_hosts = ${JSON.stringify(web.allow_hosts)}`, "a project cannot open your private network to web tools");
    delete web.allow_hosts;
  }
  for (const key of ["search_url", "search_api_key_env"] as const) {
    if (web?.[key] === undefined) continue;
    drop(`[web] ${key}`, "a project cannot choose where your searches and search key are sent");
    delete web[key];
  }
  if (values.browser?.executable !== undefined) {
    drop("[browser] executable", "a project cannot choose the program started as your browser");
    delete values.browser.executable;
  }
  if (values.tools?.computer === true && !base.tools.computer) {
    drop("[tools] computer = true", "a project cannot let the agent drive your screen");
    delete values.tools.computer;
  }
  if (values.images?.model !== undefined) {
    drop("[images] model", "a project cannot choose which paid image API your key is used with");
    delete values.images.model;
  }
}

/** Strictness of a mode: lower is stricter. */
function rank(mode: SafetyMode): number {
  return SAFETY_MODES.indexOf(mode);
}

/** Whether `mode` lets the agent do more unasked than `than` (full_access over ask...). */
export function isWiderMode(mode: SafetyMode, than: SafetyMode): boolean {
  return rank(mode) > rank(than);
}

function union(a: readonly string[], b: readonly string[]): string[] {
  return [...new Set([...a, ...b])];
}
