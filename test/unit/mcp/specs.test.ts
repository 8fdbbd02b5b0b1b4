/** Configured servers checked and described, with the command line a user approves. */
import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG, type Config } from "../../../server/src/config/schema.js";
import { serverSpecs } from "../../../server/src/mcp/specs.js";

function config(servers: Config["mcp_servers"], extra: Partial<Config> = {}): Config {
  return { ...structuredClone(DEFAULT_CONFIG), mcp_servers: servers, ...extra };
}

describe("serverSpecs", () => {
  it("describes a local server with its env, quoted arguments and folder", () => {
    const { specs, errors } = serverSpecs(config({ db: { command: "npx", args: ["-y", "db server"], env: { B: "2", A: "it's" }, cwd: "tools" } }), "/p");
    expect(errors).toEqual([]);
    expect(specs[0]).toMatchObject({ name: "db", transport: "stdio", cwd: "/p/tools", defer: true, startupTimeoutMs: 30_000, toolTimeoutMs: 120_000 });
    expect(specs[0]!.launchLine).toBe("env A='it'\\''s' B=2 npx -y 'db server' (in /p/tools)");
  });

  it("describes a remote server with its headers, and takes defer and timeouts from the config", () => {
    const { specs } = serverSpecs(config({ gh: { url: "https://h/mcp", headers: { X: "1" }, env_headers: { Authorization: "TOKEN" }, defer: false, tool_timeout_s: 2 } }), "/p");
    expect(specs[0]).toMatchObject({ transport: "http", defer: false, toolTimeoutMs: 2000 });
    expect(specs[0]!.launchLine).toBe("https://h/mcp (headers Authorization: $TOKEN; X: 1)");
  });

  it("defers nothing when mcp_defer_tools is off, and marks project servers", () => {
    const { specs } = serverSpecs(config({ a: { command: "a" } }, { mcp_defer_tools: false, mcpProjectServers: { a: "/p/.mcp.json" } }), "/p");
    expect(specs[0]).toMatchObject({ defer: false, projectSource: "/p/.mcp.json" });
  });

  it("the approved line names the variables a server gets from the environment and the bearer token's", () => {
    const { specs } = serverSpecs(config({ gh: { url: "https://h/mcp", bearer_token_env_var: "GH_TOKEN" }, db: { command: "db", env: { A: "1" }, env_vars: ["PGPASS", "A"] } }), "/p");
    expect(specs.map((s) => s.launchLine)).toEqual(["env A=1 PGPASS=$PGPASS db", "https://h/mcp (headers Authorization: Bearer $GH_TOKEN)"]);
    expect(specs[1]).toMatchObject({ bearerTokenEnv: "GH_TOKEN", oauthEnabled: false });
  });

  it.each([
    [{}, 'needs exactly one of "command" (a local server) or "url" (a remote one)'],
    [{ command: "a", url: "https://h" }, 'needs exactly one of "command" (a local server) or "url" (a remote one)'],
    [{ url: "https://h", args: ["x"] }, '"args", "env", "env_vars" and "cwd" belong to a local server (command), not to one with a "url"'],
    [{ url: "https://h", env_vars: ["X"] }, '"args", "env", "env_vars" and "cwd" belong to a local server (command), not to one with a "url"'],
    [{ command: "a", headers: { A: "b" } }, '"headers", "env_headers" and "bearer_token_env_var" belong to a remote server (url), not to one with a "command"'],
    [{ command: "a", bearer_token_env_var: "T" }, '"headers", "env_headers" and "bearer_token_env_var" belong to a remote server (url), not to one with a "command"'],
    [{ url: "ftp://h" }, '"url" must be an http(s) address, got ftp://h'],
  ])("refuses %j with a reason naming the server", (table, message) => {
    expect(serverSpecs(config({ bad: table }), "/p").errors).toEqual([{ name: "bad", message }]);
  });
});
