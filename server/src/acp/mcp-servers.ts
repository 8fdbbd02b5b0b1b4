/**
 * The MCP servers an ACP client sends with `session/new` / `session/load`, as `[mcp_servers]`
 * tables of the front end's own config layer (the strongest, like LSP initializationOptions):
 * the runtime's MCP manager starts them as it starts configured ones. They serve every session of
 * this client (clients send the same list for each); SSE servers are not supported.
 */
import type * as acp from "@agentclientprotocol/sdk";
import type { McpServerTable } from "../config/schema.js";

/** The tables by server name, and the servers that could not be taken (with why). */
export interface ClientMcpServers {
  tables: Record<string, McpServerTable>;
  refused: string[];
}

/** Converts the client's servers. */
export function mcpServerTables(servers: acp.McpServer[]): ClientMcpServers {
  const tables: Record<string, McpServerTable> = {};
  const refused: string[] = [];
  for (const server of servers) {
    if ("type" in server && server.type === "sse") {
      refused.push(`${server.name} (SSE servers are not supported; Streamable HTTP and stdio are)`);
    } else if ("type" in server && server.type === "http") {
      tables[server.name] = { url: server.url, headers: pairs(server.headers) };
    } else {
      const stdio = server as acp.McpServerStdio;
      tables[stdio.name] = { command: stdio.command, args: stdio.args, env: pairs(stdio.env) };
    }
  }
  return { tables, refused };
}

function pairs(list: { name: string; value: string }[]): Record<string, string> {
  return Object.fromEntries(list.map((p) => [p.name, p.value]));
}
