/**
 * Every built-in tool carries the documentation tool_help returns (when to use it, examples,
 * failure modes), and every example is an input the tool accepts.
 */
import { rmSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { tempProject } from "../../helpers/agent-setup.js";
import { DEFAULT_CONFIG } from "../../../server/src/config/schema.js";
import { createRuntime } from "../../../server/src/agent/runtime.js";
import { HeadlessEditor } from "../../../server/src/editor/headless.js";
import { invalidExamples, type ToolHelp } from "../../../server/src/tools/define-tool.js";
import { liteDescription, LITE_TOOLS } from "../../../server/src/tools/profiles.js";
import { toolHelpText } from "../../../server/src/tools/session/tool-help.js";
import { generateImageTool } from "../../../server/src/tools/outside/generate-image.js";
import { listMcpResourcesTool } from "../../../server/src/tools/mcp/list-mcp-resources.js";
import { mcpToolsTool } from "../../../server/src/tools/mcp/mcp-tools.js";
import { readMcpResourceTool } from "../../../server/src/tools/mcp/read-mcp-resource.js";
import { toolCallTool } from "../../../server/src/tools/mcp/tool-call.js";
import { toolDescribeTool } from "../../../server/src/tools/mcp/tool-describe.js";
import { toolSearchTool } from "../../../server/src/tools/mcp/tool-search.js";
import { LANGUAGE_TOOLS } from "../../../server/src/tools/language/language-tools.js";

const root = tempProject();
const runtime = createRuntime({
  editor: new HeadlessEditor({ quiet: true }),
  root,
  config: () => ({ ...DEFAULT_CONFIG, tools: { ...DEFAULT_CONFIG.tools, computer: true }, images: { ...DEFAULT_CONFIG.images } }),
});
const registered = runtime.registry.list().filter((c) => c.kind === "builtin");
// Those registered only when configured (an image model, MCP servers, an editor's language
// servers) are checked all the same.
const conditional = [
  generateImageTool,
  mcpToolsTool,
  toolSearchTool,
  toolDescribeTool,
  toolCallTool,
  listMcpResourcesTool,
  readMcpResourceTool,
  ...LANGUAGE_TOOLS.map((t) => t.tool),
];
const builtins = [...registered, ...conditional.filter((c) => !registered.includes(c))];

afterAll(async () => {
  await runtime.dispose();
  rmSync(root, { recursive: true, force: true });
});

describe("tool documentation", () => {
  it.each(builtins.map((c) => [c.name, c] as const))("%s has help, with examples its schema accepts", (_name, capability) => {
    const help = capability.metadata.help as ToolHelp | undefined;
    expect(help?.whenToUse).toMatch(/\w/);
    expect(help?.examples.length).toBeGreaterThan(0);
    expect(help?.failureModes.length).toBeGreaterThan(0);
    expect(invalidExamples(capability)).toEqual([]);
    expect(toolHelpText(capability)).toContain("## Input schema");
  });

  it("every lite tool is a registered built-in, with a one-sentence description", () => {
    const names = builtins.map((c) => c.name);
    for (const name of LITE_TOOLS) {
      expect(names).toContain(name);
      const description = liteDescription(runtime.registry.find(name)!);
      expect(description.length).toBeLessThan(200);
      expect(description).toMatch(/[.!?]$/);
    }
  });
});
