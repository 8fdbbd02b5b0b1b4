/**
 * `[mcp_servers.NAME]` keys as Codex spells them, read as agent-lsp's own, so a table pasted from
 * Codex's config.toml keeps its time-outs, headers and scopes instead of losing them as unknown
 * keys; keys other agents have and agent-lsp does not get a sentence saying what to write instead.
 */

/** A Codex key agent-lsp has under another name, and how its value converts. */
interface Rename {
  key: string;
  convert?: (value: unknown) => unknown;
}

const CODEX_RENAMES: Record<string, Rename> = {
  startup_timeout_sec: { key: "startup_timeout_s" },
  startup_timeout_ms: { key: "startup_timeout_s", convert: (v) => (typeof v === "number" ? v / 1000 : v) },
  tool_timeout_sec: { key: "tool_timeout_s" },
  http_headers: { key: "headers" },
  env_http_headers: { key: "env_headers" },
};

/** What to write instead of keys other agents have and agent-lsp does not honour. */
const FOREIGN_HINTS: Record<string, string> = {
  bearer_token:
    "a token written into the config is not read; put it in an environment variable and name the variable in bearer_token_env_var",
  required: "agent-lsp starts each server when it is needed and reports one that fails; leave required out",
  trust: "agent-lsp asks by policy class; to let one tool run unasked write [mcp_servers.NAME.tools.TOOL] policy_class = \"read_only\"",
  httpUrl: "write url (agent-lsp speaks Streamable HTTP at that address)",
  includeTools: "write enabled_tools",
  excludeTools: "write disabled_tools",
  timeout: "write tool_timeout_s, in seconds",
};

/**
 * `raw` (one layer as parsed) with Codex's spellings inside `mcp_servers` rewritten to agent-lsp's;
 * where a table has both spellings, agent-lsp's wins and `notes` says so.
 */
export function readCodexMcpKeys(raw: Record<string, unknown>, notes: string[]): Record<string, unknown> {
  const servers = raw.mcp_servers;
  if (!isTable(servers)) return raw;
  const out: Record<string, unknown> = {};
  for (const [name, table] of Object.entries(servers)) out[name] = isTable(table) ? renamed(name, table, notes) : table;
  return { ...raw, mcp_servers: out };
}

function renamed(name: string, table: Record<string, unknown>, notes: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = { ...table };
  for (const [codexKey, { key, convert }] of Object.entries(CODEX_RENAMES)) {
    if (!(codexKey in out)) continue;
    const value = out[codexKey];
    delete out[codexKey];
    if (key in out) notes.push(`mcp_servers.${name}: both ${codexKey} and ${key} are set; using ${key}`);
    else out[key] = convert ? convert(value) : value;
  }
  if ("scopes" in out) {
    const oauth = isTable(out.oauth) ? out.oauth : {};
    if ("scopes" in oauth) notes.push(`mcp_servers.${name}: both scopes and oauth.scopes are set; using oauth.scopes`);
    else out.oauth = { ...oauth, scopes: out.scopes };
    delete out.scopes;
  }
  return out;
}

/** What to write instead of the unknown key at `path`, when another agent has that key. */
export function foreignKeyHint(path: readonly PropertyKey[]): string | undefined {
  if (path.length !== 3 || path[0] !== "mcp_servers") return undefined;
  return FOREIGN_HINTS[String(path[2])];
}

function isTable(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
