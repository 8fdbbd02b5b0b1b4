/**
 * The official MCP SDK, loaded on first use: an editor that never starts an MCP server never pays
 * for it (the bundle puts it in a chunk of its own). Everything else in mcp/ imports its types only.
 */
import type * as ClientModule from "@modelcontextprotocol/client";
import type * as StdioModule from "@modelcontextprotocol/client/stdio";

/** The SDK's client package and its stdio transport. */
export interface Sdk {
  client: typeof ClientModule;
  stdio: typeof StdioModule;
}

let loading: Promise<Sdk> | undefined;

/** The SDK, imported once. */
export function loadSdk(): Promise<Sdk> {
  loading ??= Promise.all([import("@modelcontextprotocol/client"), import("@modelcontextprotocol/client/stdio")]).then(([client, stdio]) => ({
    client,
    stdio,
  }));
  return loading;
}

export type { Client, Tool, Resource, Prompt, ServerCapabilities, CallToolResult, ReadResourceResult } from "@modelcontextprotocol/client";
/** A resource template as `resources/templates/list` gives it. */
export type ResourceTemplate = ClientModule.ListResourceTemplatesResult["resourceTemplates"][number];
