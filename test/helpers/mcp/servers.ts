/**
 * Real MCP servers for tests: @modelcontextprotocol/server-everything (a devDependency) over stdio
 * and Streamable HTTP, the 2026-07-28 server of modern-server.mjs, and the misbehaving ones of
 * hostile-server.mjs; plus an McpManager over a given set of servers.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { DEFAULT_CONFIG, type Config, type McpServerTable } from "../../../server/src/config/schema.js";
import { McpManager, type McpManagerDeps } from "../../../server/src/mcp/manager.js";
import type { Logger } from "../../../server/src/util/log.js";
import { waitFor } from "../wait.js";

const here = path.dirname(fileURLToPath(import.meta.url));

/** The entry of server-everything. */
export const EVERYTHING = createRequire(import.meta.url).resolve("@modelcontextprotocol/server-everything/dist/index.js");
/** The 2026-07-28 server built on the official server package. */
export const MODERN = path.join(here, "modern-server.mjs");
/** The misbehaving servers. */
export const HOSTILE = path.join(here, "hostile-server.mjs");

/** A `[mcp_servers.NAME]` table running `node SCRIPT ARGS`. */
export function nodeServer(script: string, ...args: string[]): McpServerTable {
  return { command: process.execPath, args: [script, ...args] };
}

/** A hostile server of `mode`, writing its notes to `log`. */
export function hostile(mode: string, log?: string): McpServerTable {
  return { ...nodeServer(HOSTILE, mode), ...(log ? { env: { MCP_TEST_LOG: log } } : {}) };
}

/**
 * How long a test lets a server leave server/discover unanswered: long enough that a loaded
 * machine never mistakes a slow 2026-07-28 server for a silent one (which then fails, as the
 * modern-only test server refuses initialize), short where a test waits on purpose (SILENT).
 */
export const DISCOVER_TIMEOUT_S = 10;
/** For servers that never answer server/discover: the fallback comes quickly. */
export const SILENT = { mcp: { ...DEFAULT_CONFIG.mcp, discovery: "mcp_tools" as const, discover_timeout_s: 0.5 } };

/** A config with these servers. */
export function mcpConfig(servers: Record<string, McpServerTable>, extra: Partial<Config> = {}): Config {
  return { ...structuredClone(DEFAULT_CONFIG), mcp_servers: servers, mcp: { ...DEFAULT_CONFIG.mcp, discovery: "mcp_tools", discover_timeout_s: DISCOVER_TIMEOUT_S }, ...extra };
}

/** A logger that keeps its lines. */
export function memoryLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    error: (m) => lines.push(`error ${m}`),
    warn: (m) => lines.push(`warn ${m}`),
    info: (m) => lines.push(`info ${m}`),
    debug: () => undefined,
  };
}

/** A manager over `config` in a temp root; approval always given unless `approve` says otherwise. */
export function testManager(config: Config, options: Partial<McpManagerDeps> = {}): McpManager & { logger: ReturnType<typeof memoryLogger> } {
  const logger = memoryLogger();
  const manager = new McpManager({
    config: () => config,
    root: os.tmpdir(),
    logger,
    approve: async () => undefined,
    restart: { initialDelayMs: 50, maxDelayMs: 200, maxAttempts: 3 },
    ...options,
  });
  return Object.assign(manager, { logger });
}

/** A server process listening on HTTP, and its URL. */
export interface HttpServer {
  url: string;
  process: ChildProcess;
  close(): void;
}

/** server-everything over Streamable HTTP on a free port. */
export async function startEverythingHttp(): Promise<HttpServer> {
  const port = 20000 + Math.floor(Math.random() * 20000);
  const child = spawn(process.execPath, [EVERYTHING, "streamableHttp"], { env: { ...process.env, PORT: String(port) }, stdio: ["ignore", "ignore", "pipe"] });
  let err = "";
  child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
  await waitFor(() => err.includes("listening on port") || child.exitCode !== null, 15_000);
  if (child.exitCode !== null) throw new Error(`server-everything did not start: ${err}`);
  return { url: `http://127.0.0.1:${port}/mcp`, process: child, close: () => child.kill() };
}

/** The 2026-07-28 test server over Streamable HTTP. */
export async function startModernHttp(): Promise<HttpServer> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "mcp-port-"));
  const portFile = path.join(dir, "port");
  const child = spawn(process.execPath, [MODERN, "http", portFile], { stdio: ["ignore", "ignore", "inherit"] });
  let port = "";
  await waitFor(() => {
    try {
      port = readFileSync(portFile, "utf8");
    } catch {
      /* not yet */
    }
    return port !== "" || child.exitCode !== null;
  }, 15_000);
  rmSync(dir, { recursive: true, force: true });
  if (!port) throw new Error("the modern test server did not start");
  return { url: `http://127.0.0.1:${port}/mcp`, process: child, close: () => child.kill() };
}
