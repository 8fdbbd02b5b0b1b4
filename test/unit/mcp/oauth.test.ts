/**
 * The pure parts of the MCP sign-in: which servers sign in, the scopes a sign-in asks for, the
 * pasted redirect, the sign-in state in words, the messages that say what to run, and the
 * `oauth` table `mcp add` writes.
 */
import { parse } from "smol-toml";
import { describe, expect, it } from "vitest";
import { addServer } from "../../../server/src/cli/mcp-config-file.js";
import { DEFAULT_CONFIG, type McpServerTable } from "../../../server/src/config/schema.js";
import { SignInNeededError } from "../../../server/src/mcp/oauth/errors.js";
import { describeSignIn } from "../../../server/src/mcp/oauth/mcp-auth.js";
import { pastedAnswer, scopeToAsk } from "../../../server/src/mcp/oauth/sign-in.js";
import { parseRecord, type SignInRecord } from "../../../server/src/mcp/oauth/token-store.js";
import { serverSpecs } from "../../../server/src/mcp/specs.js";

function spec(table: McpServerTable) {
  const result = serverSpecs({ ...structuredClone(DEFAULT_CONFIG), mcp_servers: { s: table } }, "/p");
  return { spec: result.specs[0], error: result.errors[0]?.message };
}

describe("which servers sign in", () => {
  it.each([
    [{ url: "https://x.test/mcp" }, true],
    [{ url: "https://x.test/mcp", headers: { "X-Team": "a" } }, true],
    [{ url: "https://x.test/mcp", headers: { authorization: "Bearer t" } }, false],
    [{ url: "https://x.test/mcp", env_headers: { Authorization: "TOKEN_VAR" } }, false],
    [{ command: "srv" }, false],
  ] as [McpServerTable, boolean][])("%j: %s", (table, expected) => {
    expect(spec(table).spec?.oauthEnabled).toBe(expected);
  });

  it("an oauth table on a local server is a configuration error", () => {
    expect(spec({ command: "srv", oauth: { client_id: "x" } }).error).toMatch(/"oauth" belongs to a remote server/);
  });

  it("carries the oauth table", () => {
    expect(spec({ url: "https://x.test/mcp", oauth: { client_id: "a", client_secret_env: "S", callback_port: 8765, scopes: ["r"] } }).spec?.oauth).toEqual({
      clientId: "a",
      clientSecretEnv: "S",
      callbackPort: 8765,
      scopes: ["r"],
    });
  });
});

describe("the scopes a sign-in asks for", () => {
  const base = spec({ url: "https://x.test/mcp" }).spec!;
  const configured = spec({ url: "https://x.test/mcp", oauth: { scopes: ["repo", "read:org"] } }).spec!;
  const record = (r: Partial<SignInRecord>): SignInRecord => ({ url: "https://x.test/mcp", ...r });
  it.each([
    ["nothing known: the server's suggestion", base, undefined, undefined],
    ["the last sign-in's", base, record({ requestedScope: "read" }), "read"],
    ["the granted ones when none was asked", base, record({ tokens: { access_token: "a", token_type: "Bearer", scope: "read list" } }), "read list"],
    ["old and new after insufficient_scope", base, record({ requestedScope: "read", neededScope: "write read" }), "read write"],
    ["configured ones replace the suggestion", configured, undefined, "repo read:org"],
    ["configured ones and the needed ones", configured, record({ neededScope: "admin" }), "repo read:org admin"],
  ])("%s", (_what, s, previous, expected) => {
    expect(scopeToAsk(s, previous)).toBe(expected);
  });
});

describe("a pasted redirect", () => {
  const redirect = "http://127.0.0.1:4567/callback";
  it("gives the query of exactly the redirect", () => {
    expect(pastedAnswer(`  ${redirect}?code=c&state=s \n`, redirect).get("code")).toBe("c");
  });
  it.each([
    ["http://127.0.0.1:4568/callback?code=c", /not the sign-in's redirect/],
    ["http://localhost:4567/callback?code=c", /not the sign-in's redirect/],
    ["http://127.0.0.1:4567/callback/x?code=c", /not the sign-in's redirect/],
    ["https://127.0.0.1:4567/callback?code=c", /not the sign-in's redirect/],
    ["code=c&state=s", /not an address/],
  ])("refuses %s", (text, message) => {
    expect(() => pastedAnswer(text, redirect)).toThrow(message);
  });
});

describe("words", () => {
  const now = 1_000_000_000;
  it.each([
    [{ state: "signed_in", refreshable: true }, "signed in"],
    [{ state: "signed_in", expiresAt: now + 52 * 60_000, refreshable: true }, "signed in, expires in 52 min (refreshable)"],
    [{ state: "signed_in", expiresAt: now + 5 * 3600_000, refreshable: false }, "signed in, expires in 5 h"],
    [{ state: "signed_in", expiresAt: now - 1, refreshable: true }, "signed in, token expired (refreshed at the next start)"],
    [{ state: "expired" }, "sign-in expired: needs login"],
    [{ state: "needs_login", reason: "not signed in" }, "needs login (not signed in)"],
  ] as const)("%j", (state, text) => {
    expect(describeSignIn(state, now)).toBe(text);
  });

  it.each([
    ["not_signed_in", undefined, "it needs a sign-in: run `agent-lsp mcp login gh`, or /mcp-login gh in the editor's chat"],
    ["expired", undefined, "its sign-in expired and could not be refreshed: run `agent-lsp mcp login gh` to sign in again, or /mcp-login gh in the editor's chat"],
    ["scope", "it asked for write", "it needs more permissions than the sign-in granted (it asked for write): run `agent-lsp mcp login gh` to sign in again, or /mcp-login gh in the editor's chat"],
  ] as const)("%s", (reason, detail, text) => {
    expect(new SignInNeededError("gh", reason, detail).message).toBe(text);
  });

  it("a stored record that is not one reads as absent", () => {
    expect(parseRecord("{not json")).toBeUndefined();
    expect(parseRecord('{"tokens": {}}')).toBeUndefined();
    expect(parseRecord(null)).toBeUndefined();
    expect(parseRecord('{"url": "u"}')).toEqual({ url: "u" });
  });
});

describe("mcp add with an OAuth app", () => {
  it("writes [mcp_servers.NAME.oauth] after the server's table", () => {
    const out = addServer("", "gh", { url: "https://x.test/mcp", oauth: { client_id: "Iv1.abc", client_secret_env: "GH_SECRET", callback_port: 8765, scopes: ["repo"] } });
    expect(out).toBe('[mcp_servers.gh]\nurl = "https://x.test/mcp"\n\n[mcp_servers.gh.oauth]\nclient_id = "Iv1.abc"\nclient_secret_env = "GH_SECRET"\ncallback_port = 8765\nscopes = [ "repo" ]\n');
    expect(parse(out)).toEqual({ mcp_servers: { gh: { url: "https://x.test/mcp", oauth: { client_id: "Iv1.abc", client_secret_env: "GH_SECRET", callback_port: 8765, scopes: ["repo"] } } } });
  });
});
