/** docs/tools.md documents every built-in tool, under its own name. */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { commandTools } from "../../../server/src/tools/commands/command-tools.js";
import { fileTools } from "../../../server/src/tools/files/file-tools.js";
import { knowledgeTools } from "../../../server/src/tools/knowledge/knowledge-tools.js";
import { browserActionTool } from "../../../server/src/tools/outside/browser-action.js";
import { computerTool } from "../../../server/src/tools/outside/computer.js";
import { generateImageTool } from "../../../server/src/tools/outside/generate-image.js";
import { listMcpResourcesTool } from "../../../server/src/tools/mcp/list-mcp-resources.js";
import { mcpToolsTool } from "../../../server/src/tools/mcp/mcp-tools.js";
import { policyTools } from "../../../server/src/tools/session/policy-tools.js";
import { contextTools } from "../../../server/src/tools/session/context-tools.js";
import { longWorkTools } from "../../../server/src/tools/session/long-work-tools.js";
import { LITE_TOOLS } from "../../../server/src/tools/profiles.js";
import { readMcpResourceTool } from "../../../server/src/tools/mcp/read-mcp-resource.js";
import { toolCallTool } from "../../../server/src/tools/mcp/tool-call.js";
import { toolDescribeTool } from "../../../server/src/tools/mcp/tool-describe.js";
import { toolSearchTool } from "../../../server/src/tools/mcp/tool-search.js";
import { webFetchTool } from "../../../server/src/tools/outside/web-fetch.js";
import { webSearchTool } from "../../../server/src/tools/outside/web-search.js";
import { LANGUAGE_TOOLS } from "../../../server/src/tools/language/language-tools.js";

const doc = readFileSync(fileURLToPath(new URL("../../../docs/tools.md", import.meta.url)), "utf8");

describe("docs/tools.md", () => {
  const mcpTools = [mcpToolsTool, toolSearchTool, toolDescribeTool, toolCallTool, listMcpResourcesTool, readMcpResourceTool];
  const outsideTools = [webFetchTool, webSearchTool, browserActionTool, computerTool, generateImageTool];
  const languageTools = LANGUAGE_TOOLS.map((t) => t.tool);
  it.each([...fileTools, ...commandTools, ...policyTools, ...contextTools, ...longWorkTools, ...knowledgeTools, ...mcpTools, ...outsideTools, ...languageTools].map((t) => t.name))("documents %s", (name) => {
    expect(doc).toContain(`\`${name}\``);
  });

  it("says which tools the lite profile offers, as profiles.ts lists them", () => {
    const table = doc.slice(doc.indexOf("### Profiles: `[tools] profile`"));
    const liteRows = table.split("\n").filter((l) => l.startsWith("| `") && l.trimEnd().endsWith("| yes |"));
    const documented = liteRows.flatMap((row) => [...row.split("|")[1]!.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]));
    expect(documented.sort()).toEqual([...LITE_TOOLS].sort());
  });
});
