/**
 * A ready server's tools as agent-lsp offers them: the config's filters applied to the RAW names
 * the server advertises, provider-safe unique names, normalised schemas, the policy class and
 * visibility the config gives each tool, and whether it waits behind discovery. A tool whose
 * schema no provider would accept is left out, with the reason kept for the log and `mcp list`.
 */
import type { PolicyClass } from "../vocabulary/policy.js";
import { toolNames } from "./names.js";
import { normalizeToolSchema } from "./schema.js";
import type { Tool } from "./sdk.js";
import type { McpServerSpec } from "./specs.js";

/** One MCP tool, ready to become a capability. */
export interface McpToolEntry {
  /** `mcp__<server>__<tool>`. */
  name: string;
  /** The server's config name. */
  server: string;
  /** The name the server gave it. */
  rawName: string;
  title?: string;
  description: string;
  inputSchema: Record<string, unknown>;
  policyClass: PolicyClass;
  hidden: boolean;
  /** Advertised only once activated (or found by tool_search). */
  deferred: boolean;
  /** The server's own annotations (readOnlyHint, destructiveHint ...), shown as they are. */
  annotations?: Record<string, unknown>;
  /** The tool as the server listed it (the SDK validates results against its outputSchema). */
  definition: Tool;
}

/** What building the entries found. */
export interface ToolEntries {
  entries: McpToolEntry[];
  /** Tools left out, each with why. */
  skipped: string[];
}

/** Descriptions longer than this cost context on every request that advertises the tool. */
const MAX_DESCRIPTION = 2000;

/** The entries of one server's tools. */
export function toolEntries(spec: McpServerSpec, serverPart: string, tools: readonly Tool[]): ToolEntries {
  const kept = tools.filter((t) => (!spec.enabledTools || spec.enabledTools.includes(t.name)) && !spec.disabledTools.includes(t.name));
  const names = toolNames(serverPart, kept.map((t) => t.name));
  const entries: McpToolEntry[] = [];
  const skipped: string[] = [];
  kept.forEach((tool, i) => {
    const schema = normalizeToolSchema(tool.inputSchema);
    if (!schema.ok) {
      skipped.push(`${tool.name}: left out because ${schema.reason}`);
      return;
    }
    const settings = spec.tools[tool.name] ?? {};
    entries.push({
      name: names[i]!,
      server: spec.name,
      rawName: tool.name,
      ...(tool.title ? { title: tool.title } : {}),
      description: describe(tool),
      inputSchema: schema.schema,
      policyClass: settings.policyClass ?? "external_api",
      hidden: settings.hidden ?? false,
      deferred: spec.defer,
      ...(tool.annotations ? { annotations: tool.annotations as Record<string, unknown> } : {}),
      definition: tool,
    });
  });
  return { entries, skipped };
}

function describe(tool: Tool): string {
  const text = (tool.description ?? tool.title ?? "").trim() || `The ${tool.name} tool.`;
  return text.length > MAX_DESCRIPTION ? `${text.slice(0, MAX_DESCRIPTION - 1)}…` : text;
}
