/**
 * The built binary's MCP commands: `mcp add` (user or --project config, comments kept),
 * `mcp list` (transport, protocol, status or error, counts), `mcp remove`, `tool mcp__...` and
 * `tool mcp_tools` through the gate, and doctor listing the servers.
 */
import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempProject } from "../helpers/agent-setup.js";
import { HOSTILE, MODERN } from "../helpers/mcp/servers.js";
import { BINARY } from "../helpers/spawn-server.js";

const exec = promisify(execFile);
let root: string;
let home: string;
beforeEach(() => {
  root = tempProject();
  home = tempProject("agent-lsp-home-");
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

const userConfig = () => path.join(home, ".config", "agent-lsp", "config.toml");

async function cli(args: string[]) {
  try {
    const { stdout, stderr } = await exec(process.execPath, [BINARY, ...args], {
      cwd: root,
      env: { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, ".config"), XDG_STATE_HOME: path.join(home, "state") },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe("agent-lsp mcp", () => {
  it("add takes Claude Code's options: --transport http NAME URL, -H, -e; sse and a bad option are refused naming the option", async () => {
    const remote = await cli(["mcp", "add", "--transport", "http", "docs", "https://mcp.example.test/mcp", "-H", "Authorization: Bearer t0k"]);
    expect(remote.code).toBe(0);
    const local = await cli(["mcp", "add", "db", "-e", "DB_URL=postgres://x", "--transport", "stdio", "--", "db-server", "--readonly"]);
    expect(local.code).toBe(0);
    const text = readFileSync(userConfig(), "utf8");
    expect(text).toContain('[mcp_servers.docs]\nurl = "https://mcp.example.test/mcp"');
    expect(text).toContain('headers = { Authorization = "Bearer t0k" }');
    expect(text).toContain('env = { DB_URL = "postgres://x" }');
    const sse = await cli(["mcp", "add", "--transport", "sse", "old", "https://x.test/sse"]);
    expect(sse.code).toBe(2);
    expect(sse.stderr).toContain("--transport sse (the old HTTP+SSE transport) is not supported");
    const badEnv = await cli(["mcp", "add", "x", "-e", "NOVALUE", "--", "x"]);
    expect(badEnv.code).toBe(2);
    expect(badEnv.stderr).toContain('--env takes NAME=VALUE, got "NOVALUE"');
  });

  it("add-json keeps a pasted entry (with its ${VAR}) in the mcpServers file; get shows what was merged, values of headers hidden", async () => {
    const entry = { httpUrl: "https://mcp.example.test/mcp", headers: { Authorization: "Bearer ${EXAMPLE_TOKEN:-none}" }, includeTools: ["search"], trust: true };
    const added = await cli(["mcp", "add-json", "docs", JSON.stringify(entry)]);
    expect(added.code).toBe(0);
    const file = path.join(home, ".config", "agent-lsp", "mcp.json");
    expect(added.stdout).toContain(`Added the MCP server "docs" in ${file}.`);
    expect(added.stderr).toContain('docs: ignored "trust"');
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ mcpServers: { docs: entry } });
    const got = await cli(["mcp", "get", "docs"]);
    expect(got.code).toBe(0);
    expect(got.stdout).toContain('  url = "https://mcp.example.test/mcp"');
    expect(got.stdout).toContain('  enabled_tools = ["search"]');
    expect(got.stdout).toContain('  headers = {"Authorization":"(set, 11 characters)"}');
    expect(got.stdout).toContain(`  defined in: ${file}`);
    expect((await cli(["mcp", "get", "nope"])).code).toBe(1);
    const sse = await cli(["mcp", "add-json", "old", JSON.stringify({ type: "sse", url: "https://x.test/sse" })]);
    expect(sse.code).toBe(1);
    expect(sse.stderr).toContain('"old" cannot be used: type "sse"');
    expect((await cli(["mcp", "add-json", "bad", "{nope"])).code).toBe(2);
  });

  it("add writes the user config keeping what was there; list starts each server and says how it is; remove takes it out", async () => {
    mkdirSync(path.dirname(userConfig()), { recursive: true });
    writeFileSync(userConfig(), '# mine\nmodel = "anthropic/claude-sonnet-4-6" # keep\n');
    expect((await cli(["mcp", "add", "notes", "--", process.execPath, MODERN])).code).toBe(0);
    expect((await cli(["mcp", "add", "old", "--env", "A=1", "--", process.execPath, HOSTILE, "echo-only"])).code).toBe(0);
    expect((await cli(["mcp", "add", "gone", "--", "/nonexistent/server"])).code).toBe(0);
    const text = readFileSync(userConfig(), "utf8");
    expect(text.startsWith('# mine\nmodel = "anthropic/claude-sonnet-4-6" # keep\n')).toBe(true);
    expect(text).toContain('[mcp_servers.old]\ncommand = ');
    expect(text).toContain('env = { A = "1" }');

    const list = await cli(["mcp", "list"]);
    expect(list.code).toBe(0);
    // Each line comes as its server answers: sorted here, since the order is theirs.
    const lines = list.stdout.trim().split("\n").sort();
    expect(lines[0]).toMatch(/^gone +stdio +- +failed: the command was not found: \/nonexistent\/server$/);
    expect(lines[1]).toMatch(/^notes +stdio +2026-07-28 +ready: 6 tools, 2 resources, 1 prompt \(2026-07-28, \d+ ms\)$/);
    expect(lines[2]).toMatch(/^old +stdio +2025-11-25 +ready: 1 tool, 0 resources, 0 prompts/);
    const json = JSON.parse((await cli(["mcp", "list", "--json"])).stdout) as { name: string; state: string; protocolVersion?: string }[];
    expect(json.map((s) => [s.name, s.state, s.protocolVersion])).toEqual([["gone", "failed", undefined], ["notes", "ready", "2026-07-28"], ["old", "ready", "2025-11-25"]]);

    const doctor = await cli(["doctor"]);
    expect(doctor.stdout).toMatch(/MCP servers:\n {2}gone .*failed[^\n]*\n {2}notes .*ready[^\n]*\n {2}old .*ready/);
    expect(doctor.stdout).toContain("mcp__notes__add");

    expect((await cli(["mcp", "remove", "gone"])).code).toBe(0);
    expect(readFileSync(userConfig(), "utf8")).not.toContain("gone");
    const again = await cli(["mcp", "remove", "gone"]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('no MCP server "gone"');
    expect((await cli(["mcp", "add", "notes", "--url", "https://x.example/mcp"])).stderr).toContain('an MCP server "notes" is already configured there');
  }, 60_000);

  it("add --project writes the project's config; its server asks before it starts (no terminal: not started)", async () => {
    expect((await cli(["mcp", "add", "proj", "--project", "--", process.execPath, MODERN])).stdout).toContain("starts once you approve its command line");
    expect(readFileSync(path.join(root, ".agent-lsp", "config.toml"), "utf8")).toContain("[mcp_servers.proj]");
    const list = await cli(["mcp", "list"]);
    // No terminal: no prompt was shown, and the line says so instead of "the prompt got no answer".
    expect(list.stdout).toMatch(/^proj +stdio +- +not approved: it is defined in .*config\.toml and needs your approval, which cannot be asked here \(no terminal or editor to ask in\)/);
    expect(list.stdout).not.toContain("got no answer");
  }, 60_000);

  it("tool runs an MCP tool and mcp_tools through the gate", async () => {
    await cli(["mcp", "add", "notes", "--", process.execPath, MODERN]);
    const add = await cli(["tool", "mcp__notes__add", "--input", '{"a":20,"b":22}', "--mode", "full_access"]);
    expect(add.code).toBe(0);
    expect(JSON.parse(add.stdout).content[0].text).toContain("42");
    const refused = await cli(["tool", "mcp__notes__add", "--input", '{"a":1,"b":1}', "--mode", "read_only"]);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout).content[0].text).toContain("the session is read-only");
    const query = await cli(["tool", "mcp_tools", "--input", '{"query":"weather"}']);
    expect(JSON.parse(query.stdout).content[0].text).toContain("tool notes.weather");
  }, 60_000);
});
