/**
 * A remote MCP server that requires the tokens of a test authorization server, built from the
 * official server package: `createMcpHandler` serves MCP, `verifyBearerToken` and
 * `bearerAuthChallengeResponse` check the bearer token and answer `401`/`403` with the
 * `WWW-Authenticate` challenge, `buildOAuthProtectedResourceMetadata` makes the RFC 9728
 * document. On 127.0.0.1 only. One tool, `whoami`, answers with the token's client and scopes.
 */
import {
  bearerAuthChallengeResponse,
  buildOAuthProtectedResourceMetadata,
  createMcpHandler,
  getOAuthProtectedResourceMetadataUrl,
  McpServer,
  OAuthError,
  OAuthErrorCode,
  verifyBearerToken,
} from "@modelcontextprotocol/server";
import type { AuthServer } from "./authorization-server.js";
import { json, serveLocal, type LocalServer } from "./http.js";

/** How the resource server behaves. */
export interface ResourceServerOptions {
  /** Where a client learns of the authorization server: the 401's `resource_metadata`, or only the well-known document. */
  discovery?: "challenge" | "well-known";
  /** Scopes every request needs; a token without them gets `403 insufficient_scope`. */
  requiredScopes?: string[];
}

/** The running server. */
export interface ResourceServer extends LocalServer {
  /** The MCP endpoint. */
  url: string;
  options: ResourceServerOptions;
  /** Bearer tokens it was sent, in order (undefined: none). */
  seen: (string | undefined)[];
  /** How many requests it refused with 401. */
  unauthorized: number;
}

/** Starts the server, trusting `as`. */
export async function startResourceServer(as: AuthServer, options: ResourceServerOptions = {}): Promise<ResourceServer> {
  const handler = createMcpHandler(() => build(), { legacy: "reject" });
  const state = { seen: [] as (string | undefined)[], unauthorized: 0 };
  let url = "";
  const verifier = {
    async verifyAccessToken(token: string) {
      const issued = as.introspect(token);
      if (!issued || issued.expiresAt <= Date.now()) throw new OAuthError(OAuthErrorCode.InvalidToken, "unknown or expired token");
      return { token, clientId: issued.clientId, scopes: issued.scopes, expiresAt: Math.floor(issued.expiresAt / 1000), ...(issued.resource ? { resource: new URL(issued.resource) } : {}) };
    },
  };
  const server = await serveLocal(async (request) => {
    const path = new URL(request.url).pathname;
    if (path.startsWith("/.well-known/oauth-protected-resource")) {
      return json(buildOAuthProtectedResourceMetadata({ oauthMetadata: { issuer: as.issuer, authorization_endpoint: `${as.issuer}/authorize`, token_endpoint: `${as.issuer}/token`, response_types_supported: ["code"] }, resourceServerUrl: new URL(url), dangerouslyAllowInsecureIssuerUrl: true }));
    }
    if (path !== "/mcp") return json({ error: "not_found" }, 404);
    const header = request.headers.get("authorization");
    state.seen.push(header?.replace(/^Bearer /, "") ?? undefined);
    const challenge = { ...(options.requiredScopes ? { requiredScopes: options.requiredScopes } : {}), ...(options.discovery === "well-known" ? {} : { resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(new URL(url)) }) };
    try {
      await verifyBearerToken(header, { verifier, expectedResource: new URL(url), ...challenge });
    } catch (err) {
      const response = bearerAuthChallengeResponse(err, challenge);
      if (response.status === 401) state.unauthorized += 1;
      return response;
    }
    return handler.fetch(request);
  });
  url = `${server.origin}/mcp`;
  return {
    ...server,
    url,
    options,
    get seen() {
      return state.seen;
    },
    get unauthorized() {
      return state.unauthorized;
    },
  };
}

function build(): McpServer {
  const server = new McpServer({ name: "oauth-test", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.registerTool("whoami", { description: "Say which client the token belongs to" }, async (extra) => ({
    content: [{ type: "text", text: `client ${String((extra as { authInfo?: { clientId?: string } }).authInfo?.clientId ?? "unknown")}` }],
  }));
  return server;
}
