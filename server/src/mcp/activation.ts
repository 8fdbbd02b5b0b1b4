/**
 * The exact tool an activation id names: `server.tool` (the server's config name and the tool's
 * RAW or sanitised name) or `mcp__server__tool`. Never a fuzzy match: an id that names nothing
 * is refused with the nearest names of the catalog, so the model can retry with an exact one.
 */
import type { McpManager } from "./manager.js";
import type { McpToolEntry } from "./tool-entries.js";
import { editDistance } from "../util/edit-distance.js";

/** What an id names. */
export type ResolvedTool = { ok: true; entry: McpToolEntry } | { ok: false; reason: string; nearby: string[] };

/** The user-facing id of a tool: `server.tool`. */
export function toolId(entry: McpToolEntry): string {
  return `${entry.server}.${entry.rawName}`;
}

/** Resolves one id among the tools of the ready servers. */
export function resolveToolId(manager: McpManager, id: string): ResolvedTool {
  const tools = manager.tools();
  const exact = tools.find((t) => t.name === id || toolId(t) === id);
  if (exact) return { ok: true, entry: exact };
  const servers = manager.serverNames().filter((s) => id.startsWith(`${s}.`));
  for (const server of servers) {
    const rest = id.slice(server.length + 1);
    const entry = manager.toolsOf(server).find((t) => t.name.endsWith(`__${rest}`));
    if (entry) return { ok: true, entry };
    const connection = manager.connection(server)!;
    if (connection.state !== "ready") return { ok: false, reason: connection.unavailableReason(), nearby: [] };
    return { ok: false, reason: `the MCP server "${server}" has no tool "${rest}"`, nearby: nearest(id, tools) };
  }
  const prefix = id.match(/^mcp__([^_].*?)__/)?.[1];
  const known = prefix ? ` (no ready server's tools start with mcp__${prefix}__)` : "";
  return { ok: false, reason: `no tool is called "${id}"${known}`, nearby: nearest(id, tools) };
}

/** Up to three catalog ids closest to `id` by edit distance, when close enough to be a typo. */
function nearest(id: string, tools: readonly McpToolEntry[]): string[] {
  const wanted = id.toLowerCase();
  return tools
    .flatMap((t) => [toolId(t)].map((candidate) => ({ candidate, distance: Math.min(editDistance(wanted, candidate.toLowerCase()), editDistance(wanted, t.name.toLowerCase())) })))
    .filter((c) => c.distance <= Math.max(3, Math.floor(id.length / 3)) || c.candidate.toLowerCase().includes(wanted.split(".").pop() ?? wanted))
    .sort((a, b) => a.distance - b.distance || a.candidate.localeCompare(b.candidate))
    .slice(0, 3)
    .map((c) => c.candidate);
}
