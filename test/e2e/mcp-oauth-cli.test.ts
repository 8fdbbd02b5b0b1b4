/**
 * The built binary's sign-in commands against a local authorization server and a protected MCP
 * server: `mcp add --url --client-id ... --oauth-scope ...` writes the `oauth` table, `mcp list` shows
 * the sign-in state, `mcp login` prints the address (the test's "user" approves at it; $BROWSER
 * is `true`, so no real browser opens), `--paste` takes the address the browser ended on,
 * `mcp logout` deletes the tokens. Nothing printed holds a credential.
 */
import { spawn } from "node:child_process";
import { appendFileSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempProject } from "../helpers/agent-setup.js";
import { startAuthServer, type AuthServer } from "../helpers/oauth/authorization-server.js";
import { startResourceServer, type ResourceServer } from "../helpers/oauth/resource-server.js";
import { approvingUser } from "../helpers/oauth/sign-in-setup.js";
import { BINARY } from "../helpers/spawn-server.js";
import { waitFor } from "../helpers/wait.js";

let as: AuthServer;
let rs: ResourceServer;
let root: string;
let home: string;
const printed: string[] = [];

beforeAll(async () => {
  as = await startAuthServer({ clients: [{ client_id: "cli-app" }], scopesSupported: ["read", "write"] });
  rs = await startResourceServer(as);
  root = tempProject();
  home = tempProject("agent-lsp-home-");
});
afterAll(async () => {
  await rs.close();
  await as.close();
  rmSync(root, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

/** Runs the binary; `onOutput` sees stdout as it comes and may write to stdin. */
function cli(args: string[], onOutput?: (stdout: string, stdin: NodeJS.WritableStream) => void): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BINARY, ...args], {
    cwd: root,
    env: { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, ".config"), XDG_STATE_HOME: path.join(home, "state"), BROWSER: "true" },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => {
    stdout += d.toString();
    onOutput?.(stdout, child.stdin);
  });
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) =>
    child.on("close", (code) => {
      printed.push(stdout, stderr);
      resolve({ code: code ?? -1, stdout, stderr });
    }),
  );
}

/** The authorization address a `login` printed. */
function addressIn(stdout: string): string | undefined {
  return /^ {2}(http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+)$/m.exec(stdout)?.[1];
}

describe("agent-lsp mcp login / logout", () => {
  it("add writes the oauth table; list says it needs login; login signs in; list shows it signed in and ready; logout deletes the tokens", async () => {
    const added = await cli(["mcp", "add", "remote", "--url", rs.url, "--client-id", "cli-app", "--oauth-scope", "read", "--oauth-scope", "write"]);
    expect(added.code).toBe(0);
    expect(added.stdout).toContain("agent-lsp mcp login remote");
    const config = path.join(home, ".config", "agent-lsp", "config.toml");
    expect(readFileSync(config, "utf8")).toContain('[mcp_servers.remote.oauth]\nclient_id = "cli-app"\nscopes = [ "read", "write" ]\n');
    // This machine's keyring is not the test's: tokens go to a file in the test's state folder.
    appendFileSync(config, '\n[mcp]\ntoken_store = "file"\n');

    const before = await cli(["mcp", "list"]);
    expect(before.stdout).toMatch(/^remote +http +- +failed: it needs a sign-in: run `agent-lsp mcp login remote`.*; needs login \(not signed in\)$/m);

    let followed: Promise<void> | undefined;
    const login = await cli(["mcp", "login", "remote"], (stdout) => {
      const url = addressIn(stdout);
      if (url && !followed) followed = Promise.resolve(approvingUser().open(url));
    });
    await followed;
    expect(login.code).toBe(0);
    expect(login.stdout).toContain('Signed in to "remote"');
    expect(new URL(addressIn(login.stdout)!).searchParams.get("scope")).toBe("read write");

    const after = await cli(["mcp", "list"]);
    expect(after.stdout).toMatch(/^remote +http +2026-07-28 +ready: 1 tool.*; signed in, expires in 60 min \(refreshable\)$/m);

    const logout = await cli(["mcp", "logout", "remote"]);
    expect(logout.stdout).toMatch(/^Signed out of "remote": its tokens were deleted from .*mcp-oauth\.\n$/);
    expect((await cli(["mcp", "list"])).stdout).toMatch(/needs login \(not signed in\)$/m);
  }, 60_000);

  it("login --paste takes the address the browser ended on", async () => {
    let pasted = false;
    const login = await cli(["mcp", "login", "remote", "--paste"], (stdout, stdin) => {
      const url = addressIn(stdout);
      if (!url || pasted) return;
      pasted = true;
      void fetch(url, { redirect: "manual" }).then((r) => stdin.write(`${r.headers.get("location")}\n`));
    });
    expect(login.code).toBe(0);
    expect(login.stdout).toContain("paste here the whole address");
    expect(login.stdout).toContain('Signed in to "remote"');
  }, 60_000);

  it("login of a server that is not configured says so", async () => {
    const r = await cli(["mcp", "login", "nope"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('no MCP server "nope" is configured');
  });

  it("printed nothing that is a credential", async () => {
    await waitFor(() => printed.length > 0);
    const secrets = as.secrets();
    expect(secrets.length).toBeGreaterThan(4);
    for (const secret of secrets) for (const text of printed) expect(text).not.toContain(secret);
  });
});
