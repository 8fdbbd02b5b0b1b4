/**
 * `agent-lsp mcp get NAME` (the server's settings as agent-lsp merged them, and which files set
 * them) and `agent-lsp mcp add-json NAME JSON [--project]` (a server pasted as one `mcpServers`
 * entry, Claude Code's or Gemini CLI's, kept in the mcpServers JSON file so `${VAR}` stays a
 * reference to the environment rather than a secret written into a file).
 */
import { existsSync, readFileSync } from "node:fs";
import { loadConfig } from "../config/load.js";
import { convertEntry, projectMcpJsonPath, userMcpJsonPath } from "../config/mcp-json.js";
import { parseArgs, UsageError } from "./args.js";
import { configScope } from "./mcp-scope.js";
import { projectFile, SERVER_NAME, writeConfigFile } from "./mcp-config-file.js";

/** `mcp get NAME`: exit 0 when the server is configured, 1 when it is not. */
export function getCommand(argv: string[], usage: string): number {
  const args = parseArgs(argv);
  if (args.help) return help(usage);
  const [name, ...extra] = args.positionals;
  if (!name || extra.length) throw new UsageError("mcp get takes one server name: agent-lsp mcp get NAME");
  const { config, layers } = loadConfig({ root: process.cwd() });
  const table = config.mcp_servers[name];
  if (!table) {
    const names = Object.keys(config.mcp_servers).sort();
    process.stderr.write(`agent-lsp mcp: no MCP server "${name}" is configured (configured: ${names.join(", ") || "none"}).\n`);
    return 1;
  }
  const sources = layers.filter((l) => l.values.mcp_servers && Object.hasOwn(l.values.mcp_servers, name)).map((l) => l.source);
  const lines = [`${name}:`, ...Object.entries(table).map(([k, v]) => `  ${k} = ${JSON.stringify(SECRET_VALUED.has(k) ? masked(v as Record<string, string>) : v)}`), `  defined in: ${sources.join(", ")}`];
  if (config.mcpProjectServers?.[name]) lines.push("  starts once you approve its launch (the project defines it)");
  lines.push(`How it is now: agent-lsp mcp list`);
  process.stdout.write(`${lines.join("\n")}\n`);
  return 0;
}

/** `mcp add-json NAME JSON [--scope user|local|project]`: exit 0 when added, 1 when the entry cannot be used. */
export function addJsonCommand(argv: string[], usage: string): number {
  const args = parseArgs(argv, { flags: ["project"], valued: ["scope"], short: { s: "scope" } });
  if (args.help) return help(usage);
  const [name, json, ...extra] = args.positionals;
  if (!name || json === undefined || extra.length) throw new UsageError(`mcp add-json takes a name and one JSON object: agent-lsp mcp add-json NAME '{"command": "npx", "args": ["-y", "server"]}'`);
  if (!SERVER_NAME.test(name)) throw new UsageError(`"${name}" cannot be a server name: use letters, digits, _ and -.`);
  const scope = configScope(args);
  let entry: unknown;
  try {
    entry = JSON.parse(json);
  } catch (err) {
    throw new UsageError(`the JSON of add-json does not parse: ${(err as Error).message}`);
  }
  // Checked as it will be read, with no variable needed yet: a ${VAR} is looked up at each start.
  const notes: string[] = [];
  const checked = convertEntry(entry, new Proxy({}, { get: () => "set" }) as NodeJS.ProcessEnv, notes);
  if (typeof checked === "string") {
    process.stderr.write(`agent-lsp mcp: "${name}" cannot be used: ${checked}\n`);
    return 1;
  }
  for (const note of notes) process.stderr.write(`agent-lsp mcp: ${name}: ${note}\n`);
  const file = scope.project ? projectFile(process.cwd(), projectMcpJsonPath(process.cwd())) : userMcpJsonPath();
  const data = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as { mcpServers?: Record<string, unknown> }) : {};
  const replaced = data.mcpServers !== undefined && Object.hasOwn(data.mcpServers, name);
  data.mcpServers = { ...data.mcpServers, [name]: entry };
  writeConfigFile(file, `${JSON.stringify(data, null, 2)}\n`, scope.project);
  const toml = loadConfig({ root: process.cwd() }).layers.find((l) => !l.source.endsWith(".json") && l.values.mcp_servers && Object.hasOwn(l.values.mcp_servers, name));
  process.stdout.write(
    `${replaced ? "Replaced" : "Added"} the MCP server "${name}" in ${file}.${toml ? ` A TOML table of that name in ${toml.source} wins over it.` : ""}${scope.note ? ` ${scope.note}` : ""}\n`,
  );
  return 0;
}

/** Tables whose values are credentials more often than not: get shows their names, not their values. */
const SECRET_VALUED = new Set(["env", "headers"]);

function masked(values: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, `(set, ${v.length} characters)`]));
}

function help(usage: string): number {
  process.stdout.write(`${usage}\n`);
  return 0;
}
