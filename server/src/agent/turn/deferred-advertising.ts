/**
 * What of the offered tools a model call advertises: deferred tools (MCP tools by default) only
 * once the session activated them, so hundreds of schemas never ride along with every request.
 * The rest are named compactly in the system prompt, and a `tool_call` to one is unwrapped before
 * the gate, so the gate, the editor and the history see the real tool.
 */
import type { Config } from "../../config/schema.js";
import type { AssistantBlock, ToolCallBlock } from "../../vocabulary/messages.js";
import { isDeferred } from "../../tools/mcp/deferred-tools.js";
import type { ToolRegistry } from "../../tools/registry.js";
import { toolCallTarget } from "../../tools/mcp/tool-call.js";
import type { Capability } from "../../tools/types.js";
import type { Session } from "../session.js";

/** The offered tools a model call advertises directly. */
export function advertisedTools(offered: readonly Capability[], session: Session): Capability[] {
  return offered.filter((c) => !isDeferred(c) || session.activatedTools.has(c.name));
}

/** The deferred tools not yet advertised, named per server for the system prompt; undefined when none. */
export function deferredToolList(offered: readonly Capability[], session: Session, discovery: Config["mcp"]["discovery"]): string | undefined {
  const waiting = offered.filter((c) => isDeferred(c) && !session.activatedTools.has(c.name));
  if (!waiting.length) return undefined;
  const byServer = new Map<string, string[]>();
  for (const c of waiting) {
    const server = String(c.metadata.server ?? "other");
    byServer.set(server, [...(byServer.get(server) ?? []), String(c.metadata.rawName ?? c.name)]);
  }
  const how =
    discovery === "mcp_tools"
      ? 'These MCP tools are available but not loaded. Activate the ones you need with mcp_tools ({"activate": ["server.tool"]}), or search with {"query": ...}:'
      : "These MCP tools are available but not loaded. Find them with tool_search, see one with tool_describe, call one with tool_call:";
  return [how, ...[...byServer].map(([server, tools]) => `- ${server}: ${tools.join(", ")}`)].join("\n");
}

/**
 * Each `tool_call` naming a registered tool becomes a call of that tool (its input the
 * `arguments`), keeping the call as written for the history's replay to the model; the tool is
 * advertised directly from then on.
 */
export function unwrapToolCalls(blocks: AssistantBlock[], registry: ToolRegistry, session: Session): AssistantBlock[] {
  return blocks.map((block) => {
    if (block.type !== "tool_call") return block;
    const target = toolCallTarget(block);
    if (!target || target.name === block.name || !registry.find(target.name)) return block;
    session.activate([target.name]);
    const unwrapped: ToolCallBlock = { ...block, name: target.name, input: target.input, native: { name: block.name, input: block.input } };
    return unwrapped;
  });
}
