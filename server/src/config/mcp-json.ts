/**
 * The `mcpServers` JSON files other agents use (`<project>/.mcp.json`, `~/.config/agent-lsp/mcp.json`),
 * read into the same shape as a `[mcp_servers.NAME]` table, in Claude Code's spelling or Gemini
 * CLI's (`httpUrl`, `includeTools`, `excludeTools`, `timeout` in ms). Keys that belong to other
 * agents (`alwaysAllow`, `autoApprove`, ...) are ignored; Gemini's `trust` is ignored with a note
 * saying what to write instead; a key agent-lsp would need but cannot honour (an SSE-only server)
 * is an error that names the file and the server.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import type { McpServerTable } from "./schema.js";
import { expandEnvRefs, expandRecord } from "./env-expand.js";
import { foreignKeyHint } from "./foreign-mcp-keys.js";
import { userConfigDir } from "./user-dirs.js";

/** Where the user's own `mcpServers` file lives. */
export function userMcpJsonPath(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(userConfigDir(env), "mcp.json");
}

/**
 * Where a project's `mcpServers` file lives. Read following a link, as the project's config is
 * (load.ts, projectConfigPath): its servers are the project's, started only once approved.
 */
export function projectMcpJsonPath(root: string): string {
  return path.join(root, ".mcp.json");
}

/** What one file held. */
export interface McpJsonFile {
  source: string;
  found: boolean;
  servers: Record<string, McpServerTable>;
}

/**
 * Reads one file; problems go to `errors`, naming the file (a missing file is simply not found).
 * `${VAR}` / `${VAR:-default}` are expanded from `env`.
 */
export function readMcpJson(file: string, errors: string[], env: NodeJS.ProcessEnv = process.env): McpJsonFile {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") errors.push(`${file}: cannot be read (${(err as Error).message})`);
    return { source: file, found: false, servers: {} };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    errors.push(`${file}: not valid JSON: ${(err as Error).message} (ignoring the file)`);
    return { source: file, found: true, servers: {} };
  }
  const table = isObject(raw) ? raw.mcpServers : undefined;
  if (!isObject(table)) {
    errors.push(`${file}: expected {"mcpServers": {NAME: {...}}}`);
    return { source: file, found: true, servers: {} };
  }
  const servers: Record<string, McpServerTable> = {};
  for (const [name, entry] of Object.entries(table)) {
    const notes: string[] = [];
    const converted = convertEntry(entry, env, notes);
    for (const note of notes) errors.push(`${file}: mcpServers.${name}: ${note}`);
    if (typeof converted === "string") errors.push(`${file}: mcpServers.${name}: ${converted}`);
    else servers[name] = converted;
  }
  return { source: file, found: true, servers };
}

/**
 * One `mcpServers` entry as a TOML table, or why it cannot be. `${VAR}` and `${VAR:-default}` in
 * command, args, env, url and headers are expanded from `env`; a variable that is not set and has
 * no default keeps the server from starting, with a sentence naming it. Keys read but not honoured
 * are said in `notes`.
 */
export function convertEntry(entry: unknown, env: NodeJS.ProcessEnv = process.env, notes: string[] = []): McpServerTable | string {
  if (!isObject(entry)) return "expected an object";
  const type = entry.type;
  if (type === "sse") return 'type "sse" (the old HTTP+SSE transport) is not supported; use the server\'s Streamable HTTP address';
  const out: McpServerTable = {};
  const problems: string[] = [];
  const str = (key: string): string | undefined => {
    const v = entry[key];
    if (v === undefined) return undefined;
    if (typeof v === "string" && v) return v;
    problems.push(`${key} must be a non-empty string`);
    return undefined;
  };
  const strings = (key: string): string[] | undefined => {
    const v = entry[key];
    if (v === undefined) return undefined;
    if (Array.isArray(v) && v.every((x) => typeof x === "string")) return v as string[];
    problems.push(`${key} must be an array of strings`);
    return undefined;
  };
  const record = (key: string): Record<string, string> | undefined => {
    const v = entry[key];
    if (v === undefined) return undefined;
    if (isObject(v) && Object.values(v).every((x) => typeof x === "string")) return v as Record<string, string>;
    problems.push(`${key} must be an object of strings`);
    return undefined;
  };
  assign(out, "command", str("command"));
  assign(out, "args", strings("args"));
  assign(out, "env", record("env"));
  assign(out, "cwd", str("cwd"));
  assign(out, "url", str("url"));
  assign(out, "headers", record("headers"));
  // Gemini CLI's spellings: httpUrl is its Streamable HTTP address, timeout is per request in ms.
  if (entry.httpUrl !== undefined && out.url !== undefined) problems.push('give "url" or "httpUrl", not both');
  else assign(out, "url", str("httpUrl"));
  assign(out, "enabled_tools", strings("includeTools"));
  assign(out, "disabled_tools", strings("excludeTools"));
  if (entry.timeout !== undefined) {
    if (typeof entry.timeout === "number" && entry.timeout > 0) out.tool_timeout_s = entry.timeout / 1000;
    else problems.push("timeout must be a positive number of milliseconds");
  }
  if (entry.trust !== undefined) notes.push(`ignored "trust": ${foreignKeyHint(["mcp_servers", "", "trust"])}`);
  if (entry.disabled === true) out.enabled = false;
  if (problems.length) return problems.join("; ");
  if (!out.command === !out.url) return 'needs exactly one of "command" (a local server) or "url" (a remote one)';
  return expandEntry(out, env);
}

/** The converted table with its environment references expanded, or which variables are missing. */
function expandEntry(out: McpServerTable, env: NodeJS.ProcessEnv): McpServerTable | string {
  const missing = new Set<string>();
  const one = (v: string): string => expandEnvRefs(v, env, missing);
  if (out.command) out.command = one(out.command);
  if (out.args) out.args = out.args.map(one);
  if (out.env) out.env = expandRecord(out.env, env, missing);
  if (out.url) out.url = one(out.url);
  if (out.headers) out.headers = expandRecord(out.headers, env, missing);
  if (!missing.size) return out;
  const names = [...missing].map((n) => "${" + n + "}");
  const list = names.length === 1 ? `the environment variable ${[...missing][0]}` : `the environment variables ${[...missing].join(", ")}`;
  return `uses ${names.join(", ")} but ${list} ${missing.size === 1 ? "is" : "are"} not set (not starting it; set it or write ${"${NAME:-default}"})`;
}

function assign<K extends keyof McpServerTable>(out: McpServerTable, key: K, value: McpServerTable[K] | undefined): void {
  if (value !== undefined) out[key] = value;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
