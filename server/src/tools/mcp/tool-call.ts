/**
 * tool_call: calls a deferred tool by name. The agent loop unwraps it before the gate (so the
 * gate, the editor and the history see the real tool and its input); this body only runs when
 * the name is not a tool the session may call, and says so.
 */
import { z } from "zod";
import { lazySchema } from "../../util/lazy-schema.js";
import { defineTool, ToolError } from "../define-tool.js";

const input = lazySchema(() => z.object({
  name: z.string().min(1).describe("The tool to call (mcp__server__tool)."),
  arguments: z.record(z.string(), z.unknown()).optional().describe("Its input, as its schema describes."),
}));

/** The tool_call tool. */
export const toolCallTool = defineTool({
  name: "tool_call",
  description: "Call a tool that is not loaded yet, by name, with its input as `arguments` (see tool_search and tool_describe).",
  input,
  policyClass: "read_only",
  category: "system",
  help: {
    whenToUse: "To call a tool found with tool_search that is not loaded yet, by name.",
    examples: ['{"name": "mcp__github__list_issues", "arguments": {"repo": "a/b"}}'],
    failureModes: ["An unknown name is refused; find it with tool_search.", "Bad arguments come back as the tool's own input error."],
  },
  isMutating: false,
  title: (i) => `Call ${i.name}`,
  async execute(i) {
    throw new ToolError(`There is no tool named "${i.name}" to call. Find tools with tool_search.`);
  },
});

/** The input of a tool_call, when it is one. */
export function toolCallTarget(call: { name: string; input: unknown }): { name: string; input: unknown } | undefined {
  if (call.name !== toolCallTool.name) return undefined;
  const parsed = input.safeParse(call.input);
  return parsed.success ? { name: parsed.data.name, input: parsed.data.arguments ?? {} } : undefined;
}
