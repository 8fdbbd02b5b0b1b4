/**
 * One MCP tool as a capability, `mcp__<server>__<tool>`: its schema as normalised from the
 * server's, the policy class the config gives it (`external_api` unless configured), asked every
 * time in ask mode. A call goes to the server with the turn's abort signal (a cancel sends
 * `notifications/cancelled`); what comes back is labelled untrusted and cut to the output budget,
 * keeping head and tail. MCP tools are made at run time, so this builds the capability itself
 * rather than through defineTool, with the same result handling.
 */
import { mcpManagerFrom, type McpManager } from "../../mcp/manager.js";
import { callMcpTool, type McpProgress } from "../../mcp/operations.js";
import type { ReadCall } from "../../mcp/content.js";
import type { McpToolEntry } from "../../mcp/tool-entries.js";
import { MCP_ASKED_EVERY_TIME } from "../../policy/gate.js";
import { errorResult, ToolError, truncateResult } from "../define-tool.js";
import type { Capability, ToolContext } from "../types.js";

/** The capability of `entry`; `readCall` says how a resource link is followed. */
export function mcpCapability(entry: McpToolEntry, manager: McpManager, readCall: ReadCall): Capability {
  return {
    name: entry.name,
    description: entry.description,
    inputSchema: entry.inputSchema,
    kind: "mcp",
    policyClass: entry.policyClass,
    category: "mcp",
    hiddenFromAgent: entry.hidden,
    isMutating: entry.policyClass !== "read_only",
    callKind: entry.policyClass === "read_only" ? "read" : "other",
    metadata: { server: entry.server, rawName: entry.rawName, deferred: entry.deferred, askEveryTime: MCP_ASKED_EVERY_TIME },
    title: () => `${entry.server}: ${entry.title ?? entry.rawName}`,
    async execute(input, ctx) {
      if (ctx.signal.aborted) return errorResult("Cancelled before it started.");
      try {
        return truncateResult(await callMcpTool(manager, entry, input, ctx.signal, readCall, (p) => ctx.progress(progressLine(p))), ctx.outputBudget);
      } catch (err) {
        if (ctx.signal.aborted) return errorResult(`Cancelled: the MCP server "${entry.server}" was told to stop the call.`);
        return errorResult((err as Error).message);
      }
    },
  };
}

/** A server's progress report as the editor shows it: "progress 3/8: indexing" (the total when known). */
export function progressLine({ progress, total, message }: McpProgress): string {
  return `progress ${progress}${total !== undefined ? `/${total}` : ""}${message ? `: ${message}` : ""}`;
}

/** How a resource link is followed in each discovery mode. */
export function readCallFor(discovery: "mcp_tools" | "tool_search"): ReadCall {
  return discovery === "mcp_tools"
    ? (server, uri) => `mcp_tools(${JSON.stringify({ read: { server, uri } })})`
    : (server, uri) => `read_mcp_resource(${JSON.stringify({ server, uri })})`;
}

/** The runtime's MCP manager, or a tool error when it has none. */
export function requireMcpManager(ctx: ToolContext): McpManager {
  const manager = mcpManagerFrom(ctx.services);
  if (!manager) throw new ToolError("MCP is not available in this runtime.");
  return manager;
}
