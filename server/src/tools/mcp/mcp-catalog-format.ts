/**
 * How `mcp_tools` query results read: each candidate with what the model needs for its next call
 * and nothing more. Tools: the exact activation id, a short description, the required parameter
 * names, `[loaded]` when active. Resources: server, title, exact URI, type, and the read call.
 * Templates: `[template]`, the variables and the read-call shape. Prompts: the user-only command.
 */
import { toolId } from "../../mcp/activation.js";
import type { CatalogItem } from "../../mcp/catalog.js";

const SHORT = 160;

/** One candidate, as lines. */
export function formatCandidate(item: CatalogItem, loaded: (name: string) => boolean): string {
  switch (item.kind) {
    case "tool": {
      const e = item.entry;
      const required = Array.isArray(e.inputSchema.required) ? (e.inputSchema.required as string[]) : [];
      const tags = [loaded(e.name) || !e.deferred ? "[loaded]" : "", e.annotations?.readOnlyHint === true ? "[read-only]" : ""].filter(Boolean).join(" ");
      return [
        `tool ${toolId(e)}${tags ? ` ${tags}` : ""} — ${short(e.description)}`,
        `  required: ${required.length ? required.join(", ") : "none"}`,
        loaded(e.name) || !e.deferred ? `  call it as ${e.name}` : `  next: mcp_tools(${JSON.stringify({ activate: [toolId(e)] })})`,
      ].join("\n");
    }
    case "resource": {
      const r = item.resource;
      return [
        `resource ${item.server} "${r.title ?? r.name}" <${r.uri}>${r.mimeType ? ` (${r.mimeType})` : ""}${r.description ? ` — ${short(r.description)}` : ""}`,
        `  next: mcp_tools(${JSON.stringify({ read: { server: item.server, uri: r.uri } })})`,
      ].join("\n");
    }
    case "template": {
      const t = item.template;
      const variables = [...t.uriTemplate.matchAll(/\{[+#./;?&]?([^}]+)\}/g)].flatMap((m) => m[1]!.split(",").map((v) => v.replace(/\*$|:\d+$/, "")));
      const args = Object.fromEntries(variables.map((v) => [v, "..."]));
      return [
        `[template] ${item.server} "${t.title ?? t.name}" ${t.uriTemplate}${t.mimeType ? ` (${t.mimeType})` : ""}${t.description ? ` — ${short(t.description)}` : ""}`,
        `  variables: ${variables.join(", ") || "none"} (use values you know; ask the user rather than invent one)`,
        `  next: mcp_tools(${JSON.stringify({ read: { server: item.server, template: t.uriTemplate, arguments: args } })})`,
      ].join("\n");
    }
    case "prompt": {
      const p = item.prompt;
      const args = (p.arguments ?? []).map((a) => `${a.name}${a.required ? " (required)" : ""}${a.description ? `: ${short(a.description, 60)}` : ""}`);
      return [
        `prompt ${item.server} ${p.name}${p.description ? ` — ${short(p.description)}` : ""}`,
        `  arguments: ${args.length ? args.join("; ") : "none"}`,
        `  only the user can run it: /${item.command}${(p.arguments ?? []).map((a) => ` ${a.name}`).join("")}`,
      ].join("\n");
    }
  }
}

function short(text: string, max = SHORT): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
