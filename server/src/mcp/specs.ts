/**
 * The MCP servers the configuration names, each checked and put in one shape: a local server
 * (command) or a remote one (url), its filters and limits, where it came from, and the exact
 * command line the user approves for servers a project file defines.
 */
import path from "node:path";
import type { Config, McpServerTable } from "../config/schema.js";
import type { PolicyClass } from "../vocabulary/policy.js";
import type { McpLaunch } from "../vocabulary/mcp-launch.js";

/** Seconds a server may take to start before it counts as failed, when its table does not say. */
const DEFAULT_STARTUP_TIMEOUT_S = 30;
/** Seconds one tool call may take, when the server's table does not say. */
const DEFAULT_TOOL_TIMEOUT_S = 120;

/** One configured server, ready to start. */
export interface McpServerSpec extends McpLaunch {
  /** The name in the config (`[mcp_servers.NAME]`). */
  name: string;
  transport: "stdio" | "http";
  enabled: boolean;
  /** RAW tool names to keep (all when absent). */
  enabledTools?: string[];
  /** RAW tool names to leave out. */
  disabledTools: string[];
  /** Whether this server's tools are deferred behind discovery. */
  defer: boolean;
  /** A local server that starts in the commands' sandbox (`sandbox = true`). */
  sandbox: boolean;
  startupTimeoutMs: number;
  toolTimeoutMs: number;
  /** Per RAW tool name. */
  tools: Record<string, { policyClass?: PolicyClass; hidden?: boolean }>;
  /**
   * Whether a `401` from the server starts an OAuth sign-in: a remote server whose config sends
   * no `Authorization` header of its own.
   */
  oauthEnabled: boolean;
  /** `[mcp_servers.NAME.oauth]`: the OAuth app the user registered. */
  oauth?: { clientId?: string; clientSecretEnv?: string; callbackPort?: number; scopes?: string[] };
  /** The project file that set its launch, when one did: it starts only once approved. */
  projectSource?: string;
  /** Where the user's own server of the same name is defined, when the project's replaces it. */
  replaces?: string;
  /** What runs (or where requests go), as the user approves it: env, command, args, cwd or url, headers. */
  launchLine: string;
}

/** A configured server that cannot be used, and why. */
export interface SpecError {
  name: string;
  message: string;
}

/** Every configured server, in name order, with the ones that cannot be used and why. */
export function serverSpecs(config: Config, root: string): { specs: McpServerSpec[]; errors: SpecError[] } {
  const specs: McpServerSpec[] = [];
  const errors: SpecError[] = [];
  for (const name of Object.keys(config.mcp_servers).sort()) {
    const table = config.mcp_servers[name]!;
    const problem = tableProblem(table);
    if (problem) errors.push({ name, message: problem });
    else specs.push(toSpec(name, table, config, root));
  }
  return { specs, errors };
}

function tableProblem(table: McpServerTable): string | undefined {
  if (!table.command === !table.url) return 'needs exactly one of "command" (a local server) or "url" (a remote one)';
  if (table.url && (table.args || table.env || table.env_vars || table.cwd)) return '"args", "env", "env_vars" and "cwd" belong to a local server (command), not to one with a "url"';
  if (table.command && (table.headers || table.env_headers || table.bearer_token_env_var)) {
    return '"headers", "env_headers" and "bearer_token_env_var" belong to a remote server (url), not to one with a "command"';
  }
  if (table.url && !/^https?:\/\//i.test(table.url)) return `"url" must be an http(s) address, got ${table.url}`;
  if (table.oauth && !table.url) return '"oauth" belongs to a remote server (url), not to one with a "command"';
  return undefined;
}

function toSpec(name: string, table: McpServerTable, config: Config, root: string): McpServerSpec {
  const spec: McpServerSpec = {
    name,
    transport: table.command ? "stdio" : "http",
    ...(table.command ? { command: table.command } : {}),
    args: table.args ?? [],
    env: table.env ?? {},
    envVars: table.env_vars ?? [],
    ...(table.cwd ? { cwd: path.resolve(root, table.cwd) } : {}),
    ...(table.url ? { url: table.url } : {}),
    headers: table.headers ?? {},
    envHeaders: table.env_headers ?? {},
    ...(table.bearer_token_env_var ? { bearerTokenEnv: table.bearer_token_env_var } : {}),
    enabled: table.enabled ?? true,
    ...(table.enabled_tools ? { enabledTools: table.enabled_tools } : {}),
    disabledTools: table.disabled_tools ?? [],
    defer: config.mcp_defer_tools && (table.defer ?? true),
    sandbox: Boolean(table.command) && table.sandbox === true,
    startupTimeoutMs: (table.startup_timeout_s ?? DEFAULT_STARTUP_TIMEOUT_S) * 1000,
    toolTimeoutMs: (table.tool_timeout_s ?? DEFAULT_TOOL_TIMEOUT_S) * 1000,
    tools: Object.fromEntries(
      Object.entries(table.tools ?? {}).map(([tool, t]) => [tool, { ...(t.policy_class ? { policyClass: t.policy_class } : {}), ...(t.hidden ? { hidden: true } : {}) }]),
    ),
    oauthEnabled: Boolean(table.url) && !sendsAuthorization(table),
    ...(table.oauth ? { oauth: oauthOf(table.oauth) } : {}),
    launchLine: "",
  };
  const source = config.mcpProjectServers?.[name];
  if (source) spec.projectSource = source;
  const mine = source ? config.mcpReplacedServers?.[name] : undefined;
  if (mine) spec.replaces = mine;
  spec.launchLine = launchLine(spec);
  return spec;
}

/** Whether the table sends its own `Authorization` header (literal or from the environment). */
function sendsAuthorization(table: McpServerTable): boolean {
  if (table.bearer_token_env_var) return true;
  return [...Object.keys(table.headers ?? {}), ...Object.keys(table.env_headers ?? {})].some((h) => h.toLowerCase() === "authorization");
}

function oauthOf(o: NonNullable<McpServerTable["oauth"]>): NonNullable<McpServerSpec["oauth"]> {
  return {
    ...(o.client_id ? { clientId: o.client_id } : {}),
    ...(o.client_secret_env ? { clientSecretEnv: o.client_secret_env } : {}),
    ...(o.callback_port ? { callbackPort: o.callback_port } : {}),
    ...(o.scopes ? { scopes: o.scopes } : {}),
  };
}

/**
 * The command line as approved: `env K=V command 'arg one' (in DIR)` for a local server, the url
 * and the header names (values of literal headers included: they are what is sent) for a remote
 * one. Any change to it is a different line, asked again.
 */
export function launchLine(
  spec: Pick<McpServerSpec, "transport" | "command" | "args" | "env" | "envVars" | "cwd" | "url" | "headers" | "envHeaders" | "bearerTokenEnv">,
): string {
  if (spec.transport === "http") {
    const headers = Object.entries(spec.headers).map(([k, v]) => `${k}: ${v}`);
    const fromEnv = Object.entries(spec.envHeaders).map(([k, v]) => `${k}: $${v}`);
    const bearer = spec.bearerTokenEnv ? [`Authorization: Bearer $${spec.bearerTokenEnv}`] : [];
    const all = [...headers, ...fromEnv, ...bearer].sort();
    return all.length ? `${spec.url} (headers ${all.join("; ")})` : spec.url!;
  }
  const env = Object.entries(spec.env)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}=${shellWord(v)}`);
  // Passed on as they are: the line names the variable, so approving it says which one goes.
  for (const name of [...spec.envVars].sort()) if (!(name in spec.env)) env.push(`${name}=$${name}`);
  const words = [...(env.length ? ["env", ...env] : []), shellWord(spec.command!), ...spec.args.map(shellWord)];
  return `${words.join(" ")}${spec.cwd ? ` (in ${spec.cwd})` : ""}`;
}

/** A word as a POSIX shell would need it written, so the line shown reads unambiguously. */
function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}
