/**
 * What a server offers, listed when it becomes ready: tools, resources, resource templates and
 * prompts, each list on its own (one that fails is a warning, not a failed server). The SDK
 * refuses a whole tools/list for one malformed tool; then the list is read again leniently and
 * only the malformed tools are left out, each with the reason.
 */
import { describeMcpError } from "./errors.js";
import type { ServerListing } from "./connection.js";
import type { Client, Sdk, Tool } from "./sdk.js";
import { z } from "zod";

/** Pages of a list walked before the server's pagination counts as broken (the SDK's own cap). */
const MAX_PAGES = 64;

const looseToolsPage = z.object({ tools: z.array(z.unknown()), nextCursor: z.string().optional() }).passthrough();

/** Everything the server lists. */
export async function listEverything(client: Client, sdk: Sdk): Promise<ServerListing> {
  const capabilities = client.getServerCapabilities() ?? {};
  const warnings: string[] = [];
  const list = async <T>(what: string, has: unknown, run: () => Promise<T[]>): Promise<T[]> => {
    if (!has) return [];
    try {
      return await run();
    } catch (err) {
      warnings.push(`listing its ${what} failed: ${describeMcpError(err)}`);
      return [];
    }
  };
  const [tools, resources, templates, prompts] = await Promise.all([
    list("tools", capabilities.tools, () => listTools(client, sdk, warnings)),
    list("resources", capabilities.resources, async () => (await client.listResources()).resources),
    list("resource templates", capabilities.resources, async () => (await client.listResourceTemplates()).resourceTemplates),
    list("prompts", capabilities.prompts, async () => (await client.listPrompts()).prompts),
  ]);
  return { capabilities, tools, resources, templates, prompts, warnings };
}

/** The server's tools: through the SDK, or leniently when the SDK refuses the list for one bad tool. */
async function listTools(client: Client, sdk: Sdk, warnings: string[]): Promise<Tool[]> {
  try {
    return (await client.listTools()).tools;
  } catch (err) {
    if ((err as { code?: unknown }).code !== "INVALID_RESULT") throw err;
  }
  const out: Tool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await client.request({ method: "tools/list", params: cursor ? { cursor } : {} }, looseToolsPage);
    for (const raw of result.tools) {
      const checked = await sdk.client.specTypeSchemas.Tool["~standard"].validate(raw);
      if (!checked.issues) out.push(checked.value as Tool);
      else warnings.push(`${nameOf(raw)}: left out because the server described it wrongly (${checked.issues.map(describeIssue).join("; ")})`);
    }
    cursor = result.nextCursor;
    if (!cursor) return out;
  }
  throw new Error(`its tools/list did not end after ${MAX_PAGES} pages`);
}

function nameOf(raw: unknown): string {
  const name = (raw as { name?: unknown } | null)?.name;
  return typeof name === "string" ? name : "a tool without a name";
}

function describeIssue(issue: { message: string; path?: readonly (PropertyKey | { key: PropertyKey })[] }): string {
  const where = (issue.path ?? []).map((p) => String(typeof p === "object" ? p.key : p)).join(".");
  return where ? `${where}: ${issue.message}` : issue.message;
}
