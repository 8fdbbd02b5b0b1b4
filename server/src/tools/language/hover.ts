/**
 * hover: what the editor's language servers say of the symbol at a place: its type, signature
 * and documentation (textDocument/hover), as plain text.
 */
import { z } from "zod";
import { lazySchema } from "../../util/lazy-schema.js";
import { defineTool } from "../define-tool.js";
import { ask, positionInput, resolvePosition } from "./language-support.js";

const input = lazySchema(() => z.object({ ...positionInput }));

/** The text of hover contents: MarkupContent, MarkedString, or a list of them. */
export function hoverText(contents: unknown): string {
  if (typeof contents === "string") return contents;
  if (Array.isArray(contents)) return contents.map(hoverText).filter(Boolean).join("\n\n");
  const c = contents as { value?: unknown; language?: unknown } | null;
  if (!c || typeof c.value !== "string") return "";
  return typeof c.language === "string" ? `\`\`\`${c.language}\n${c.value}\n\`\`\`` : c.value;
}

/** The hover tool. */
export const hoverTool = defineTool({
  name: "hover",
  description:
    "Show the type, signature and documentation of the symbol at path:line:column (or the named `symbol` on that line), from the editor's own language servers.",
  input,
  policyClass: "read_only",
  category: "language",
  help: {
    whenToUse: "To learn a symbol's type, signature or documentation without reading its source.",
    examples: ['{"path": "src/app.ts", "line": 12, "symbol": "parseConfig"}'],
    failureModes: ["Nothing at that position, or no language server for the file: the result says so."],
  },
  callKind: "read",
  title: (a) => `Hover at ${a.path}:${a.line}`,
  async execute(args, ctx) {
    const at = await resolvePosition(ctx, args);
    const result = (await ask(ctx, "textDocument/hover", { textDocument: { uri: at.uri }, position: at.position })) as { contents?: unknown } | null;
    const text = hoverText(result?.contents).trim();
    return text || `The language servers have nothing to say about ${at.read.path.rel}:${args.line}:${at.position.character + 1}.`;
  },
});
