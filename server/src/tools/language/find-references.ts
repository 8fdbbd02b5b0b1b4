/**
 * find_references: every place the editor's language servers know that uses the symbol at
 * `path:line:column` (textDocument/references), as compact `path:line:column: line` entries.
 */
import { z } from "zod";
import { lazySchema } from "../../util/lazy-schema.js";
import { defineTool } from "../define-tool.js";
import { formatPlaces, placesOf } from "./language-locations.js";
import { ask, positionInput, resolvePosition } from "./language-support.js";

const input = lazySchema(() => z.object({
  ...positionInput,
  include_declaration: z.boolean().optional().describe("List the declaration too. Default true."),
}));

/** The find_references tool. */
export const findReferencesTool = defineTool({
  name: "find_references",
  description:
    "Find every reference to the symbol at path:line:column (or the named `symbol` on that line), using the editor's own language servers " +
    "(exact, unlike a text search). Answers path:line:column and the line's text, sorted.",
  input,
  policyClass: "read_only",
  category: "language",
  help: {
    whenToUse: "Before changing a function's signature or behaviour: every place that uses it, exactly (no false matches in comments or strings).",
    examples: ['{"path": "src/config.ts", "line": 40, "symbol": "loadConfig"}', '{"path": "src/config.ts", "line": 40, "column": 17, "include_declaration": false}'],
    failureModes: ["The position holds no symbol, or no language server handles the file: the result says so; use search_files instead."],
  },
  callKind: "search",
  title: (a) => `References at ${a.path}:${a.line}`,
  async execute(args, ctx) {
    const at = await resolvePosition(ctx, args);
    const result = await ask(ctx, "textDocument/references", {
      textDocument: { uri: at.uri },
      position: at.position,
      context: { includeDeclaration: args.include_declaration ?? true },
    });
    const places = placesOf(result);
    if (!places.length) return `No references found at ${at.read.path.rel}:${args.line}.`;
    return formatPlaces(ctx, places, "reference");
  },
});
