/**
 * The SDK's `OAuthClientProvider` for one server, backed by its stored sign-in (token-store.ts).
 * The SDK does discovery, the issuer check of the metadata, PKCE, registration, the token
 * requests and the `iss` check of the response; this adds what agent-lsp requires on top: the
 * client chosen in the spec's order (the user's own app, then the Client ID Metadata Document,
 * then registration), metadata that exists and supports PKCE `S256`, tokens refreshed before
 * they expire, and, for a running server, no browser: a sign-in it would need is an error that
 * says to run `agent-lsp mcp login`.
 */
import { randomBytes } from "node:crypto";
import { addSecrets } from "../../util/log.js";
import type { Sdk } from "../sdk.js";
import type { McpServerSpec } from "../specs.js";
import { SignInCheckError, SignInNeededError } from "./errors.js";
import { recordFor, rememberSecrets, type SavedClient, type SignInRecord, type TokenStore } from "./token-store.js";

type Client = Sdk["client"];
type Provider = import("@modelcontextprotocol/client").OAuthClientProvider;
type StoredTokens = import("@modelcontextprotocol/client").StoredOAuthTokens;
type StoredClient = import("@modelcontextprotocol/client").StoredOAuthClientInformation;
type DiscoveryState = import("@modelcontextprotocol/client").OAuthDiscoveryState;

/** Refresh this long before the expiry the server gave, so a request never leaves with a dying token. */
const EXPIRY_MARGIN_MS = 30_000;

/** The browser step of an interactive sign-in. */
export interface Interactive {
  redirectUrl: string;
  state: string;
  /** The scope this sign-in asks for (kept with the tokens, for the next one). */
  scope?: string;
  open(url: URL): void | Promise<void>;
}

/** What a provider is built from. */
export interface ProviderOptions {
  spec: McpServerSpec;
  store: TokenStore;
  sdk: Client;
  /** `[mcp] client_metadata_url`, when set. */
  clientMetadataUrl?: string;
  env?: NodeJS.ProcessEnv;
  /** Absent for a running server: it never opens a browser. */
  interactive?: Interactive;
}

/** A random `state` (or any single-use secret of a sign-in). */
export function randomState(): string {
  return randomBytes(24).toString("base64url");
}

/** The OAuth client of one server. */
export class ServerOAuthProvider implements Provider {
  private record: SignInRecord | undefined;
  private loaded: Promise<SignInRecord | undefined> | undefined;
  private hadTokens = false;
  private verifier: string | undefined;
  private discovery: DiscoveryState | undefined;
  private refreshing: Promise<void> | undefined;
  readonly clientMetadataUrl?: string;

  constructor(private readonly options: ProviderOptions) {
    if (options.clientMetadataUrl) this.clientMetadataUrl = options.clientMetadataUrl;
  }

  private get name(): string {
    return this.options.spec.name;
  }

  private get url(): string {
    return this.options.spec.url!;
  }

  get redirectUrl(): string {
    // A running server never redirects (redirectToAuthorization refuses), but the SDK takes a
    // provider without one for a machine-to-machine client, so it gets the loopback address.
    return this.options.interactive?.redirectUrl ?? "http://127.0.0.1/callback";
  }

  get clientMetadata() {
    return {
      client_name: "agent-lsp",
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      application_type: "native",
    };
  }

  state(): string {
    return this.options.interactive?.state ?? randomState();
  }

  /** The stored sign-in, read once. */
  async load(): Promise<SignInRecord | undefined> {
    this.loaded ??= recordFor(this.options.store, this.name, this.url).then((record) => {
      this.record = record;
      this.hadTokens = Boolean(record?.tokens);
      return record;
    });
    await this.loaded;
    // What was saved since (a registration, new tokens), not the record as first read.
    return this.record;
  }

  async clientInformation(ctx?: { issuer: string }): Promise<StoredClient | undefined> {
    const own = this.options.spec.oauth;
    // The user's app is registered with whichever authorization server the server names.
    if (own?.clientId) return { client_id: own.clientId, ...this.ownSecret(), ...(ctx?.issuer ? { issuer: ctx.issuer } : {}) };
    const saved = (await this.load())?.client;
    if (saved && this.fits(saved)) return toStoredClient(saved);
    // A running server does not register: without a client there is no sign-in to refresh.
    if (!this.options.interactive) throw new SignInNeededError(this.name, "not_signed_in");
    return undefined;
  }

  async saveClientInformation(info: StoredClient): Promise<void> {
    addSecrets(info.client_secret);
    // The user's own app lives in the config (its secret in the environment): nothing to keep.
    if (this.options.spec.oauth?.clientId) return;
    const kind = info.client_id === this.clientMetadataUrl ? "metadata_document" : "registered";
    await this.update({ client: { ...pickClient(info), kind } });
  }

  async tokens(ctx?: { issuer: string }): Promise<StoredTokens | undefined> {
    let tokens: SignInRecord["tokens"];
    try {
      tokens = (await this.load())?.tokens;
    } catch (err) {
      // The per-request read of a server that may not need a sign-in at all: no token. When the
      // server asks for one, the SDK reads again with a context, and that read reports the store.
      if (ctx) throw err;
      this.loaded = undefined;
      return undefined;
    }
    if (!tokens) return undefined;
    if (!ctx && expired(tokens) && tokens.refresh_token && !this.options.interactive) {
      await (this.refreshing ??= this.refresh().finally(() => (this.refreshing = undefined)));
      tokens = this.record?.tokens;
      if (!tokens) return undefined;
    }
    return toStoredTokens(tokens);
  }

  async saveTokens(tokens: StoredTokens): Promise<void> {
    const saved = {
      access_token: tokens.access_token,
      token_type: tokens.token_type,
      ...(tokens.refresh_token ? { refresh_token: tokens.refresh_token } : { ...(this.record?.tokens?.refresh_token ? { refresh_token: this.record.tokens.refresh_token } : {}) }),
      ...(tokens.scope ? { scope: tokens.scope } : {}),
      ...(tokens.expires_in !== undefined ? { expires_at: Date.now() + tokens.expires_in * 1000 } : {}),
      ...(tokens.issuer ? { issuer: tokens.issuer } : {}),
    };
    addSecrets(saved.access_token, saved.refresh_token);
    const interactive = this.options.interactive;
    const { neededScope: _done, ...rest } = this.record ?? { url: this.url };
    await this.update(interactive ? { ...rest, url: this.url, tokens: saved, ...(interactive.scope ? { requestedScope: interactive.scope } : {}) } : { tokens: saved }, Boolean(interactive));
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    const interactive = this.options.interactive;
    if (!interactive) throw new SignInNeededError(this.name, this.hadTokens ? "expired" : "not_signed_in");
    await interactive.open(authorizationUrl);
  }

  saveCodeVerifier(codeVerifier: string): void {
    addSecrets(codeVerifier);
    this.verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (!this.verifier) throw new SignInCheckError("state", "no sign-in is under way for this answer");
    return this.verifier;
  }

  async invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): Promise<void> {
    if (scope === "verifier") this.verifier = undefined;
    else if (scope === "discovery") this.discovery = undefined;
    else if (this.record) {
      const { tokens: _t, client: _c, ...rest } = this.record;
      this.record = scope === "all" ? rest : scope === "client" ? { ...rest, ...(this.record.tokens ? { tokens: this.record.tokens } : {}) } : { ...rest, ...(this.record.client ? { client: this.record.client } : {}) };
    }
  }

  /**
   * Discovery found the authorization server: the SDK has checked that its metadata names the
   * issuer it was fetched for; agent-lsp also requires that there is metadata, and PKCE `S256`.
   */
  saveDiscoveryState(state: DiscoveryState): void {
    const metadata = state.authorizationServerMetadata;
    if (!metadata) {
      throw new SignInCheckError(
        "metadata",
        `the authorization server ${state.authorizationServerUrl} publishes no metadata (RFC 8414 /.well-known/oauth-authorization-server or OpenID Connect /.well-known/openid-configuration)`,
      );
    }
    const methods = metadata.code_challenge_methods_supported ?? [];
    if (!methods.includes("S256")) {
      throw new SignInCheckError("pkce", `the authorization server ${metadata.issuer} does not support PKCE S256 (code_challenge_methods_supported: ${methods.length ? methods.join(", ") : "none"})`);
    }
    this.discovery = state;
  }

  discoveryState(): DiscoveryState | undefined {
    return this.discovery;
  }

  private ownSecret(): { client_secret?: string } {
    const variable = this.options.spec.oauth?.clientSecretEnv;
    if (!variable) return {};
    const secret = (this.options.env ?? process.env)[variable];
    if (!secret) throw new SignInCheckError("refused", `[mcp_servers.${this.name}.oauth] client_secret_env names $${variable}, which is not set`);
    addSecrets(secret);
    return { client_secret: secret };
  }

  /** A saved client serves this sign-in: a registered one only with the redirect it registered. */
  private fits(client: SavedClient): boolean {
    if (client.kind === "metadata_document") return client.client_id === this.clientMetadataUrl;
    if (!this.options.interactive) return true;
    return client.redirect_uris?.includes(this.redirectUrl) ?? false;
  }

  /** Runs the SDK's flow without a browser: with a refresh token it refreshes. */
  private async refresh(): Promise<void> {
    await this.options.sdk.auth(this, { serverUrl: this.url });
  }

  private async update(change: Partial<SignInRecord>, replace = false): Promise<void> {
    const base = replace ? { url: this.url } : (this.record ?? { url: this.url });
    this.record = { ...base, ...change, url: this.url };
    rememberSecrets(this.record);
    await this.options.store.save(this.name, this.record);
  }
}

function expired(tokens: NonNullable<SignInRecord["tokens"]>): boolean {
  return tokens.expires_at !== undefined && tokens.expires_at - EXPIRY_MARGIN_MS <= Date.now();
}

function toStoredTokens(t: NonNullable<SignInRecord["tokens"]>): StoredTokens {
  return {
    access_token: t.access_token,
    token_type: t.token_type,
    ...(t.refresh_token ? { refresh_token: t.refresh_token } : {}),
    ...(t.scope ? { scope: t.scope } : {}),
    ...(t.expires_at !== undefined ? { expires_in: Math.max(0, Math.floor((t.expires_at - Date.now()) / 1000)) } : {}),
    ...(t.issuer ? { issuer: t.issuer } : {}),
  };
}

function toStoredClient(c: SavedClient): StoredClient {
  const { kind: _kind, ...rest } = c;
  return rest as StoredClient;
}

function pickClient(info: StoredClient): Omit<SavedClient, "kind"> {
  const i = info as StoredClient & { redirect_uris?: string[]; client_secret_expires_at?: number; issuer?: string };
  return {
    client_id: i.client_id,
    ...(i.client_secret ? { client_secret: i.client_secret } : {}),
    ...(i.client_secret_expires_at !== undefined ? { client_secret_expires_at: i.client_secret_expires_at } : {}),
    ...(i.redirect_uris ? { redirect_uris: i.redirect_uris } : {}),
    ...(i.issuer ? { issuer: i.issuer } : {}),
  };
}
