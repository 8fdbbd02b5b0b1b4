/**
 * The language tools: the editor's own language servers put to the model's use. Each is
 * registered only when the editor serves the methods it needs (Neovim's plugin serves them all;
 * Helix and plain LSP clients serve none, so these tools are not offered there).
 */
import type { DocumentHost } from "../../editor/document-host.js";
import type { LanguageServiceMethod } from "../../protocol/method-names.js";
import { documentSymbolsTool } from "./document-symbols.js";
import { findDefinitionTool } from "./find-definition.js";
import { findReferencesTool } from "./find-references.js";
import { getDiagnosticsTool } from "./get-diagnostics.js";
import { hoverTool } from "./hover.js";
import type { ToolRegistry } from "../registry.js";
import { renameSymbolTool } from "./rename-symbol.js";
import type { Capability } from "../types.js";

/** Each language tool and the method it cannot work without. */
export const LANGUAGE_TOOLS: { tool: Capability; needs: LanguageServiceMethod }[] = [
  { tool: findDefinitionTool, needs: "textDocument/definition" },
  { tool: findReferencesTool, needs: "textDocument/references" },
  { tool: renameSymbolTool, needs: "textDocument/rename" },
  { tool: documentSymbolsTool, needs: "textDocument/documentSymbol" },
  { tool: hoverTool, needs: "textDocument/hover" },
  { tool: getDiagnosticsTool, needs: "textDocument/diagnostics" },
];

/** Registers the language tools `host` can serve; returns their names. */
export function registerLanguageTools(registry: ToolRegistry, host: Pick<DocumentHost, "languageService">): string[] {
  const served = host.languageService?.methods ?? [];
  const offered = LANGUAGE_TOOLS.filter((t) => served.includes(t.needs)).map((t) => t.tool);
  for (const tool of offered) registry.register(tool);
  return offered.map((t) => t.name);
}
