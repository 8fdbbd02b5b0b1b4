/**
 * OAuth sign-in to remote MCP servers against a local authorization server and a resource server
 * that requires its tokens (test/helpers/oauth): discovery both ways, RFC 8414 and the OpenID
 * Connect fallback, the checks that stop a sign-in, each way of naming the client, the browser
 * step, refresh, step-up scopes and logout. Tokens go to the file store in a temporary state folder
 * (the keyring has a test of its own, mcp-oauth-keyring.test.ts).
 */
import { afterEach, describe, expect, it } from "vitest";
import type { Config } from "../../server/src/config/schema.js";
import { testManager } from "../helpers/mcp/servers.js";
import { startAuthServer, type AuthServer, type AuthServerOptions } from "../helpers/oauth/authorization-server.js";
import { startResourceServer, type ResourceServer, type ResourceServerOptions } from "../helpers/oauth/resource-server.js";
import { approvingUser, fileAuth, oauthConfig, pastingUser, specOf, tempStateEnv } from "../helpers/oauth/sign-in-setup.js";
import type { McpServerTable } from "../../server/src/config/schema.js";

let closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closing.map((c) => c()));
  closing = [];
});

async function servers(asOptions: AuthServerOptions = {}, rsOptions: ResourceServerOptions = {}): Promise<{ as: AuthServer; rs: ResourceServer }> {
  const as = await startAuthServer(asOptions);
  const rs = await startResourceServer(as, rsOptions);
  closing.push(() => rs.close(), () => as.close());
  return { as, rs };
}

function setup(rs: ResourceServer, table: Partial<McpServerTable> = {}, mcp: Partial<Config["mcp"]> = {}, extraEnv: NodeJS.ProcessEnv = {}) {
  const config = oauthConfig("remote", { url: rs.url, ...table }, mcp);
  const env = { ...tempStateEnv(), ...extraEnv };
  const auth = fileAuth(config, env);
  return { config, env, auth, spec: specOf(config, "remote") };
}

/** Starts the server through a manager that has the sign-in's tokens; says how it went. */
async function startWith(config: Config, auth: ReturnType<typeof fileAuth>) {
  const manager = testManager(config, { auth });
  closing.push(async () => void (await manager.dispose()));
  await manager.ensureStarted({ sessionId: "s" });
  return manager;
}

describe("sign-in", () => {
  it("discovers from the 401 challenge, registers itself, signs in and the server starts with the token", async () => {
    const { as, rs } = await servers();
    const { config, auth, spec } = setup(rs);
    const user = approvingUser();
    const record = await auth.signIn(spec, user);
    expect(record.client?.kind).toBe("registered");
    expect(as.requests.some((r) => r.path === "/register")).toBe(true);
    const authorize = new URL(user.opened[0]!);
    expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorize.searchParams.get("resource")).toBe(rs.url);
    expect(authorize.searchParams.get("redirect_uri")).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const exchange = as.requests.find((r) => r.path === "/token" && r.params.grant_type === "authorization_code")!;
    expect(exchange.params.resource).toBe(rs.url);
    const manager = await startWith(config, auth);
    expect(manager.status("remote")?.state).toBe("ready");
    expect(rs.seen.at(-1)).toBe(record.tokens?.access_token);
  });

  it("discovers from the resource's well-known metadata when the 401 names none, and falls back to OpenID Connect metadata", async () => {
    const { as, rs } = await servers({ metadata: "oidc" }, { discovery: "well-known" });
    const { auth, spec } = setup(rs);
    await auth.signIn(spec, approvingUser());
    expect(as.requests.some((r) => r.path === "/.well-known/oauth-authorization-server")).toBe(true);
    expect(as.requests.some((r) => r.path === "/.well-known/openid-configuration")).toBe(true);
    expect((await auth.state(spec)).state).toBe("signed_in");
  });

  it.each([
    ["metadata naming another issuer", { issuer: "http://127.0.0.1:1/other" }, /issuer mismatch in authorization server metadata/i],
    ["a server without PKCE S256", { s256: false }, /does not support PKCE S256/],
    ["an answer with another iss", { iss: "wrong" as const }, /issuer mismatch in authorization response/i],
    ["an answer with another state", { wrongState: true }, /does not carry the state/],
    ["a server without metadata", { metadata: "none" as const }, /publishes no metadata/],
  ])("refuses %s, saying which check failed, and redeems nothing", async (_what, options, message) => {
    const { as, rs } = await servers(options);
    const { auth, spec } = setup(rs);
    await expect(auth.signIn(spec, approvingUser())).rejects.toThrow(message);
    expect(as.requests.some((r) => r.path === "/token")).toBe(false);
    expect((await auth.state(spec)).state).toBe("needs_login");
  });

  it("uses the client the user registered (with its secret) before anything else", async () => {
    const { as, rs } = await servers({ clients: [{ client_id: "my-app", client_secret: "s3cret-value" }], clientMetadataDocuments: true });
    const { auth, spec } = setup(
      rs,
      { oauth: { client_id: "my-app", client_secret_env: "TEST_MCP_SECRET" } },
      { client_metadata_url: "https://agent-lsp.example/client.json" },
      { TEST_MCP_SECRET: "s3cret-value" },
    );
    const record = await auth.signIn(spec, approvingUser());
    const authorize = as.requests.find((r) => r.path === "/authorize")!;
    expect(authorize.params.client_id).toBe("my-app");
    expect(as.requests.some((r) => r.path === "/register")).toBe(false);
    // The authorization server took the secret (it refuses a wrong one), and it was not stored.
    expect(record.tokens?.access_token).toBeTruthy();
    expect(JSON.stringify(await auth.store().load("remote"))).not.toContain("s3cret-value");
  });

  it("uses the Client ID Metadata Document when configured and the server supports it", async () => {
    const { as, rs } = await servers({ clientMetadataDocuments: true });
    const { auth, spec } = setup(rs, {}, { client_metadata_url: "https://agent-lsp.example/oauth/client.json" });
    const record = await auth.signIn(spec, approvingUser());
    expect(record.client).toMatchObject({ client_id: "https://agent-lsp.example/oauth/client.json", kind: "metadata_document" });
    expect(as.requests.some((r) => r.path === "/register")).toBe(false);
  });

  it("registers itself (DCR) when the server does not support metadata documents", async () => {
    const { as, rs } = await servers({ clientMetadataDocuments: false });
    const { auth, spec } = setup(rs, {}, { client_metadata_url: "https://agent-lsp.example/oauth/client.json" });
    const record = await auth.signIn(spec, approvingUser());
    expect(record.client?.kind).toBe("registered");
    const registration = as.requests.find((r) => r.path === "/register");
    expect(registration).toBeDefined();
  });

  it("takes the address the user pasted (a remote shell), checking it is the redirect", async () => {
    const { rs } = await servers();
    const { auth, spec } = setup(rs);
    await auth.signIn(spec, pastingUser());
    expect((await auth.state(spec)).state).toBe("signed_in");
  });

  it("listens on the configured callback port, on 127.0.0.1, and closes after one sign-in", async () => {
    const { rs } = await servers();
    const port = 30000 + Math.floor(Math.random() * 20000);
    const { auth, spec } = setup(rs, { oauth: { callback_port: port } });
    const user = approvingUser();
    await auth.signIn(spec, user);
    expect(new URL(user.opened[0]!).searchParams.get("redirect_uri")).toBe(`http://127.0.0.1:${port}/callback`);
    await expect(fetch(`http://127.0.0.1:${port}/callback`)).rejects.toThrow();
  });
});

describe("a running server", () => {
  it("refreshes a token that expired before sending it", async () => {
    const { as, rs } = await servers();
    const { config, auth, spec } = setup(rs);
    const first = await auth.signIn(spec, approvingUser());
    as.expireAccessTokens();
    // The stored expiry says so too (the server's clock and ours agree).
    const store = auth.store();
    await store.save("remote", { ...first, tokens: { ...first.tokens!, expires_at: Date.now() - 1000 } });
    const manager = await startWith(config, auth);
    expect(manager.status("remote")?.state).toBe("ready");
    const refreshed = await store.load("remote");
    expect(refreshed?.tokens?.access_token).not.toBe(first.tokens?.access_token);
    expect(as.requests.some((r) => r.path === "/token" && r.params.grant_type === "refresh_token")).toBe(true);
    expect(rs.unauthorized).toBe(0);
  });

  it("refreshes when the server answers 401 to a token it no longer takes", async () => {
    const { as, rs } = await servers();
    const { config, auth, spec } = setup(rs);
    const first = await auth.signIn(spec, approvingUser());
    as.revokeAccessTokens();
    const manager = await startWith(config, auth);
    expect(manager.status("remote")?.state).toBe("ready");
    expect(rs.unauthorized).toBeGreaterThan(0);
    expect((await auth.store().load("remote"))?.tokens?.access_token).not.toBe(first.tokens?.access_token);
  });

  it("does not start when the refresh fails, and says to run agent-lsp mcp login", async () => {
    const { as, rs } = await servers();
    const { config, auth, spec } = setup(rs);
    await auth.signIn(spec, approvingUser());
    as.revokeAccessTokens();
    as.revokeRefreshTokens();
    const manager = await startWith(config, auth);
    const status = manager.status("remote")!;
    expect(status.state).toBe("failed");
    expect(status.error).toMatch(/could not be refreshed.*agent-lsp mcp login remote/);
  });

  it("starts the sign-in at the first 401 of a server never signed in to, when a session can sign in", async () => {
    const { rs } = await servers();
    const { config, auth } = setup(rs);
    const user = approvingUser();
    const manager = testManager(config, { auth, signIn: async (spec) => void (await auth.signIn(spec, user)) });
    closing.push(async () => void (await manager.dispose()));
    await manager.ensureStarted({ sessionId: "s" });
    expect(user.opened).toHaveLength(1);
    expect(manager.status("remote")?.state).toBe("ready");
  });

  it("without anyone to sign in, a server never signed in to fails saying to run agent-lsp mcp login", async () => {
    const { rs } = await servers();
    const { config, auth } = setup(rs);
    const manager = await startWith(config, auth);
    expect(manager.status("remote")?.error).toMatch(/needs a sign-in: run `agent-lsp mcp login remote`/);
  });

  it("403 insufficient_scope: does not start; the next login asks for the old scopes and the new ones", async () => {
    const { as, rs } = await servers({ scopesSupported: ["read", "write"] });
    const { config, auth, spec } = setup(rs, { oauth: { scopes: ["read"] } });
    await auth.signIn(spec, approvingUser());
    rs.options.requiredScopes = ["write"];
    const manager = await startWith(config, auth);
    expect(manager.status("remote")?.error).toMatch(/needs more permissions.*agent-lsp mcp login remote/);
    expect(await auth.state(spec)).toMatchObject({ state: "needs_login" });
    const user = approvingUser();
    await auth.signIn(spec, user);
    expect(new URL(user.opened[0]!).searchParams.get("scope")?.split(" ").sort()).toEqual(["read", "write"]);
    void as;
  });

  it("sends the server's own Authorization header and never signs in when the config has one", async () => {
    const { rs } = await servers();
    const { config, auth } = setup(rs, { headers: { Authorization: "Bearer handmade" } });
    const manager = await startWith(config, auth);
    expect(manager.status("remote")?.state).toBe("failed");
    expect(manager.status("remote")?.error).not.toMatch(/mcp login/);
    expect(rs.seen).toContain("handmade");
  });

  it("tokens are bound to the url: the same name pointed elsewhere gets none", async () => {
    const { rs } = await servers();
    const { auth, spec, env } = setup(rs);
    const record = await auth.signIn(spec, approvingUser());
    const { rs: other } = await servers();
    const moved = oauthConfig("remote", { url: other.url });
    const manager = await startWith(moved, fileAuth(moved, env));
    expect(manager.status("remote")?.state).toBe("failed");
    expect(other.seen).not.toContain(record.tokens?.access_token);
  });

  it("logout deletes the stored tokens", async () => {
    const { rs } = await servers();
    const { auth, spec } = setup(rs);
    await auth.signIn(spec, approvingUser());
    expect(await auth.logout("remote")).toBe(true);
    expect(await auth.logout("remote")).toBe(false);
    expect((await auth.state(spec)).state).toBe("needs_login");
  });
});
