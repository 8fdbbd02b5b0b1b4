/**
 * find_definition: where a symbol is defined, from the editor's own language servers. At a place
 * (`path:line:column`, or the named `symbol` on that line: textDocument/definition), or by name
 * alone through the workspace's symbols (workspace/symbol, exact names first).
 */
import { z } from "zod";
import { lazySchema } from "../../util/lazy-schema.js";
import { defineTool, ToolError } from "../define-tool.js";
import { formatPlaces, placesOf, type Place } from "./language-locations.js";
import { ask, languageService, positionInput, resolvePosition } from "./language-support.js";
import type { ToolContext } from "../types.js";

const input = lazySchema(() => z.object({
  path: positionInput.path.optional().describe("The file where the symbol is used. Leave out (with `line`) to look the `symbol` up by name."),
  line: positionInput.line.optional(),
  column: positionInput.column,
  symbol: positionInput.symbol.describe("The symbol's name: on `line` when a path is given, else looked up in the whole workspace."),
}));

type Input = z.infer<typeof input>;

/** The find_definition tool. */
export const findDefinitionTool = defineTool({
  name: "find_definition",
  description:
    "Find where a symbol is defined, using the editor's own language servers: give path, line and column (or the `symbol` as written on that line), " +
    "or only `symbol` to look the name up among the workspace's symbols. Answers path:line:column and the line's text.",
  input,
  policyClass: "read_only",
  category: "language",
  help: {
    whenToUse: "To jump from a use of a symbol to where it is defined, exactly (imports and overloads resolved), or to find a name in the workspace.",
    examples: ['{"path": "src/app.ts", "line": 12, "symbol": "parseConfig"}', '{"symbol": "parseConfig"}'],
    failureModes: ["No definition found, or no language server for the file: the result says so; fall back to search_files."],
  },
  callKind: "search",
  title: (a) => (a.path ? `Definition at ${a.path}:${a.line ?? "?"}` : `Definition of ${a.symbol ?? "?"}`),
  async execute(args, ctx) {
    if (args.path !== undefined) return atPlace(ctx, args);
    if (!args.symbol) throw new ToolError("Give path and line (with column or symbol), or a symbol name to look up.");
    return byName(ctx, args.symbol);
  },
});

async function atPlace(ctx: ToolContext, args: Input): Promise<string> {
  if (args.line === undefined) throw new ToolError("With `path`, give `line` too (and `column` or `symbol`).");
  const at = await resolvePosition(ctx, { path: args.path!, line: args.line, column: args.column, symbol: args.symbol });
  const places = placesOf(await ask(ctx, "textDocument/definition", { textDocument: { uri: at.uri }, position: at.position }));
  if (!places.length) return `No definition found for the symbol at ${at.read.path.rel}:${args.line}.`;
  return formatPlaces(ctx, places, "definition");
}

async function byName(ctx: ToolContext, name: string): Promise<string> {
  if (!languageService(ctx).methods.includes("workspace/symbol")) {
    throw new ToolError("The editor cannot look symbols up by name; give path, line and column.");
  }
  const found = (await ask(ctx, "workspace/symbol", { query: name })) as { name?: string; location?: { uri?: string; range?: unknown } }[] | null;
  const symbols = Array.isArray(found) ? found : [];
  const exact = symbols.filter((s) => s.name === name);
  const chosen = exact.length ? exact : symbols;
  const places: Place[] = placesOf(chosen.map((s) => s.location));
  if (!places.length) return `No symbol named "${name}" in the workspace.`;
  const note = exact.length ? "" : `No symbol is named exactly "${name}"; these match the search:\n`;
  return note + (await formatPlaces(ctx, places, "definition"));
}
