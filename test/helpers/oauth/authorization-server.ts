/**
 * A local OAuth 2.1 authorization server for the sign-in tests, on 127.0.0.1 only: RFC 8414 or
 * OpenID Connect metadata, Dynamic Client Registration, Client ID Metadata Documents, clients
 * registered beforehand, the authorization endpoint (where the test's "user" approves at once:
 * it answers with the redirect), and the token endpoint (authorization code with PKCE S256,
 * refresh). It checks what a real one checks (redirect URI, PKCE verifier, client secret,
 * resource) and records every request, so tests assert on what agent-lsp sent. Knobs make it
 * misbehave the ways the tests need (another issuer, no S256, a wrong `iss` or `state`).
 */
import { createHash, randomBytes } from "node:crypto";
import { json, serveLocal, type LocalServer } from "./http.js";

/** How the server behaves. */
export interface AuthServerOptions {
  /** Which metadata document it serves. */
  metadata?: "rfc8414" | "oidc" | "none";
  /** Metadata that names another issuer than the one it was fetched for. */
  issuer?: string;
  /** Whether the metadata lists PKCE S256 (`false`: only `plain`). */
  s256?: boolean;
  /** Dynamic Client Registration offered. */
  registration?: boolean;
  /** Client ID Metadata Documents accepted (`client_id_metadata_document_supported`). */
  clientMetadataDocuments?: boolean;
  /** Clients registered beforehand. */
  clients?: { client_id: string; client_secret?: string }[];
  /** The `iss` of the authorization response: the right one (default), another, or none. */
  iss?: "right" | "wrong" | "none";
  /** Answer with another `state` than the one asked with. */
  wrongState?: boolean;
  /** Lifetime of access tokens, in seconds. */
  tokenLifetimeS?: number;
  scopesSupported?: string[];
}

/** An issued access token. */
export interface IssuedToken {
  clientId: string;
  scopes: string[];
  resource: string | undefined;
  expiresAt: number;
}

/** A request the server got: its path and parameters (query or form), and its Authorization header. */
export interface SeenRequest {
  path: string;
  params: Record<string, string>;
  authorization?: string;
}

/** The running server. */
export interface AuthServer extends LocalServer {
  issuer: string;
  options: AuthServerOptions;
  requests: SeenRequest[];
  /** Looks an access token up (what the resource server's verifier asks). */
  introspect(token: string): IssuedToken | undefined;
  /** Makes every access token expire now. */
  expireAccessTokens(): void;
  /** Revokes every access token (the resource server answers 401 to them). */
  revokeAccessTokens(): void;
  /** Revokes every refresh token (a refresh then fails with invalid_grant). */
  revokeRefreshTokens(): void;
  /** Every credential it handed out or got (tokens, codes, verifiers, secrets), for the log check. */
  secrets(): string[];
}

interface Client {
  client_id: string;
  client_secret?: string;
  redirect_uris?: string[];
}

interface Grant {
  clientId: string;
  redirectUri: string;
  challenge: string;
  scopes: string[];
  resource: string | undefined;
}

/** Starts the server. */
export async function startAuthServer(options: AuthServerOptions = {}): Promise<AuthServer> {
  const clients = new Map<string, Client>((options.clients ?? []).map((c) => [c.client_id, c]));
  const codes = new Map<string, Grant>();
  const access = new Map<string, IssuedToken>();
  const refresh = new Map<string, Omit<IssuedToken, "expiresAt">>();
  const requests: SeenRequest[] = [];
  const secrets = new Set<string>();
  const lifetime = () => (options.tokenLifetimeS ?? 3600) * 1000;
  let issuer = "";

  const metadata = () => ({
    issuer: options.issuer ?? issuer,
    authorization_endpoint: `${issuer}/authorize`,
    token_endpoint: `${issuer}/token`,
    ...(options.registration === false ? {} : { registration_endpoint: `${issuer}/register` }),
    response_types_supported: ["code"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    code_challenge_methods_supported: options.s256 === false ? ["plain"] : ["S256"],
    token_endpoint_auth_methods_supported: ["none", "client_secret_basic", "client_secret_post"],
    authorization_response_iss_parameter_supported: options.iss !== "none",
    ...(options.clientMetadataDocuments ? { client_id_metadata_document_supported: true } : {}),
    ...(options.scopesSupported ? { scopes_supported: options.scopesSupported } : {}),
    ...(options.metadata === "oidc" ? { jwks_uri: `${issuer}/jwks`, subject_types_supported: ["public"], id_token_signing_alg_values_supported: ["RS256"] } : {}),
  });

  const issue = (clientId: string, scopes: string[], resource: string | undefined) => {
    const accessToken = `at-${randomBytes(16).toString("hex")}`;
    const refreshToken = `rt-${randomBytes(16).toString("hex")}`;
    access.set(accessToken, { clientId, scopes, resource, expiresAt: Date.now() + lifetime() });
    refresh.set(refreshToken, { clientId, scopes, resource });
    secrets.add(accessToken).add(refreshToken);
    return json({ access_token: accessToken, token_type: "Bearer", expires_in: lifetime() / 1000, refresh_token: refreshToken, scope: scopes.join(" ") }, 200, { "cache-control": "no-store" });
  };

  const authorize = (params: Record<string, string>): Response => {
    const client = clientFor(params.client_id);
    if (!client) return json({ error: "invalid_client" }, 400);
    const redirect = params.redirect_uri ?? "";
    if (!redirectAllowed(client, redirect)) return json({ error: "invalid_request", error_description: "redirect_uri not registered" }, 400);
    if (params.code_challenge_method !== "S256" || !params.code_challenge) return json({ error: "invalid_request", error_description: "PKCE S256 required" }, 400);
    const code = `code-${randomBytes(16).toString("hex")}`;
    secrets.add(code);
    codes.set(code, { clientId: client.client_id, redirectUri: redirect, challenge: params.code_challenge, scopes: (params.scope ?? "").split(" ").filter(Boolean), resource: params.resource });
    const target = new URL(redirect);
    target.searchParams.set("code", code);
    target.searchParams.set("state", options.wrongState ? "not-the-state" : (params.state ?? ""));
    if (options.iss !== "none") target.searchParams.set("iss", options.iss === "wrong" ? "http://127.0.0.1:1/evil" : (options.issuer ?? issuer));
    return new Response(null, { status: 302, headers: { location: target.href } });
  };

  const clientFor = (id: string | undefined): Client | undefined => {
    if (!id) return undefined;
    if (options.clientMetadataDocuments && id.startsWith("https://")) return { client_id: id };
    return clients.get(id);
  };

  const redirectAllowed = (client: Client, redirect: string): boolean => {
    if (!client.redirect_uris) return /^http:\/\/127\.0\.0\.1:\d+\/callback$/.test(redirect); // loopback, any port (RFC 8252)
    return client.redirect_uris.includes(redirect);
  };

  const authenticate = (params: Record<string, string>, authorization: string | undefined): Client | undefined => {
    let id = params.client_id;
    let secret = params.client_secret;
    if (authorization?.startsWith("Basic ")) {
      const [u, p] = Buffer.from(authorization.slice(6), "base64").toString().split(":");
      id = decodeURIComponent(u ?? "");
      secret = decodeURIComponent(p ?? "");
    }
    const client = clientFor(id);
    if (!client) return undefined;
    if (client.client_secret !== undefined && client.client_secret !== secret) return undefined;
    return client;
  };

  const token = (params: Record<string, string>, authorization: string | undefined): Response => {
    const client = authenticate(params, authorization);
    if (!client) return json({ error: "invalid_client" }, 401);
    if (params.grant_type === "authorization_code") {
      const grant = codes.get(params.code ?? "");
      codes.delete(params.code ?? "");
      if (!grant || grant.clientId !== client.client_id || grant.redirectUri !== params.redirect_uri) return json({ error: "invalid_grant" }, 400);
      secrets.add(params.code_verifier ?? "");
      const challenge = createHash("sha256").update(params.code_verifier ?? "").digest("base64url");
      if (challenge !== grant.challenge) return json({ error: "invalid_grant", error_description: "PKCE verification failed" }, 400);
      if (params.resource !== grant.resource) return json({ error: "invalid_target" }, 400);
      return issue(client.client_id, grant.scopes, grant.resource);
    }
    if (params.grant_type === "refresh_token") {
      const old = refresh.get(params.refresh_token ?? "");
      if (!old || old.clientId !== client.client_id) return json({ error: "invalid_grant", error_description: "refresh token unknown or revoked" }, 400);
      refresh.delete(params.refresh_token!);
      return issue(client.client_id, old.scopes, params.resource ?? old.resource);
    }
    return json({ error: "unsupported_grant_type" }, 400);
  };

  const register = async (request: Request): Promise<Response> => {
    if (options.registration === false) return json({ error: "invalid_request" }, 404);
    const body = (await request.json()) as { redirect_uris?: string[]; token_endpoint_auth_method?: string };
    const client: Client = { client_id: `dcr-${randomBytes(6).toString("hex")}`, redirect_uris: body.redirect_uris ?? [] };
    clients.set(client.client_id, client);
    return json({ ...body, client_id: client.client_id, client_id_issued_at: Math.floor(Date.now() / 1000) }, 201);
  };

  const server = await serveLocal(async (request) => {
    const url = new URL(request.url);
    const params = Object.fromEntries(url.searchParams);
    if (request.method === "POST" && request.headers.get("content-type")?.includes("application/x-www-form-urlencoded")) Object.assign(params, Object.fromEntries(new URLSearchParams(await request.clone().text())));
    const authorization = request.headers.get("authorization") ?? undefined;
    requests.push({ path: url.pathname, params, ...(authorization ? { authorization } : {}) });
    if (url.pathname === "/.well-known/oauth-authorization-server" && (options.metadata ?? "rfc8414") === "rfc8414") return json(metadata());
    if (url.pathname === "/.well-known/openid-configuration" && options.metadata === "oidc") return json(metadata());
    if (url.pathname === "/authorize") return authorize(params);
    if (url.pathname === "/token" && request.method === "POST") return token(params, authorization);
    if (url.pathname === "/register" && request.method === "POST") return register(request);
    return json({ error: "not_found" }, 404);
  });
  issuer = server.origin;
  for (const c of options.clients ?? []) if (c.client_secret) secrets.add(c.client_secret);

  return {
    ...server,
    issuer,
    options,
    requests,
    introspect: (t) => access.get(t),
    expireAccessTokens: () => access.forEach((t) => (t.expiresAt = Date.now() - 1000)),
    revokeAccessTokens: () => access.clear(),
    revokeRefreshTokens: () => refresh.clear(),
    secrets: () => [...secrets].filter(Boolean),
  };
}
