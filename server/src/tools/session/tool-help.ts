/**
 * tool_help: one tool's whole documentation (description, when to use it, examples, failure
 * modes and input schema), so the descriptions sent with every request can stay short.
 */
import { z } from "zod";
import { lazySchema } from "../../util/lazy-schema.js";
import type { ToolHelp } from "../define-tool.js";
import { defineTool, ToolError } from "../define-tool.js";
import { sessionToolsOf } from "./session-tools.js";
import type { Capability } from "../types.js";

const input = lazySchema(() => z.object({ name: z.string().min(1).describe("The tool's name, exactly as offered.") }));

/** The tool_help tool. */
export const toolHelpTool = defineTool({
  name: "tool_help",
  description: "Show the full documentation of one of your tools: when to use it, examples, failure modes and its input schema.",
  input,
  policyClass: "read_only",
  callKind: "read",
  category: "system",
  isMutating: false,
  help: {
    whenToUse: "Before using a tool you are unsure of, or after a call failed in a way you do not understand.",
    examples: ['{"name": "replace_in_file"}'],
    failureModes: ["A name you are not offered is refused with the names you are offered."],
  },
  title: (i) => `Help: ${i.name}`,
  async execute(i, ctx) {
    const offered = sessionToolsOf(ctx, "tool_help").offeredTools(ctx.sessionId);
    const capability = offered.find((c) => c.name === i.name);
    if (!capability) throw new ToolError(`You are not offered a tool named "${i.name}". Your tools: ${offered.map((c) => c.name).join(", ")}.`);
    return toolHelpText(capability);
  },
});

/** A capability's documentation as tool_help shows it. */
export function toolHelpText(capability: Capability): string {
  const help = capability.metadata.help as ToolHelp | undefined;
  const lines = [`# ${capability.name}`, "", capability.description, "", `Policy class: ${capability.policyClass}; category: ${capability.category}.`];
  if (help) {
    lines.push("", "## When to use", help.whenToUse, "", "## Examples", ...help.examples.map((e) => `- ${e}`), "", "## Failure modes", ...help.failureModes.map((f) => `- ${f}`));
  } else {
    lines.push("", "(No further documentation: this tool comes from an MCP server; its description above is all its server gives.)");
  }
  lines.push("", "## Input schema", "```json", JSON.stringify(capability.inputSchema, null, 2), "```");
  return lines.join("\n");
}
