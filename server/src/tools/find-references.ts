/**
 * find_references: every place the editor's language servers know that uses the symbol at
 * `path:line:column` (textDocument/references), as compact `path:line:column: line` entries.
 */
import { z } from "zod";
import { defineTool } from "./define-tool.js";
import { formatPlaces, placesOf } from "./language-locations.js";
import { ask, positionInput, resolvePosition } from "./language-support.js";

const input = z.object({
  ...positionInput,
  include_declaration: z.boolean().optional().describe("List the declaration too. Default true."),
});

/** The find_references tool. */
export const findReferencesTool = defineTool({
  name: "find_references",
  description:
    "Find every reference to the symbol at path:line:column (or the named `symbol` on that line), using the editor's own language servers " +
    "(exact, unlike a text search). Answers path:line:column and the line's text, sorted.",
  input,
  policyClass: "read_only",
  category: "language",
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
