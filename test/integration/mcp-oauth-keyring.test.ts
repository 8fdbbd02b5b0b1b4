/**
 * Sign-in tokens in a real Secret Service (gnome-keyring on a private D-Bus session bus,
 * test/helpers/oauth/keyring.ts): stored under service `agent-lsp`, account `mcp-oauth:<name>`,
 * used by a running server, deleted by logout; and the error where no keyring service runs.
 * Skips without gnome-keyring and dbus, except under AGENT_LSP_REQUIRE_ALL=1, where that fails.
 */
import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KeyringTokenStore } from "../../server/src/mcp/oauth/keyring-store.js";
import { McpAuth } from "../../server/src/mcp/oauth/mcp-auth.js";
import { testManager } from "../helpers/mcp/servers.js";
import { startAuthServer, type AuthServer } from "../helpers/oauth/authorization-server.js";
import { keyringMissing, startPrivateKeyring, type PrivateKeyring } from "../helpers/oauth/keyring.js";
import { startResourceServer, type ResourceServer } from "../helpers/oauth/resource-server.js";
import { approvingUser, oauthConfig, specOf } from "../helpers/oauth/sign-in-setup.js";
import { REQUIRE_ALL } from "../helpers/xvfb.js";

const missing = keyringMissing();
if (missing && REQUIRE_ALL) throw new Error(`AGENT_LSP_REQUIRE_ALL=1 but the keyring tests cannot run: ${missing}`);

describe.skipIf(missing !== undefined)("tokens in the OS keyring (gnome-keyring, Secret Service)", () => {
  let keyring: PrivateKeyring;
  let as: AuthServer;
  let rs: ResourceServer;
  beforeAll(async () => {
    keyring = await startPrivateKeyring();
    as = await startAuthServer();
    rs = await startResourceServer(as);
  });
  afterAll(async () => {
    await rs?.close();
    await as?.close();
    keyring?.stop();
  });

  it("keeps a record under service agent-lsp, account mcp-oauth:NAME, and deletes it", async () => {
    const store = new KeyringTokenStore();
    await store.save("kr-roundtrip", { url: "https://example.test/mcp", requestedScope: "read" });
    expect(await store.load("kr-roundtrip")).toEqual({ url: "https://example.test/mcp", requestedScope: "read" });
    const { AsyncEntry } = await import("@napi-rs/keyring");
    expect(JSON.parse((await new AsyncEntry("agent-lsp", "mcp-oauth:kr-roundtrip").getPassword()) ?? "null")).toMatchObject({ url: "https://example.test/mcp" });
    expect(await store.delete("kr-roundtrip")).toBe(true);
    expect(await store.load("kr-roundtrip")).toBeUndefined();
  });

  it("signs in, starts the server with the keyring's token, and logout deletes it", async () => {
    const config = oauthConfig("remote", { url: rs.url }, { token_store: "keyring" });
    const auth = new McpAuth({ config: () => config });
    expect(auth.store()).toBeInstanceOf(KeyringTokenStore);
    const record = await auth.signIn(specOf(config, "remote"), approvingUser());
    const manager = testManager(config, { auth });
    try {
      await manager.ensureStarted({ sessionId: "s" });
      expect(manager.status("remote")?.state).toBe("ready");
      expect(rs.seen.at(-1)).toBe(record.tokens?.access_token);
    } finally {
      await manager.dispose();
    }
    expect(await auth.logout("remote")).toBe(true);
    expect((await auth.state(specOf(config, "remote"))).state).toBe("needs_login");
  });

  it("where no keyring service runs, the error says so and how to fix it", () => {
    // A process of its own: the keyring library keeps its bus connection for the process's life.
    const script = `import { KeyringTokenStore } from "./server/src/mcp/oauth/keyring-store.ts";
try { await new KeyringTokenStore().load("x"); console.log("no error"); } catch (e) { console.log(e.message); }`;
    const r = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: "unix:path=/nonexistent/agent-lsp-test-bus" },
      encoding: "utf8",
    });
    expect(r.stdout).toMatch(/no OS keyring service could be reached/);
    expect(r.stdout).toMatch(/token_store = "file"/);
  });
});
