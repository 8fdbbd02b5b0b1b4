/**
 * tool_search (with `[mcp] discovery = "tool_search"`): BM25 over the deferred tools' names and
 * descriptions. Every match is promoted to direct advertisement for the rest of the session, so
 * the model can call it by name from its next step on.
 */
import { z } from "zod";
import { lazySchema } from "../../util/lazy-schema.js";
import { defineTool } from "../define-tool.js";
import { requireDeferredTools } from "./deferred-tools.js";
import { requireMcpManager } from "./mcp-tool.js";

const input = lazySchema(() => z.object({
  query: z.string().min(1).describe("What the tool should do, in a few words."),
  limit: z.number().int().min(1).max(20).optional().describe("Most matches (default 5, at most 20)."),
}));

/** The tool_search tool. */
export const toolSearchTool = defineTool({
  name: "tool_search",
  description:
    "Search the tools that are not loaded yet (those of MCP servers) by what they do. Matches become callable by name from your next step; tool_describe shows one's full schema, tool_call calls one by name.",
  input,
  policyClass: "read_only",
  category: "system",
  help: {
    whenToUse: "To find an MCP tool that is not loaded yet by what it does.",
    examples: ['{"query": "create a pull request"}'],
    failureModes: ["No match: the result says so; try other words."],
  },
  isMutating: false,
  callKind: "search",
  title: (i) => `Search tools: ${i.query}`,
  async execute(i, ctx) {
    const hits = requireMcpManager(ctx).searchDeferred(i.query, i.limit ?? 5);
    if (!hits.length) return `No deferred tool matches "${i.query}".`;
    requireDeferredTools(ctx).activate(
      ctx.sessionId,
      hits.map((h) => h.name),
    );
    const lines = hits.map((h) => {
      const required = Array.isArray(h.inputSchema.required) ? (h.inputSchema.required as string[]).join(", ") : "";
      return `${h.name} — ${h.description.replace(/\s+/g, " ").slice(0, 200)}${required ? `\n  required: ${required}` : ""}`;
    });
    return `${lines.join("\n")}\nThese are now loaded: call them by name from your next step.`;
  },
});
