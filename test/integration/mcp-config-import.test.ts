/**
 * MCP servers configured as other agents write them, against real servers: a Codex
 * `[mcp_servers.NAME]` table (bearer_token_env_var, env_vars, *_sec time-outs, http_headers) and a
 * Gemini CLI `mcpServers` entry (httpUrl, includeTools, timeout in ms, trust) pasted into
 * agent-lsp's files work as the other agent would run them.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadConfig, userConfigPath } from "../../server/src/config/load.js";
import { projectMcpJsonPath } from "../../server/src/config/mcp-json.js";
import type { McpManager } from "../../server/src/mcp/manager.js";
import { callMcpTool } from "../../server/src/mcp/operations.js";
import { tempProject } from "../helpers/agent-setup.js";
import { EVERYTHING, startEverythingHttp, testManager, type HttpServer } from "../helpers/mcp/servers.js";
import { startAuthServer, type AuthServer } from "../helpers/oauth/authorization-server.js";
import { startResourceServer, type ResourceServer } from "../helpers/oauth/resource-server.js";

const need = { sessionId: "s-test" };
const readCall = (server: string, uri: string) => `read(${server}, ${uri})`;
let managers: McpManager[] = [];
let as: AuthServer;
let rs: ResourceServer;
let everything: HttpServer;

beforeAll(async () => {
  as = await startAuthServer();
  rs = await startResourceServer(as);
  everything = await startEverythingHttp();
  process.env.IMPORT_TEST_TOKEN = "codex-token-value";
  process.env.IMPORT_TEST_PASSED = "passed-on-value";
}, 30_000);
afterAll(async () => {
  await rs.close();
  await as.close();
  everything.close();
  delete process.env.IMPORT_TEST_TOKEN;
  delete process.env.IMPORT_TEST_PASSED;
});
afterEach(async () => {
  await Promise.all(managers.map((m) => m.dispose()));
  managers = [];
});

/** The config of a user file holding `toml` and a project `.mcp.json` holding `json`. */
function load(files: { toml?: string; json?: unknown }) {
  const home = tempProject("agent-lsp-home-");
  const root = tempProject("agent-lsp-proj-");
  const env = { ...process.env, XDG_CONFIG_HOME: path.join(home, ".config") };
  if (files.toml !== undefined) {
    mkdirSync(path.dirname(userConfigPath(env)), { recursive: true });
    writeFileSync(userConfigPath(env), files.toml);
  }
  if (files.json !== undefined) writeFileSync(projectMcpJsonPath(root), JSON.stringify(files.json));
  const loaded = loadConfig({ root, env });
  loaded.config.mcp.discover_timeout_s = 10;
  return loaded;
}

function manager(config: ReturnType<typeof load>["config"]) {
  const m = testManager(config);
  managers.push(m);
  return m;
}

const textOf = (r: { content: { type: string; text?: string }[] }) => r.content.map((b) => b.text ?? "").join("\n");

describe("a Codex [mcp_servers] table", () => {
  it("sends bearer_token_env_var's token as Authorization: Bearer, and never starts a sign-in", async () => {
    const { config, errors } = load({
      toml: ["[mcp_servers.remote]", `url = "${rs.url}"`, 'bearer_token_env_var = "IMPORT_TEST_TOKEN"', 'http_headers = { "X-Region" = "eu" }', "startup_timeout_sec = 20", "tool_timeout_sec = 45"].join("\n"),
    });
    expect(errors).toEqual([]);
    const m = manager(config);
    await m.ensureStarted(need);
    expect(m.connection("remote")!.spec).toMatchObject({ startupTimeoutMs: 20_000, toolTimeoutMs: 45_000, headers: { "X-Region": "eu" }, oauthEnabled: false });
    expect(rs.seen).toContain("codex-token-value");
    // The test server does not know the token: a failure, not a browser opening.
    expect(m.status("remote")!.state).toBe("failed");
    expect(m.connection("remote")!.signInNeeded).toBeUndefined();
  }, 30_000);

  it("passes env_vars on from agent-lsp's environment to a local server, and reads startup_timeout_ms", async () => {
    const { config, errors } = load({
      toml: ["[mcp_servers.local]", 'command = "node"', `args = [${JSON.stringify(EVERYTHING)}, "stdio"]`, 'env_vars = ["IMPORT_TEST_PASSED"]', "startup_timeout_ms = 25000"].join("\n"),
    });
    expect(errors).toEqual([]);
    const m = manager(config);
    await m.ensureStarted(need);
    expect(m.connection("local")!.spec.startupTimeoutMs).toBe(25_000);
    const entry = m.tools().find((t) => t.name === "mcp__local__get-env")!;
    const env = JSON.parse(textOf(await callMcpTool(m, entry, {}, new AbortController().signal, readCall)).replace(/^[^{]*/, "").replace(/[^}]*$/, "")) as Record<string, string>;
    expect(env.IMPORT_TEST_PASSED).toBe("passed-on-value");
    expect(env.IMPORT_TEST_TOKEN).toBeUndefined();
  }, 30_000);

  it("names what to write instead of a key agent-lsp does not honour", () => {
    const { config, errors } = load({ toml: ['[mcp_servers.remote]', 'url = "https://example.test/mcp"', 'bearer_token = "inline"', "required = true"].join("\n") });
    expect(errors.join("\n")).toContain("unknown key mcp_servers.remote.bearer_token (a token written into the config is not read; put it in an environment variable and name the variable in bearer_token_env_var)");
    expect(errors.join("\n")).toContain("unknown key mcp_servers.remote.required (");
    expect(config.mcp_servers.remote).toEqual({ url: "https://example.test/mcp" });
  });
});

describe("a Gemini CLI mcpServers entry", () => {
  it("reaches httpUrl, keeps only includeTools, takes timeout in ms, and says trust is not honoured", async () => {
    const { config, errors } = load({ json: { mcpServers: { gem: { httpUrl: everything.url, includeTools: ["echo", "get-sum"], timeout: 30000, trust: true } } } });
    expect(errors.join("\n")).toContain('mcpServers.gem: ignored "trust": agent-lsp asks by policy class');
    const m = manager(config);
    await m.ensureStarted(need);
    expect(m.connection("gem")!.spec.toolTimeoutMs).toBe(30_000);
    expect(m.tools().map((t) => t.name).sort()).toEqual(["mcp__gem__echo", "mcp__gem__get-sum"]);
    const entry = m.tools().find((t) => t.name === "mcp__gem__echo")!;
    expect(textOf(await callMcpTool(m, entry, { message: "from gemini" }, new AbortController().signal, readCall))).toContain("from gemini");
  }, 30_000);
});
