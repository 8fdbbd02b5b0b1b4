/**
 * The catalog the model searches with `mcp_tools` `query`: every ready server's tools,
 * resources, resource templates and prompts, ranked by BM25 over their metadata (names and titles
 * weigh more than descriptions; a word also finds the words it starts). Content is never fetched
 * or searched. Built once per change of the servers, so a query only ranks.
 */
import { Bm25Index } from "../util/bm25.js";
import type { Prompt, Resource, ResourceTemplate } from "./sdk.js";
import type { McpToolEntry } from "./tool-entries.js";

/** What a query may be restricted to. */
export type CatalogKind = "tools" | "resources" | "prompts" | "all";

/** One thing a server offers. */
export type CatalogItem =
  | { kind: "tool"; id: string; server: string; entry: McpToolEntry }
  | { kind: "resource"; id: string; server: string; resource: Resource }
  | { kind: "template"; id: string; server: string; template: ResourceTemplate }
  | { kind: "prompt"; id: string; server: string; prompt: Prompt; command: string };

/** What one ready server contributes. */
export interface CatalogSource {
  server: string;
  tools: McpToolEntry[];
  resources: readonly Resource[];
  templates: readonly ResourceTemplate[];
  /** Each prompt with its slash command name. */
  prompts: readonly { prompt: Prompt; command: string }[];
}

const WEIGHTS = { name: 3, title: 3, uri: 2, description: 1 };

/** A searchable catalog. */
export class McpCatalog {
  private readonly items = new Map<string, CatalogItem>();
  private readonly index: Bm25Index;

  constructor(sources: readonly CatalogSource[]) {
    for (const s of sources) {
      for (const entry of s.tools) if (!entry.hidden) this.add({ kind: "tool", id: `tool:${entry.name}`, server: s.server, entry });
      for (const resource of s.resources) this.add({ kind: "resource", id: `resource:${s.server}:${resource.uri}`, server: s.server, resource });
      for (const template of s.templates) this.add({ kind: "template", id: `template:${s.server}:${template.uriTemplate}`, server: s.server, template });
      for (const p of s.prompts) this.add({ kind: "prompt", id: `prompt:${s.server}:${p.prompt.name}`, server: s.server, prompt: p.prompt, command: p.command });
    }
    this.index = new Bm25Index([...this.items.values()].map((item) => ({ id: item.id, fields: fieldsOf(item) })), { weights: WEIGHTS });
  }

  /** Number of items. */
  get size(): number {
    return this.items.size;
  }

  /** The best matches, best first; an empty query lists items in catalog order. */
  search(query: string, options: { kind?: CatalogKind; server?: string; limit: number }): CatalogItem[] {
    const accept = (item: CatalogItem) => kindMatches(item, options.kind ?? "all") && (!options.server || item.server === options.server);
    if (!query.trim()) return [...this.items.values()].filter(accept).slice(0, options.limit);
    return this.index.search(query, options.limit, (id) => accept(this.items.get(id)!)).map((hit) => this.items.get(hit.id)!);
  }

  private add(item: CatalogItem): void {
    this.items.set(item.id, item);
  }
}

function kindMatches(item: CatalogItem, kind: CatalogKind): boolean {
  if (kind === "all") return true;
  if (kind === "tools") return item.kind === "tool";
  if (kind === "prompts") return item.kind === "prompt";
  return item.kind === "resource" || item.kind === "template";
}

function fieldsOf(item: CatalogItem): Record<string, string> {
  switch (item.kind) {
    case "tool":
      return { name: `${item.entry.rawName} ${item.server}`, title: item.entry.title ?? "", description: item.entry.description };
    case "resource":
      return { name: item.resource.name, title: item.resource.title ?? "", uri: item.resource.uri, description: item.resource.description ?? "" };
    case "template":
      return { name: item.template.name, title: item.template.title ?? "", uri: item.template.uriTemplate, description: item.template.description ?? "" };
    case "prompt":
      return { name: `${item.prompt.name} ${item.server}`, title: item.prompt.title ?? "", description: item.prompt.description ?? "" };
  }
}
