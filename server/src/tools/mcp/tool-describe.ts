/** tool_describe: the full definition (schema included) of one deferred tool, by name. */
import { z } from "zod";
import { lazySchema } from "../../util/lazy-schema.js";
import { defineTool, ToolError } from "../define-tool.js";
import { requireMcpManager } from "./mcp-tool.js";

const input = lazySchema(() => z.object({ name: z.string().min(1).describe("The tool's name, as tool_search gave it (mcp__server__tool).") }));

/** The tool_describe tool. */
export const toolDescribeTool = defineTool({
  name: "tool_describe",
  description: "Show the full definition (description and input schema) of one tool that is not loaded yet, by name.",
  input,
  policyClass: "read_only",
  category: "system",
  help: {
    whenToUse: "To see the full schema of a tool found with tool_search before calling it.",
    examples: ['{"name": "mcp__github__list_issues"}'],
    failureModes: ["A name that is not a deferred tool is refused."],
  },
  isMutating: false,
  callKind: "read",
  title: (i) => `Describe ${i.name}`,
  async execute(i, ctx) {
    const entry = requireMcpManager(ctx)
      .tools()
      .find((t) => t.name === i.name && !t.hidden);
    if (!entry) throw new ToolError(`There is no deferred tool named "${i.name}". Find tools with tool_search.`);
    return JSON.stringify({ name: entry.name, description: entry.description, inputSchema: entry.inputSchema }, null, 2);
  },
});
