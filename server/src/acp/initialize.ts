/**
 * The answer to `initialize`: a fixed table apart from the protocol version, so the start-up path
 * can send it before the ACP SDK has loaded (cli/acp.ts) and the SDK's handler sends the same.
 * No SDK value is imported here; a unit test checks the version against the SDK's.
 */
import type * as acp from "@agentclientprotocol/sdk";
import { VERSION } from "../version.js";

/** The ACP protocol version this agent speaks (the SDK's stable v1). */
export const ACP_PROTOCOL_VERSION = 1;

/** The initialize result for a client that speaks `clientVersion`. */
export function initializeResult(clientVersion: number): acp.InitializeResponse {
  return {
    // The client's version when it is older (it may not know ours), else ours.
    protocolVersion: Math.min(clientVersion, ACP_PROTOCOL_VERSION),
    agentCapabilities: {
      loadSession: true,
      promptCapabilities: { image: true, audio: false, embeddedContext: true },
      // The client's MCP servers over stdio (always) and Streamable HTTP; not the old SSE.
      mcpCapabilities: { http: true, sse: false },
      sessionCapabilities: { list: {} },
    },
    agentInfo: { name: "agent-lsp", version: VERSION },
    authMethods: [],
  };
}

/** The id and protocol version of a raw message when it is a well-formed initialize request. */
export function readInitialize(line: string): { id: number | string; protocolVersion: number } | undefined {
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    return undefined; // the SDK answers malformed input itself
  }
  if (typeof message !== "object" || message === null) return undefined;
  const { jsonrpc, id, method, params } = message as Record<string, unknown>;
  if (jsonrpc !== "2.0" || method !== "initialize" || (typeof id !== "number" && typeof id !== "string")) return undefined;
  const version = (params as { protocolVersion?: unknown } | undefined)?.protocolVersion;
  if (typeof version !== "number" || !Number.isInteger(version) || version < 0) return undefined;
  return { id, protocolVersion: version };
}
