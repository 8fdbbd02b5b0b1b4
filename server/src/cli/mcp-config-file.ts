/**
 * Adding and removing one `[mcp_servers.NAME]` table in a config file's text, keeping everything
 * else as it was written: comments, layout, other tables. The text is scanned for positions
 * (toml-scan.ts); values are written by the TOML library. The result is parsed again before it
 * is returned, so a file is never left unreadable.
 */
import { existsSync, lstatSync, mkdirSync, readlinkSync, renameSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parse, stringify } from "smol-toml";
import type { McpServerTable } from "../config/schema.js";
import { ensureStateFolder, stateFolder, writeStateFile } from "../util/state-folder.js";
import { scanToml } from "./toml-scan.js";

/** Names `mcp add` accepts: they are bare TOML keys and provider-safe tool-name parts. */
export const SERVER_NAME = /^[A-Za-z0-9_-]+$/;

/** Whether the file's text defines the server (as a table, dotted keys or an inline table). */
function hasServer(text: string, name: string): boolean {
  const servers = (parse(text) as { mcp_servers?: Record<string, unknown> }).mcp_servers;
  return servers !== undefined && Object.hasOwn(servers, name);
}

/** `text` with `[mcp_servers.NAME]` appended (the name must not be there yet). */
export function addServer(text: string, name: string, table: McpServerTable): string {
  if (!SERVER_NAME.test(name)) throw new Error(`"${name}" cannot be a server name: use letters, digits, _ and -.`);
  if (text.trim() && hasServer(text, name)) throw new Error(`an MCP server "${name}" is already configured there; remove it first (agent-lsp mcp remove ${name}).`);
  const { oauth, ...rest } = table;
  const body = tableBody(rest);
  const gap = !text ? "" : text.endsWith("\n\n") ? "" : text.endsWith("\n") ? "\n" : "\n\n";
  // The sign-in app as a table of its own, the way people write it (docs/mcp.md#sign-in).
  const oauthPart = oauth ? `\n[mcp_servers.${name}.oauth]\n${stringify(oauth).trimEnd()}\n` : "";
  const out = `${text}${gap}[mcp_servers.${name}]\n${body}\n${oauthPart}`;
  parse(out);
  return out;
}

/**
 * `text` without the server: its `[mcp_servers.NAME]` and `[mcp_servers.NAME.*]` tables (up to
 * the next table of another name) and any `NAME = {...}` or dotted `mcp_servers.NAME.x` lines;
 * undefined when the text does not define it.
 */
export function removeServer(text: string, name: string): string | undefined {
  if (!text.trim() || !hasServer(text, name)) return undefined;
  const cuts: [number, number][] = [];
  const statements = scanToml(text);
  let table: string[] = [];
  let tableCut: [number, number] | undefined;
  statements.forEach((s, i) => {
    if (s.kind === "header") {
      table = s.key;
      if (tableCut) cuts.push(tableCut);
      tableCut = isServer(s.key, name) ? [s.start, nextHeaderStart(statements, i, text)] : undefined;
      return;
    }
    if (!tableCut && isServer([...table, ...s.key], name)) cuts.push([s.start, lineAfter(text, s.lineEnd)]);
  });
  if (tableCut) cuts.push(tableCut);
  let out = text;
  for (const [start, end] of cuts.sort((a, b) => b[0] - a[0])) out = out.slice(0, start) + out.slice(end);
  out = out.replace(/\n{3,}/g, "\n\n");
  if (hasServer(out, name)) throw new Error(`could not find every part of "${name}" in the file; edit it by hand`);
  return out;
}

/** `key = value` lines; tables of strings (env, headers) inline, as people write them. */
function tableBody(table: McpServerTable): string {
  return Object.entries(table)
    .map(([key, value]) => {
      if (typeof value !== "object" || Array.isArray(value)) return stringify({ [key]: value }).trimEnd();
      const items = Object.entries(value as Record<string, string>).map(([k, v]) => `${tomlKey(k)} = ${JSON.stringify(v)}`);
      return `${key} = { ${items.join(", ")} }`;
    })
    .join("\n");
}

function tomlKey(key: string): string {
  return SERVER_NAME.test(key) ? key : JSON.stringify(key);
}

/** Whether a full key path is the server or inside it. */
function isServer(key: readonly string[], name: string): boolean {
  return key.length >= 2 && key[0] === "mcp_servers" && key[1] === name;
}

function nextHeaderStart(statements: ReturnType<typeof scanToml>, i: number, text: string): number {
  const next = statements.slice(i + 1).find((s) => s.kind === "header");
  return next ? next.start : text.length;
}

function lineAfter(text: string, lineEnd: number): number {
  const nl = text.indexOf("\n", lineEnd);
  return nl < 0 ? text.length : nl + 1;
}

/**
 * Writes through a temp file and a rename, so an interrupted write never leaves half a config; keeps
 * the file's mode. A project's file (`project` set: checked by {@link projectFile} before it was
 * read) gets its temp file made new and never through a link: a repository can plant one there.
 */
export function writeConfigFile(file: string, text: string, project = false): void {
  const mode = existsSync(file) ? statSync(file).mode & 0o777 : 0o600;
  if (project) return writeStateFile(file, text, mode);
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text, { mode });
  renameSync(tmp, file);
}

/**
 * A project's config file (`.agent-lsp/config.toml`, `.mcp.json`) that `mcp add/remove/add-json
 * --project` may read and rewrite; throws when it is a link. A cloned repository decides what is
 * there: `.agent-lsp` linked to `~/.cargo` had the rewrite land outside the project, and
 * `.mcp.json` linked to your own `~/.config/agent-lsp/mcp.json` had your headers and keys copied
 * into the project's file, the one a team commits. (Loading follows such a link: that only reads
 * settings a project may set anyway.)
 */
export function projectFile(root: string, file: string): string {
  if (path.dirname(file) === stateFolder(root)) ensureStateFolder(root); // refuses a linked .agent-lsp
  const st = lstatSync(file, { throwIfNoEntry: false });
  if (st?.isSymbolicLink()) {
    throw new Error(`${file} is a symbolic link (to ${readlinkSync(file)}); agent-lsp edits only the project's own file, never one a link leads to. Edit the file it leads to, or replace the link with a file.`);
  }
  return file;
}
