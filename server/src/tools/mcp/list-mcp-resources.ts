/**
 * list_mcp_resources: the resources of every resources-capable MCP server (or one), as JSON.
 * Registered while such a server is ready; asked every time in ask mode like any MCP access.
 */
import { z } from "zod";
import { lazySchema } from "../../util/lazy-schema.js";
import { untrustedLabel } from "../../mcp/content.js";
import { listMcpResources } from "../../mcp/operations.js";
import { MCP_ASKED_EVERY_TIME } from "../../policy/gate.js";
import { defineTool, ToolError } from "../define-tool.js";
import { requireMcpManager } from "./mcp-tool.js";

const input = lazySchema(() => z.object({ server: z.string().optional().describe("Only this server's resources.") }));

/** The list_mcp_resources tool. */
export const listMcpResourcesTool = defineTool({
  name: "list_mcp_resources",
  description: "List the resources (documents, records, files) MCP servers offer: server, uri, name, description and mimeType of each. A server whose listing fails reports its error in place.",
  input,
  policyClass: "external_api",
  category: "mcp",
  help: {
    whenToUse: "To see which documents and records the connected MCP servers offer before reading one.",
    examples: ["{}", '{"server": "docs"}'],
    failureModes: ["A server whose listing fails reports its error in place; the others are still listed."],
  },
  isMutating: false,
  callKind: "fetch",
  metadata: { askEveryTime: MCP_ASKED_EVERY_TIME },
  title: (i) => (i.server ? `MCP resources of ${i.server}` : "MCP resources"),
  async execute(i, ctx) {
    try {
      const json = await listMcpResources(requireMcpManager(ctx), i.server, ctx.signal);
      return `${untrustedLabel({ server: i.server ?? "every server", what: "resource list" })}\n${json}`;
    } catch (err) {
      if (ctx.signal.aborted) throw err;
      throw new ToolError((err as Error).message);
    }
  },
});
