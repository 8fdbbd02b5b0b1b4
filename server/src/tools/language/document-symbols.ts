/**
 * document_symbols: the outline of a file as the editor's language servers see it (classes,
 * functions, fields... with their lines), from textDocument/documentSymbol. Nested symbols are
 * indented under their parent.
 */
import { z } from "zod";
import { lazySchema } from "../../util/lazy-schema.js";
import { defineTool } from "../define-tool.js";
import { resolveForRead } from "../files/file-tool-support.js";
import { ask, positionInput } from "./language-support.js";

const input = lazySchema(() => z.object({ path: positionInput.path }));

/** Most symbols listed. */
const MAX_SYMBOLS = 500;

/** LSP SymbolKind names, by number. */
const KINDS = [
  "", "file", "module", "namespace", "package", "class", "method", "property", "field", "constructor", "enum", "interface", "function",
  "variable", "constant", "string", "number", "boolean", "array", "object", "key", "null", "enum member", "struct", "event", "operator", "type parameter",
];

interface SymbolNode {
  name?: string;
  kind?: number;
  detail?: string;
  range?: { start: { line: number; character: number } };
  selectionRange?: { start: { line: number; character: number } };
  location?: { range?: { start: { line: number; character: number } } };
  children?: SymbolNode[];
}

/** One line per symbol (depth-first), `line:column kind name detail`, indented by depth. */
export function outlineLines(symbols: SymbolNode[], depth = 0, out: string[] = []): string[] {
  const sorted = [...symbols].sort((a, b) => startOf(a).line - startOf(b).line || startOf(a).character - startOf(b).character);
  for (const s of sorted) {
    const at = startOf(s);
    const detail = s.detail ? ` ${s.detail}` : "";
    out.push(`${"  ".repeat(depth)}${at.line + 1}:${at.character + 1} ${KINDS[s.kind ?? 0] || "symbol"} ${s.name ?? "?"}${detail}`);
    if (s.children?.length) outlineLines(s.children, depth + 1, out);
  }
  return out;
}

function startOf(s: SymbolNode): { line: number; character: number } {
  return s.selectionRange?.start ?? s.range?.start ?? s.location?.range?.start ?? { line: 0, character: 0 };
}

/** The document_symbols tool. */
export const documentSymbolsTool = defineTool({
  name: "document_symbols",
  description:
    "List the symbols of a file (classes, functions, methods, fields... with line:column, nested ones indented) from the editor's own language servers.",
  input,
  policyClass: "read_only",
  category: "language",
  help: {
    whenToUse: "For an outline of one file from its language server (classes, functions, fields with positions) before reading or editing it.",
    examples: ['{"path": "server/src/agent/turn/turn.ts"}'],
    failureModes: ["No language server handles the file: the result says so; use list_code_definition_names or read_file instead."],
  },
  callKind: "read",
  title: (a) => `Symbols of ${a.path}`,
  async execute(args, ctx) {
    const resolved = await resolveForRead(ctx, args.path);
    const result = await ask(ctx, "textDocument/documentSymbol", { textDocument: { uri: resolved.uri } });
    const lines = outlineLines(Array.isArray(result) ? (result as SymbolNode[]) : []);
    if (!lines.length) return `The language servers list no symbols in ${resolved.rel}.`;
    const shown = lines.slice(0, MAX_SYMBOLS);
    const more = lines.length > shown.length ? `\n[... ${lines.length - shown.length} more symbols]` : "";
    return `${lines.length} symbol${lines.length === 1 ? "" : "s"} in ${resolved.rel}:\n${shown.join("\n")}${more}`;
  },
});
