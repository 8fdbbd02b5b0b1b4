/**
 * Signing in to a remote MCP server from an editor over LSP: the first turn meets the server's
 * 401, agent-lsp opens the sign-in page with `window/showDocument` (external), says so in a
 * status update and `window/showMessage` with the address, and the server is ready once the
 * user approved in the "browser". `/mcp-login` signs in again. Nothing agent-lsp wrote (its log,
 * the updates, the messages, the files of the project and of the state folder) holds a token,
 * a code, a verifier or a secret.
 */
import { mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startAgentHarness, type AgentHarness } from "../helpers/agent-setup.js";
import { defaultCapabilities } from "../helpers/lsp-client.js";
import { startAuthServer, type AuthServer } from "../helpers/oauth/authorization-server.js";
import { startResourceServer, type ResourceServer } from "../helpers/oauth/resource-server.js";
import { approvingUser } from "../helpers/oauth/sign-in-setup.js";
import { waitFor } from "../helpers/wait.js";

let as: AuthServer;
let rs: ResourceServer;
let h: AgentHarness | undefined;
const stateHome = mkdtempSync(path.join(os.tmpdir(), "agent-lsp-oauth-editor-"));
const previousState = process.env.XDG_STATE_HOME;

beforeAll(async () => {
  // The file store keeps tokens under the state folder of the environment.
  process.env.XDG_STATE_HOME = stateHome;
  as = await startAuthServer({ clients: [{ client_id: "editor-app", client_secret: "editor-secret-value" }] });
  rs = await startResourceServer(as);
});
afterAll(async () => {
  await rs.close();
  await as.close();
  delete process.env.EDITOR_TEST_SECRET;
  if (previousState === undefined) delete process.env.XDG_STATE_HOME;
  else process.env.XDG_STATE_HOME = previousState;
});
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

async function start(canOpen: boolean): Promise<{ h: AgentHarness; id: string; opened: string[] }> {
  process.env.EDITOR_TEST_SECRET = "editor-secret-value";
  h = await startAgentHarness({
    options: {
      mcp_servers: { remote: { url: rs.url, oauth: { client_id: "editor-app", client_secret_env: "EDITOR_TEST_SECRET" } } },
      mcp: { discover_timeout_s: 10, token_store: "file" },
    },
    capabilities: defaultCapabilities({ window: { workDoneProgress: true, showDocument: { support: canOpen } } }),
  });
  const opened: string[] = [];
  const user = approvingUser();
  h.client.connection.onRequest("window/showDocument", async (p: { uri: string; external?: boolean }) => {
    expect(p.external).toBe(true);
    opened.push(p.uri);
    await user.open(p.uri);
    return { success: true };
  });
  return { h, id: await h.newSession(), opened };
}

/** Every file under `dir`, as text. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((f) => path.join(dir, f))
    .filter((f) => statSync(f).isFile())
    .map((f) => readFileSync(f, "utf8"));
}

describe("sign-in from the editor", () => {
  it("opens the sign-in page with window/showDocument at the first 401, says so, and the server is ready for the turn", async () => {
    const { h, id, opened } = await start(true);
    h.fake.enqueue({ text: "Done." });
    await h.prompt(id, "hello");
    expect(opened).toHaveLength(1);
    expect(new URL(opened[0]!).searchParams.get("client_id")).toBe("editor-app");
    const statuses = h.client.updatesOf("status").map((u) => u.text as string);
    expect(statuses.some((t) => t.includes('"remote" needs a sign-in') && t.includes(opened[0]!))).toBe(true);
    expect(statuses.some((t) => /MCP server "remote" ready: 1 tool/.test(t))).toBe(true);
    // The sign-in starts by itself: no status tells the user to run a command for it.
    expect(statuses.filter((t) => t.includes("mcp login"))).toEqual([]);
    expect(h.client.messages.some((m) => m.message.includes(opened[0]!))).toBe(true);

    // /mcp-login signs in again (a new sign-in page) and restarts the server.
    const res = (await h.client.connection.sendRequest("agent/command", { sessionId: id, command: "/mcp-login", args: ["remote"] })) as { message: string };
    expect(res.message).toMatch(/^Signed in to "remote"\. It is ready: 1 tool/);
    expect(opened).toHaveLength(2);

    // Nothing agent-lsp wrote or said holds a credential of the sign-ins.
    const secrets = as.secrets();
    expect(secrets.length).toBeGreaterThan(4);
    const written = [h.logs.join("\n"), JSON.stringify(h.client.updates), JSON.stringify(h.client.messages), ...filesUnder(h.root)];
    for (const secret of secrets) for (const text of written) expect(text).not.toContain(secret);
    // The tokens are in the state folder, not in the project.
    expect(filesUnder(stateHome).join("\n")).toContain("access_token");
  }, 60_000);

  it("in an editor that cannot open addresses, the status update and the message carry the address", async () => {
    const { h, id, opened } = await start(false);
    const login = h.client.connection.sendRequest("agent/command", { sessionId: id, command: "/mcp-login", args: ["remote"] }) as Promise<{ message: string }>;
    const statusWithUrl = () => h.client.updatesOf("status").map((u) => u.text as string).find((t) => t.includes("open http://127.0.0.1"));
    await waitFor(() => statusWithUrl() !== undefined, 20_000);
    expect(opened).toHaveLength(0);
    const url = /open (\S+) in a browser/.exec(statusWithUrl()!)![1]!;
    // window/showMessage is a notification of its own: it may arrive just after the status update.
    await waitFor(() => h.client.messages.some((m) => m.message.includes(url)), 5000);
    // The user opens it themselves; the sign-in then completes and the server starts.
    await approvingUser().open(url);
    expect((await login).message).toMatch(/^Signed in to "remote"\. It is ready/);
  }, 60_000);
});
