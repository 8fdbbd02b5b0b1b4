/**
 * `agent-lsp mcp list [--json]`, `agent-lsp mcp add NAME --url URL [--scope S]`,
 * `agent-lsp mcp add NAME [--scope S] -- CMD ARGS...`, `agent-lsp mcp remove NAME [--scope S]`.
 * add and remove edit the user's config (or, with --scope project, the project's), keeping its
 * comments and the rest of the file; list starts every server as a session would and says how
 * each one is.
 */
import { existsSync, readFileSync } from "node:fs";
import { loadConfig, projectConfigPath, userConfigPath } from "../config/load.js";
import { projectMcpJsonPath, userMcpJsonPath } from "../config/mcp-json.js";
import type { McpServerTable } from "../config/schema.js";
import { flagValue, flagValues, parseArgs, UsageError, type ParsedArgs } from "./args.js";
import { addServer, projectFile, removeServer, writeConfigFile } from "./mcp-config-file.js";
import { configScope } from "./mcp-scope.js";

const USAGE = `Usage:
  agent-lsp mcp list [--json] [--verbose]
  agent-lsp mcp add NAME --url URL [--header "Name: value"]... [--scope user|local|project]
                 [--client-id ID] [--client-secret-env VAR] [--callback-port PORT] [--oauth-scope S]...
  agent-lsp mcp add NAME [--env|-e KEY=VALUE]... [--scope user|local|project] -- COMMAND ARGS...
  agent-lsp mcp add --transport http NAME URL [-H "Name: value"]... [-s user|local|project]   (Claude Code's form)
  agent-lsp mcp add-json NAME JSON [--scope user|local|project]   (one mcpServers entry, as Claude Code or Gemini CLI write it)
  agent-lsp mcp get NAME
  agent-lsp mcp remove NAME [--scope user|local|project]
  agent-lsp mcp login NAME [--paste]
  agent-lsp mcp logout NAME
--scope (-s): where the server is written: user (your config, the default; also local, which
agent-lsp has no private file for) or project (.agent-lsp/config.toml; --project says the same).`;

export { CLI_NEED, statusLine } from "./mcp-list.js";

/** Runs an `mcp` subcommand; exit 0 on success, 1 on failure, 2 on a usage error. */
export async function mcpCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === "--help" || sub === "-h" || sub === "help") {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (sub === "list") return (await import("./mcp-list.js")).listCommand(rest, USAGE);
  if (sub === "add") return editCommand(rest, "add");
  if (sub === "remove") return editCommand(rest, "remove");
  if (sub === "get") return (await import("./mcp-get.js")).getCommand(rest, USAGE);
  if (sub === "add-json") return (await import("./mcp-get.js")).addJsonCommand(rest, USAGE);
  if (sub === "login") return (await import("./mcp-login.js")).loginCommand(rest);
  if (sub === "logout") return (await import("./mcp-login.js")).logoutCommand(rest);
  process.stderr.write(`${sub ? `agent-lsp mcp: unknown subcommand "${sub}"\n` : ""}${USAGE}\n`);
  return 2;
}

/**
 * `--transport http|sse|stdio`, Claude Code's way: with http the address may follow the name
 * (`mcp add --transport http NAME URL`); sse is the old transport agent-lsp does not speak.
 */
function takeClaudeUrl(args: ParsedArgs, action: "add" | "remove"): void {
  const transport = flagValue(args, "transport");
  if (transport === undefined) return;
  if (action === "remove") throw new UsageError("--transport belongs to mcp add.");
  if (transport === "sse") throw new UsageError("--transport sse (the old HTTP+SSE transport) is not supported: give the server's Streamable HTTP address with --transport http.");
  if (transport === "stdio") return;
  if (transport !== "http") throw new UsageError(`--transport takes http, sse or stdio, got "${transport}".`);
  if (args.positionals.length === 2 && !args.flags.has("url")) args.flags.set("url", args.positionals.pop()!);
}

/** `--help` on a subcommand: the usage on stdout. */
function helpAsked(): number {
  process.stdout.write(`${USAGE}\n`);
  return 0;
}

async function editCommand(argv: string[], action: "add" | "remove"): Promise<number> {
  const dash = argv.indexOf("--");
  const command = dash >= 0 ? argv.slice(dash + 1) : [];
  const args = parseArgs(dash >= 0 ? argv.slice(0, dash) : argv, {
    valued: ["url", "client-id", "client-secret-env", "callback-port", "transport", "scope"],
    repeated: ["header", "env", "oauth-scope"],
    flags: ["project"],
    // Claude Code's spellings: claude mcp add -s user -e KEY=VALUE -H "Name: value" ...
    short: { e: "env", H: "header", s: "scope" },
  });
  if (args.help) return helpAsked();
  takeClaudeUrl(args, action);
  const name = args.positionals[0];
  if (!name) throw new UsageError(`mcp ${action} needs a server name.`);
  if (args.positionals.length > 1) throw new UsageError(`mcp ${action} takes one server name, got also "${args.positionals[1]}" (a command goes after --).`);
  const { project, note } = configScope(args);
  const file = project ? projectFile(process.cwd(), projectConfigPath(process.cwd())) : userConfigPath();
  if (action === "remove") return remove(name, file, project);
  const table = serverTable(args, command);
  const text = existsSync(file) ? readFileSync(file, "utf8") : "";
  const other = definedElsewhere(name);
  writeConfigFile(file, addServer(text, name, table), project);
  process.stdout.write(`Added the MCP server "${name}" to ${file}.${other ? ` It replaces the one in ${other} (TOML wins).` : ""}${project ? " A server the project defines starts once you approve its command line in your editor." : ""}${note ? ` ${note}` : ""}\n`);
  if (table.url && !sendsAuthorization(table)) return offerSignIn(name);
  return 0;
}

const OAUTH_FLAGS = ["client-id", "client-secret-env", "callback-port", "oauth-scope"];

function sendsAuthorization(table: McpServerTable): boolean {
  return Object.keys(table.headers ?? {}).some((h) => h.toLowerCase() === "authorization");
}

/** After adding a remote server: sign in at once if the user says so (a terminal), else say how. */
async function offerSignIn(name: string): Promise<number> {
  const later = `If it needs a sign-in, run: agent-lsp mcp login ${name}\n`;
  if (!process.stdin.isTTY) {
    process.stdout.write(later);
    return 0;
  }
  const { createInterface } = await import("node:readline/promises");
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  const answer = await rl.question(`Sign in to "${name}" now (for a server that needs OAuth)? [Y/n] `);
  rl.close();
  if (/^n/i.test(answer.trim())) {
    process.stdout.write(later);
    return 0;
  }
  return (await import("./mcp-login.js")).loginCommand([name]);
}

/** `[mcp_servers.NAME.oauth]` from the flags, when any is given. */
function oauthTable(args: ParsedArgs): McpServerTable["oauth"] {
  const clientId = flagValue(args, "client-id");
  const secretEnv = flagValue(args, "client-secret-env");
  const port = flagValue(args, "callback-port");
  const scopes = flagValues(args, "oauth-scope");
  if (port !== undefined && !/^\d+$/.test(port)) throw new UsageError(`--callback-port takes a port number, got "${port}"`);
  const table = {
    ...(clientId ? { client_id: clientId } : {}),
    ...(secretEnv ? { client_secret_env: secretEnv } : {}),
    ...(port ? { callback_port: Number(port) } : {}),
    ...(scopes.length ? { scopes } : {}),
  };
  return Object.keys(table).length ? table : undefined;
}

/** The table `add` writes, from --url/--header or the command after `--`. */
function serverTable(args: ParsedArgs, command: string[]): McpServerTable {
  const url = flagValue(args, "url");
  if (!url === !command.length) throw new UsageError("mcp add takes either --url URL (or --transport http NAME URL) or -- COMMAND ARGS....");
  if (url) {
    const headers = pairs(flagValues(args, "header"), ":", "--header");
    const oauth = oauthTable(args);
    return { url, ...(Object.keys(headers).length ? { headers } : {}), ...(oauth ? { oauth } : {}) };
  }
  if (OAUTH_FLAGS.some((f) => args.flags.has(f))) throw new UsageError("--client-id, --client-secret-env, --callback-port and --oauth-scope belong to a remote server (--url).");
  const env = pairs(flagValues(args, "env"), "=", "--env");
  return { command: command[0]!, ...(command.length > 1 ? { args: command.slice(1) } : {}), ...(Object.keys(env).length ? { env } : {}) };
}

function pairs(items: string[], separator: string, flag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of items) {
    const at = item.indexOf(separator);
    if (at <= 0) throw new UsageError(`${flag} takes NAME${separator}VALUE, got "${item}"`);
    out[item.slice(0, at).trim()] = item.slice(at + 1).trim();
  }
  return out;
}

/** Removes the server from the TOML file, or else from the matching mcpServers JSON file. */
function remove(name: string, file: string, project: boolean): number {
  const text = existsSync(file) ? readFileSync(file, "utf8") : "";
  const edited = removeServer(text, name);
  if (edited !== undefined) {
    writeConfigFile(file, edited, project);
    process.stdout.write(`Removed the MCP server "${name}" from ${file}.\n`);
    return 0;
  }
  const json = project ? projectFile(process.cwd(), projectMcpJsonPath(process.cwd())) : userMcpJsonPath();
  if (removeFromJson(json, name, project)) {
    process.stdout.write(`Removed the MCP server "${name}" from ${json}.\n`);
    return 0;
  }
  const other = definedElsewhere(name);
  process.stderr.write(`agent-lsp mcp: no MCP server "${name}" in ${file} or ${json}.${other ? ` It is defined in ${other}${project ? "" : " (--scope project edits the project's files)"}.` : ""}\n`);
  return 1;
}

function removeFromJson(file: string, name: string, project: boolean): boolean {
  if (!existsSync(file)) return false;
  const data = JSON.parse(readFileSync(file, "utf8")) as { mcpServers?: Record<string, unknown> };
  if (!data.mcpServers || !Object.hasOwn(data.mcpServers, name)) return false;
  delete data.mcpServers[name];
  writeConfigFile(file, `${JSON.stringify(data, null, 2)}\n`, project);
  return true;
}

/** Which other file defines a server of that name, if any (for the message). */
function definedElsewhere(name: string): string | undefined {
  const { layers } = loadConfig({ root: process.cwd() });
  return layers.find((l) => l.values.mcp_servers && Object.hasOwn(l.values.mcp_servers, name))?.source;
}
