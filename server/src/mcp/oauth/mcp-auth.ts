/**
 * OAuth for the MCP client, one per runtime: the provider a running server's transport uses, the
 * interactive sign-in (`agent-lsp mcp login`, /mcp-login, the first `401` in an editor), logout,
 * the sign-in state `mcp list` shows, and the scopes a `403 insufficient_scope` asked for (the
 * next sign-in adds them).
 */
import type { Config } from "../../config/schema.js";
import { loadSdk } from "../sdk.js";
import type { McpServerSpec } from "../specs.js";
import { ServerOAuthProvider } from "./provider.js";
import { signIn, type SignInUi } from "./sign-in.js";
import { recordFor, tokenStoreFor, type SignInRecord, type TokenStore } from "./token-store.js";

/** How a server's sign-in stands, for `mcp list`. */
export type SignInState =
  | { state: "signed_in"; expiresAt?: number; refreshable: boolean }
  | { state: "expired" }
  | { state: "needs_login"; reason: string }
  | { state: "unknown"; reason: string };

/** What it is built from. */
export interface McpAuthDeps {
  config(): Config;
  env?: NodeJS.ProcessEnv;
  /** Replaces the store `[mcp] token_store` names (tests). */
  store?: TokenStore;
}

/** OAuth sign-in to remote MCP servers. */
export class McpAuth {
  constructor(private readonly deps: McpAuthDeps) {}

  /** The store in use. */
  store(): TokenStore {
    return this.deps.store ?? tokenStoreFor(this.deps.config(), this.deps.env);
  }

  /** The provider of a running server: it refreshes, and never opens a browser. */
  async provider(spec: McpServerSpec): Promise<ServerOAuthProvider> {
    const sdk = await loadSdk();
    return new ServerOAuthProvider({ spec, store: this.store(), sdk: sdk.client, ...this.common() });
  }

  /** Signs in interactively. */
  async signIn(spec: McpServerSpec, ui: SignInUi, signal?: AbortSignal): Promise<SignInRecord> {
    if (!spec.url) throw new Error(`the MCP server "${spec.name}" is a local server (command): only remote servers (url) sign in`);
    if (!spec.oauthEnabled) throw new Error(`the MCP server "${spec.name}" sends its own Authorization header (headers or env_headers): remove it to sign in with OAuth`);
    const sdk = await loadSdk();
    return signIn({ spec, store: this.store(), sdk: sdk.client, ui, ...(signal ? { signal } : {}), ...this.common() });
  }

  /** Deletes the stored sign-in; whether there was one. */
  logout(name: string): Promise<boolean> {
    return this.store().delete(name);
  }

  /** Remembers scopes the server said it needs (`403 insufficient_scope`): the next sign-in asks for them too. */
  async noteNeededScope(spec: McpServerSpec, scope: string | undefined): Promise<void> {
    if (!scope) return;
    const store = this.store();
    const record = (await recordFor(store, spec.name, spec.url!)) ?? { url: spec.url! };
    const needed = [...new Set([...(record.neededScope ?? "").split(" "), ...scope.split(" ")].filter(Boolean))].join(" ");
    await store.save(spec.name, { ...record, neededScope: needed });
  }

  /** How the sign-in of a remote server stands. */
  async state(spec: McpServerSpec): Promise<SignInState> {
    let record: SignInRecord | undefined;
    try {
      record = await recordFor(this.store(), spec.name, spec.url!);
    } catch (err) {
      return { state: "unknown", reason: (err as Error).message };
    }
    if (!record?.tokens) return { state: "needs_login", reason: "not signed in" };
    if (record.neededScope) return { state: "needs_login", reason: `the server asked for more permissions (${record.neededScope})` };
    const { expires_at: expiresAt, refresh_token: refresh } = record.tokens;
    if (expiresAt !== undefined && expiresAt <= Date.now() && !refresh) return { state: "expired" };
    return { state: "signed_in", ...(expiresAt !== undefined ? { expiresAt } : {}), refreshable: Boolean(refresh) };
  }

  private common(): { clientMetadataUrl?: string; env?: NodeJS.ProcessEnv } {
    const url = this.deps.config().mcp.client_metadata_url;
    return { ...(url ? { clientMetadataUrl: url } : {}), ...(this.deps.env ? { env: this.deps.env } : {}) };
  }
}

/** `signed in, expires in 52 min` and the like. */
export function describeSignIn(s: SignInState, now = Date.now()): string {
  switch (s.state) {
    case "signed_in":
      if (s.expiresAt === undefined) return "signed in";
      if (s.expiresAt <= now) return "signed in, token expired (refreshed at the next start)";
      return `signed in, expires in ${minutes(s.expiresAt - now)}${s.refreshable ? " (refreshable)" : ""}`;
    case "expired":
      return "sign-in expired: needs login";
    case "needs_login":
      return `needs login (${s.reason})`;
    case "unknown":
      return `sign-in state unknown: ${s.reason}`;
  }
}

function minutes(ms: number): string {
  const m = Math.round(ms / 60_000);
  return m < 90 ? `${m} min` : `${Math.round(m / 60)} h`;
}
