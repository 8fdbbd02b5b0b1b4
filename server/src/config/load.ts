/**
 * Loads, merges and validates configuration. Layers, later wins: defaults, the user file
 * (~/.config/agent-lsp/config.toml), the project file (<root>/.agent-lsp/config.toml), then LSP
 * initializationOptions. A bad layer never stops the server: its bad keys are dropped with an
 * error naming the file, key and expected type, and a file that does not parse keeps the last
 * good version of that file.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { parse as parseToml } from "smol-toml";
import type { z } from "zod";
import { stateFolder } from "../util/state-folder.js";
import { foreignKeyHint, readCodexMcpKeys } from "./foreign-mcp-keys.js";
import { projectMcpJsonPath, readMcpJson, userMcpJsonPath, type McpJsonFile } from "./mcp-json.js";
import { limitProjectLayer } from "./project-limits.js";
import { userConfigDir } from "./user-dirs.js";
import { configFileSchema, DEFAULT_CONFIG, type Config, type ConfigFile } from "./schema.js";

/** One source of settings. */
export interface ConfigLayer {
  /** A file path, or `initializationOptions`. */
  source: string;
  /** Present when the file exists (or options were given). */
  found: boolean;
  values: ConfigFile;
  /** Keys of a project file that were not honoured because they would widen what runs unasked. */
  ignored?: string[];
  /** MCP servers whose launch this layer, a file inside the project, set (approved before they start). */
  approvalNeeded?: string[];
}

/** The merged result and every problem found on the way. */
export interface LoadedConfig {
  config: Config;
  layers: ConfigLayer[];
  errors: string[];
}

/** Where the user's config file lives (XDG_CONFIG_HOME respected). */
export function userConfigPath(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(userConfigDir(env), "config.toml");
}

/**
 * Where a project's config file lives. It is read following a link (a user may keep it in a
 * dotfiles repository): whatever it leads to is loaded as the project's layer, which can only make
 * agent-lsp stricter (project-limits.ts) and whose MCP servers start only once approved, and a
 * syntax error is reported by its first line alone, so a link to a credential file yields nothing.
 * Rewriting it (`mcp add --project`) refuses a link (cli/mcp-config-file.ts).
 */
export function projectConfigPath(root: string): string {
  return path.join(stateFolder(root), "config.toml");
}

/** Remembers the last good parse of each file, so a broken edit keeps the previous values. */
const lastGoodFiles = new Map<string, ConfigFile>();

/** Loads every layer for a project root and merges them. */
export function loadConfig(options: {
  root?: string;
  initializationOptions?: unknown;
  env?: NodeJS.ProcessEnv;
}): LoadedConfig {
  const errors: string[] = [];
  const layers: ConfigLayer[] = [readTomlLayer(userConfigPath(options.env), errors)];
  if (options.root) layers.push(projectLayer(projectConfigPath(options.root), mergeLayers(layers.map((l) => l.values)), errors));
  if (options.initializationOptions !== undefined && options.initializationOptions !== null) {
    layers.push(validateLayer("initializationOptions", options.initializationOptions, errors));
  }
  const config = mergeLayers(layers.map((l) => l.values));
  const sources = keySources(layers);
  if (Object.keys(sources).length) config.keySources = sources;
  const env = options.env ?? process.env;
  const json = [readMcpJson(userMcpJsonPath(env), errors, env), ...(options.root ? [readMcpJson(projectMcpJsonPath(options.root), errors, env)] : [])];
  addJsonServers(config, json, options.root);
  const fromProject = projectServers(layers, json, options.root, config);
  if (Object.keys(fromProject).length) config.mcpProjectServers = fromProject;
  const replaced = replacedUserServers(fromProject, [...layers, ...json.map(jsonLayer)], options.root);
  if (Object.keys(replaced).length) config.mcpReplacedServers = replaced;
  return { config, layers: [...layers, ...json.map(jsonLayer)], errors };
}

/**
 * Of the servers a project file decides, those the user defines too (in their config file, their
 * mcp.json or their editor's settings), by name, with where: the project's takes their place
 * (and, for a TOML table, keeps the user's keys it does not set, such as `env`).
 */
function replacedUserServers(fromProject: Record<string, string>, layers: ConfigLayer[], root: string | undefined): Record<string, string> {
  const users = layers.filter((l) => root === undefined || (l.source !== projectConfigPath(root) && !isProjectFile(l.source, root)));
  const out: Record<string, string> = {};
  for (const name of Object.keys(fromProject)) {
    const mine = users.find((l) => l.values.mcp_servers?.[name] !== undefined);
    if (mine) out[name] = mine.source;
  }
  return out;
}

/**
 * Servers of the `mcpServers` JSON files, under every TOML layer: a name any TOML layer defines
 * keeps its TOML table whole (TOML wins on a clash); the project's file wins over the user's.
 */
function addJsonServers(config: Config, files: McpJsonFile[], root: string | undefined): void {
  const fromToml = new Set(Object.keys(config.mcp_servers));
  const ordered = [...files].sort((a, b) => Number(isProjectFile(b.source, root)) - Number(isProjectFile(a.source, root)));
  for (const file of ordered) {
    for (const [name, table] of Object.entries(file.servers)) {
      if (!fromToml.has(name) && !(name in config.mcp_servers)) config.mcp_servers[name] = table;
    }
  }
}

/** The MCP servers whose launch a file inside the project decided, by name, with that file. */
function projectServers(layers: ConfigLayer[], json: McpJsonFile[], root: string | undefined, config: Config): Record<string, string> {
  const out: Record<string, string> = {};
  for (const layer of layers) for (const name of layer.approvalNeeded ?? []) out[name] = layer.source;
  for (const file of json) {
    if (!isProjectFile(file.source, root)) continue;
    for (const [name, table] of Object.entries(file.servers)) if (config.mcp_servers[name] === table) out[name] ??= file.source;
  }
  return out;
}

function isProjectFile(file: string, root: string | undefined): boolean {
  return root !== undefined && file === projectMcpJsonPath(root);
}

function jsonLayer(file: McpJsonFile): ConfigLayer {
  return { source: file.source, found: file.found, values: Object.keys(file.servers).length ? { mcp_servers: file.servers } : {} };
}

/** The layer each provider's `api_key` came from: the last that sets it, as later layers win. */
function keySources(layers: ConfigLayer[]): Record<string, string> {
  const sources: Record<string, string> = {};
  for (const layer of layers) {
    for (const [name, table] of Object.entries(layer.values.providers ?? {})) {
      if (table.api_key !== undefined) sources[name] = layer.source;
    }
  }
  return sources;
}

/** Project layers already reported for what they tried to widen (reported once per server). */
const reportedWidening = new Set<string>();

/** The project's file, less anything that would make agent-lsp more permissive than `base`. */
function projectLayer(file: string, base: Config, errors: string[]): ConfigLayer {
  const layer = readTomlLayer(file, errors);
  const limited = limitProjectLayer(layer.values, base);
  const message = `${file}: ignored ${limited.ignored.join("; ")}. A project's files can only make agent-lsp stricter.`;
  if (limited.ignored.length && !reportedWidening.has(message)) {
    reportedWidening.add(message);
    errors.push(message);
  }
  return {
    ...layer,
    values: limited.values,
    ...(limited.ignored.length ? { ignored: limited.ignored } : {}),
    ...(limited.approvalNeeded.length ? { approvalNeeded: limited.approvalNeeded } : {}),
  };
}

function readTomlLayer(file: string, errors: string[]): ConfigLayer {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") {
      errors.push(`${file}: cannot be read (${(err as Error).message})`);
    }
    return { source: file, found: false, values: {} };
  }
  let raw: unknown;
  try {
    raw = parseToml(text);
  } catch (err) {
    const kept = lastGoodFiles.get(file);
    errors.push(
      `${file}:${wherePointed(err)} not valid TOML: ${firstLine((err as Error).message)}` +
        (kept ? " (keeping its last good values)" : " (ignoring the file)"),
    );
    return { source: file, found: true, values: kept ?? {} };
  }
  const layer = validateLayer(file, raw, errors);
  lastGoodFiles.set(file, layer.values);
  return layer;
}

/** `LINE:COLUMN:` of a TOML syntax error (smol-toml's TomlError carries both), so an editor can jump there. */
function wherePointed(err: unknown): string {
  const { line, column } = err as { line?: unknown; column?: unknown };
  return typeof line === "number" && typeof column === "number" ? `${line}:${column}:` : "";
}

/** Validates one layer; keys that fail are dropped and reported, the rest are kept. */
function validateLayer(source: string, raw: unknown, errors: string[]): ConfigLayer {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    errors.push(`${source}: expected a table of settings, got ${describeType(raw)}`);
    return { source, found: true, values: {} };
  }
  const notes: string[] = [];
  let candidate = readCodexMcpKeys(structuredClone(raw) as Record<string, unknown>, notes);
  for (const note of notes) errors.push(`${source}: ${note}`);
  // Built for the keys this layer sets; dropping bad keys below only ever removes some.
  const schema = configFileSchema(Object.keys(candidate));
  for (let attempt = 0; attempt < 50; attempt++) {
    // jitless: zod would otherwise generate and compile a fast parser for each of the schema's
    // tables on their first parse, which costs more than the few parses a layer ever gets.
    const parsed = schema.safeParse(candidate, { jitless: true });
    if (parsed.success) return { source, found: true, values: parsed.data };
    for (const issue of parsed.error.issues) {
      if (issue.code === "unrecognized_keys") {
        // One line a key, each with its hint, so two unknown keys never read as one path.
        for (const key of issue.keys) {
          errors.push(`${source}: ${describeUnknownKey([...issue.path, key])}`);
          candidate = dropPath(candidate, [...issue.path, key]);
        }
        continue;
      }
      errors.push(`${source}: ${describeIssue(issue, candidate)}`);
      candidate = dropPath(candidate, issue.path);
    }
  }
  return { source, found: true, values: {} };
}

/** An unknown key, with what to write instead when another agent spells it so. */
function describeUnknownKey(path: PropertyKey[]): string {
  const hint = foreignKeyHint(path);
  return `unknown key ${path.join(".")}${hint ? ` (${hint})` : ""}`;
}

function describeIssue(issue: z.core.$ZodIssue, values: Record<string, unknown>): string {
  const key = issue.path.join(".") || "(top level)";
  const actual = describeType(getPath(values, issue.path));
  if (issue.code === "invalid_type") return `key ${key}: expected ${issue.expected}, got ${actual}`;
  if (issue.code === "invalid_value") {
    return `key ${key}: expected one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}, got ${JSON.stringify(getPath(values, issue.path))}`;
  }
  return `key ${key}: ${issue.message}`;
}

function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (value === undefined) return "nothing";
  return typeof value === "object" ? "table" : `${typeof value} ${JSON.stringify(value)}`;
}

function getPath(obj: unknown, keys: readonly PropertyKey[]): unknown {
  let cur: unknown = obj;
  for (const k of keys) {
    if (typeof cur !== "object" || cur === null) return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[k];
  }
  return cur;
}

function dropPath(obj: Record<string, unknown>, keys: readonly PropertyKey[]): Record<string, unknown> {
  if (keys.length === 0) return {};
  const parent = getPath(obj, keys.slice(0, -1));
  if (typeof parent === "object" && parent !== null) {
    delete (parent as Record<PropertyKey, unknown>)[keys[keys.length - 1] as PropertyKey];
  }
  return obj;
}

/** Merges layers over the defaults; tables merge key by key, other values replace. */
export function mergeLayers(layers: ConfigFile[]): Config {
  let merged: Record<string, unknown> = structuredClone(DEFAULT_CONFIG) as unknown as Record<string, unknown>;
  for (const layer of layers) merged = deepMerge(merged, layer as Record<string, unknown>);
  return merged as unknown as Config;
}

function deepMerge(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    if (value === undefined) continue;
    const prev = out[key];
    out[key] = isTable(prev) && isTable(value) ? deepMerge(prev, value) : value;
  }
  return out;
}

function isTable(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function firstLine(s: string): string {
  return s.split("\n")[0] ?? s;
}
