/**
 * The built binary's MCP commands when servers misbehave or need someone: two project servers are
 * asked about one at a time on a terminal (a pseudo-terminal through script(1)), each answer
 * settling its own server; an MCP tool's approval shows its arguments; `tool` for a ready server returns at once while another needs a
 * sign-in and a third never answers; `mcp list` prints each server as it answers and a silent one
 * after its own time-out; servers' stderr goes to the log file, on the terminal only with
 * --verbose; a keyring that cannot be reached is said briefly per line and once in doctor;
 * `mcp add --scope/-s` as Claude Code writes it.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { tempProject } from "../helpers/agent-setup.js";
import { startFakeProvider } from "../helpers/fake-provider/index.js";
import { EVERYTHING, HOSTILE, MODERN } from "../helpers/mcp/servers.js";
import { startAuthServer, type AuthServer } from "../helpers/oauth/authorization-server.js";
import { startResourceServer, type ResourceServer } from "../helpers/oauth/resource-server.js";
import { BINARY } from "../helpers/spawn-server.js";
import { waitFor } from "../helpers/wait.js";

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

const env = () => ({ ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, ".config"), XDG_STATE_HOME: path.join(home, "state"), BROWSER: "true" });
const userConfig = () => path.join(home, ".config", "agent-lsp", "config.toml");
const toml = (value: string) => JSON.stringify(value);

function writeUserConfig(text: string): void {
  mkdirSync(path.dirname(userConfig()), { recursive: true });
  writeFileSync(userConfig(), text);
}

/** A running command: its output so far, its stdin, and its end. */
interface Run {
  stdout: () => string;
  stderr: () => string;
  stdin: NodeJS.WritableStream;
  exited: Promise<{ code: number; ms: number }>;
  done: () => boolean;
}

/** Runs the binary; `tty` runs it in a pseudo-terminal (stdout and stderr both arrive as stdout). */
function start(args: string[], options: { tty?: boolean; env?: NodeJS.ProcessEnv } = {}): Run {
  const began = Date.now();
  const command = [process.execPath, BINARY, ...args].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(" ");
  const child = options.tty
    ? spawn("script", ["-qfec", command, "/dev/null"], { cwd: root, env: { ...env(), ...options.env } })
    : spawn(process.execPath, [BINARY, ...args], { cwd: root, env: { ...env(), ...options.env } });
  let stdout = "";
  let stderr = "";
  let ended = false;
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<{ code: number; ms: number }>((resolve) =>
    child.on("close", (code) => {
      ended = true;
      resolve({ code: code ?? -1, ms: Date.now() - began });
    }),
  );
  return { stdout: () => stdout, stderr: () => stderr, stdin: child.stdin, exited, done: () => ended };
}

async function cli(args: string[], extraEnv: NodeJS.ProcessEnv = {}): Promise<{ code: number; ms: number; stdout: string; stderr: string }> {
  const run = start(args, { env: extraEnv });
  const { code, ms } = await run.exited;
  return { code, ms, stdout: run.stdout(), stderr: run.stderr() };
}

const count = (text: string, part: string) => text.split(part).length - 1;

describe("project servers on a terminal", () => {
  it("two .mcp.json servers: one question at a time, each answer settles its own server", async () => {
    const server = (mode: string) => ({ command: process.execPath, args: [HOSTILE, mode] });
    writeFileSync(path.join(root, ".mcp.json"), JSON.stringify({ mcpServers: { alpha: server("echo-only"), beta: server("echo-only-too") } }));
    const run = start(["mcp", "list"], { tty: true });
    await waitFor(() => count(run.stdout(), "[1] Start it") === 1, 30_000);
    // Only one question is on the screen, and it waits: the second comes after its answer.
    const first = /defines the MCP server "(alpha|beta)"/.exec(run.stdout())![1]!;
    expect(run.stdout()).not.toContain(`defines the MCP server "${first === "alpha" ? "beta" : "alpha"}"`);
    run.stdin.write("1\r");
    await waitFor(() => count(run.stdout(), "[1] Start it") === 2, 30_000);
    const second = first === "alpha" ? "beta" : "alpha";
    expect(run.stdout()).toContain(`defines the MCP server "${second}"`);
    run.stdin.write("2\r");
    expect((await run.exited).code).toBe(0);
    const out = run.stdout();
    expect(out).toMatch(new RegExp(`^${first} +stdio +2025-11-25 +ready: 1 tool`, "m"));
    expect(out).toMatch(new RegExp(`^${second} +stdio +- +not approved: it is defined in .* and you chose not to start it`, "m"));
    const approvals = readFileSync(path.join(root, ".agent-lsp", "approvals.toml"), "utf8");
    expect(approvals).toContain(`name = "${first}"`);
    expect(approvals).not.toContain(`name = "${second}"`);
  }, 90_000);
});

describe("an MCP tool's approval on a terminal", () => {
  it("shows the call's arguments before the choices, and the answer runs it", async () => {
    writeUserConfig(`[mcp_servers.everything]\ncommand = ${toml(process.execPath)}\nargs = [${toml(EVERYTHING)}, "stdio"]\n`);
    const run = start(["tool", "mcp__everything__get-sum", "--input", '{"a":20,"b":22}', "--mode", "ask"], { tty: true });
    await waitFor(() => run.stdout().includes("[3] No") || run.done(), 60_000);
    expect(run.stdout().replace(/\r/g, "")).toMatch(/mcp__everything__get-sum: everything: Get Sum Tool[^\n]*\nArguments:\n {2}\{\n {4}"a": 20,\n {4}"b": 22\n {2}\}\n\[1\] Yes/);
    run.stdin.write("1\r");
    expect((await run.exited).code).toBe(0);
    expect(run.stdout()).toContain("The sum of 20 and 22 is 42");
  }, 90_000);
});

describe("one server does not hold back another", () => {
  let as: AuthServer;
  let rs: ResourceServer;
  beforeAll(async () => {
    as = await startAuthServer({ clients: [{ client_id: "cli-app" }] });
    rs = await startResourceServer(as);
  });
  afterAll(async () => {
    await rs.close();
    await as.close();
  });

  it("tool for a ready server returns at once while another needs a sign-in and a third never answers; the one needing a sign-in says to log in", async () => {
    writeUserConfig(
      [
        `[mcp]\ntoken_store = "file"\n`,
        `[mcp_servers.notes]\ncommand = ${toml(process.execPath)}\nargs = [${toml(MODERN)}]\n`,
        `[mcp_servers.remote]\nurl = ${toml(rs.url)}\n`,
        `[mcp_servers.silent]\ncommand = "sleep"\nargs = ["300"]\nstartup_timeout_s = 60\n`,
      ].join("\n"),
    );
    const add = await cli(["tool", "mcp__notes__add", "--input", '{"a":20,"b":22}', "--mode", "full_access"]);
    expect(add.code).toBe(0);
    expect(JSON.parse(add.stdout).content[0].text).toContain("42");
    // Neither the silent server's 60 s nor a sign-in was waited for; the remote one was not even asked.
    expect(add.ms).toBeLessThan(30_000);
    expect(rs.seen).toHaveLength(0);
    expect(add.stderr).not.toContain("sign-in");

    // A tool of agent-lsp's own starts no server at all.
    writeFileSync(path.join(root, "a.txt"), "plain file\n");
    const read = await cli(["tool", "read_file", "--input", '{"path":"a.txt"}']);
    expect(read.code).toBe(0);
    expect(read.stdout).toContain("plain file");
    // (Starting every server, as before, waited for the silent one's 60 s.)
    expect(read.ms).toBeLessThan(30_000);

    const remote = await cli(["tool", "mcp__remote__whoami", "--mode", "full_access"]);
    expect(remote.code).toBe(1);
    expect(JSON.parse(remote.stdout).content[0].text).toContain("it needs a sign-in: run `agent-lsp mcp login remote`");
    expect(remote.ms).toBeLessThan(30_000);
    expect(as.secrets()).toHaveLength(0);
  }, 120_000);

  it("run: the model's call of a ready server's tool is answered; the server needing a sign-in is reported, no sign-in started", async () => {
    writeUserConfig(
      [
        `mcp_defer_tools = false\n`,
        `[mcp]\ntoken_store = "file"\n`,
        `[mcp_servers.notes]\ncommand = ${toml(process.execPath)}\nargs = [${toml(MODERN)}]\n`,
        `[mcp_servers.remote]\nurl = ${toml(rs.url)}\n`,
      ].join("\n"),
    );
    const fake = await startFakeProvider();
    try {
      fake.enqueue({ toolCalls: [{ name: "mcp__notes__add", input: { a: 20, b: 22 } }] }, { text: "It is 42." });
      const run = await cli(["run", "add 20 and 22", "--mode", "full_access"], { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: "sk-ant-cli-test-0000" });
      expect(run.code).toBe(0);
      expect(run.stdout).toContain("It is 42.");
      expect(JSON.stringify(fake.requests[1]!.body.messages.at(-1))).toContain("42");
      expect(run.stderr).toContain('MCP server "remote" failed: it needs a sign-in: run `agent-lsp mcp login remote`');
      expect(run.ms).toBeLessThan(30_000);
      expect(as.secrets()).toHaveLength(0);
    } finally {
      await fake.close();
    }
  }, 120_000);
});

describe("mcp list", () => {
  it("prints each server as it answers; a server that never answers is reported after its own time-out", async () => {
    writeUserConfig(
      [`[mcp_servers.notes]\ncommand = ${toml(process.execPath)}\nargs = [${toml(MODERN)}]\n`, `[mcp_servers.silent]\ncommand = "sleep"\nargs = ["300"]\nstartup_timeout_s = 8\n`].join("\n"),
    );
    const run = start(["mcp", "list"]);
    await waitFor(() => /^notes +stdio +2026-07-28 +ready/m.test(run.stdout()) || run.done(), 60_000);
    // The ready server's line is out while the silent one is still being waited for.
    expect(run.done()).toBe(false);
    expect(run.stdout()).not.toContain("silent");
    const { code, ms } = await run.exited;
    expect(code).toBe(0);
    expect(run.stdout()).toMatch(/^silent +stdio +- +failed: did not answer within 8 s/m);
    expect(ms).toBeLessThan(30_000);
  }, 90_000);

  it("on a terminal says which servers it is still waiting for", async () => {
    writeUserConfig(`[mcp_servers.silent]\ncommand = "sleep"\nargs = ["300"]\nstartup_timeout_s = 8\n`);
    const run = start(["mcp", "list"], { tty: true });
    expect((await run.exited).code).toBe(0);
    const out = run.stdout();
    const waiting = out.search(/… waiting for silent \(\d+ s; each has its startup_timeout_s\)/);
    expect(waiting).toBeGreaterThanOrEqual(0);
    expect(out.indexOf("failed: did not answer within 8 s")).toBeGreaterThan(waiting);
  }, 90_000);
});

describe("a keyring that cannot be reached", () => {
  it("is said briefly on each remote server's line of mcp list, and once with why and how to fix it by doctor", async () => {
    writeUserConfig(`[mcp_servers.r1]\nurl = "http://127.0.0.1:9/mcp"\n\n[mcp_servers.r2]\nurl = "http://127.0.0.1:9/other"\n`);
    const noBus = { DBUS_SESSION_BUS_ADDRESS: "unix:path=/nonexistent/agent-lsp-test-bus" };
    const list = await cli(["mcp", "list"], noBus);
    const lines = list.stdout.trim().split("\n");
    expect(lines).toHaveLength(2);
    for (const line of lines) {
      expect(line).toContain("the OS keyring cannot be reached (agent-lsp doctor says why and how to fix it)");
      expect(line).not.toContain("gnome-keyring");
    }
    const doctor = await cli(["doctor"], noBus);
    expect(count(doctor.stdout, "gnome-keyring")).toBe(1);
    expect(doctor.stdout).toMatch(/WARNING sign-in tokens: no OS keyring service could be reached .*token_store = "file"/);
  }, 90_000);
});

describe("servers' stderr", () => {
  it("goes to the project's log file; on the terminal only with --verbose", async () => {
    writeUserConfig(`[mcp_servers.old]\ncommand = ${toml(process.execPath)}\nargs = [${toml(HOSTILE)}, "echo-only"]\n`);
    const quiet = await cli(["tool", "mcp__old__echo", "--input", '{"text":"hi"}', "--mode", "full_access"]);
    expect(quiet.code).toBe(0);
    expect(JSON.parse(quiet.stdout).content[0].text).toContain("echo: hi");
    expect(quiet.stderr).not.toContain("hostile server");
    const log = path.join(root, ".agent-lsp", "logs", "agent-lsp.log");
    expect(existsSync(log)).toBe(true);
    expect(readFileSync(log, "utf8")).toContain("mcp old: hostile server echo-only starting");
    const list = await cli(["mcp", "list"]);
    expect(list.stdout).toMatch(/^old +stdio/m);
    expect(list.stderr).not.toContain("hostile server");
    const verbose = await cli(["tool", "mcp__old__echo", "--input", '{"text":"hi"}', "--mode", "full_access", "--verbose"]);
    expect(verbose.stderr).toContain("mcp old: hostile server echo-only starting");
  }, 90_000);
});

describe("mcp add --scope", () => {
  it("takes Claude Code's -s user|local|project; OAuth scopes are --oauth-scope, and --scope with one says so", async () => {
    const user = await cli(["mcp", "add", "-s", "user", "--transport", "http", "docs", "https://mcp.example.test/mcp"]);
    expect(user.code).toBe(0);
    expect(readFileSync(userConfig(), "utf8")).toContain("[mcp_servers.docs]");
    const project = await cli(["mcp", "add", "--scope", "project", "notes", "--", "notes-server"]);
    expect(project.code).toBe(0);
    expect(readFileSync(path.join(root, ".agent-lsp", "config.toml"), "utf8")).toContain("[mcp_servers.notes]");
    const local = await cli(["mcp", "add", "-s", "local", "db", "-e", "A=1", "--", "db-server"]);
    expect(local.code).toBe(0);
    expect(local.stdout).toContain("agent-lsp has no private per-project servers");
    expect(readFileSync(userConfig(), "utf8")).toContain("[mcp_servers.db]");
    const oauth = await cli(["mcp", "add", "gh", "--url", "https://gh.example.test/mcp", "--oauth-scope", "repo"]);
    expect(oauth.code).toBe(0);
    expect(readFileSync(userConfig(), "utf8")).toContain('[mcp_servers.gh.oauth]\nscopes = [ "repo" ]');
    const old = await cli(["mcp", "add", "gh2", "--url", "https://gh.example.test/mcp", "--scope", "repo"]);
    expect(old.code).toBe(2);
    expect(old.stderr).toContain('--scope (-s) takes user, local or project (where the server is written), got "repo"; OAuth scopes are --oauth-scope repo.');
    const removed = await cli(["mcp", "remove", "notes", "-s", "project"]);
    expect(removed.code).toBe(0);
    expect(readFileSync(path.join(root, ".agent-lsp", "config.toml"), "utf8")).not.toContain("[mcp_servers.notes]");
  }, 90_000);
});
