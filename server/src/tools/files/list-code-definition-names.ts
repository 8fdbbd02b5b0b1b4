/**
 * list_code_definition_names: the top-level functions, classes and methods of a source file, or
 * of every source file directly in a folder, so a model can see the shape of code before reading
 * it. Line-based parsers (definitions/); the covered languages are listed in docs/tools.md.
 */
import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { lazySchema } from "../../util/lazy-schema.js";
import { definitionsOf, isSupportedSource, type Definition } from "../definitions/index.js";
import { defineTool, ToolError, textResult } from "../define-tool.js";
import { resolveForRead, withWorkspaceErrors } from "./file-tool-support.js";
import type { ToolContext } from "../types.js";

/** Most files of a folder parsed. */
const MAX_DEFINITION_FILES = 50;

const input = lazySchema(() => z.object({
  path: z.string().min(1).describe("A source file, or a folder whose source files (not subfolders) to list, relative to the project root."),
}));

/** One file's block: its path, then `line: definition`, methods indented. */
function formatFile(rel: string, defs: Definition[]): string {
  return [rel, ...defs.map((d) => `${"  ".repeat(d.depth + 1)}${d.line}: ${d.text}`)].join("\n");
}

/** Source files directly in a folder, sorted. */
async function sourceFilesIn(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && isSupportedSource(e.name))
    .map((e) => path.join(dir, e.name))
    .sort();
}

/** The definitions of one file as the Workspace reads it (open buffer first). */
async function fileBlock(ctx: ToolContext, abs: string): Promise<string | undefined> {
  const read = await ctx.workspace.readText(abs);
  if (read.binary) return undefined;
  const defs = definitionsOf(abs, read.text) ?? [];
  return defs.length ? formatFile(read.path.rel, defs) : undefined;
}

/** The list_code_definition_names tool. */
export const listCodeDefinitionNamesTool = defineTool({
  name: "list_code_definition_names",
  description:
    "List the top-level definitions (functions, classes, types) and class methods, with line numbers, of a source " +
    "file or of the source files directly in a folder. Covers TypeScript/JavaScript, Python, Go, Rust, Java, C/C++ and Ruby.",
  input,
  policyClass: "read_only",
  callKind: "search",
  category: "file",
  help: {
    whenToUse: "For an outline of a source file or folder before reading it: where the functions and classes are.",
    examples: ['{"path": "server/src/agent/turn/turn.ts"}', '{"path": "server/src/tools"}'],
    failureModes: ["A file of a language it does not cover is listed as such; read it instead."],
  },
  title: (a) => `Definitions in ${a.path}`,
  execute: (args, ctx) =>
    withWorkspaceErrors(async () => {
      const target = await resolveForRead(ctx, args.path);
      const st = await stat(target.real).catch(() => undefined);
      if (!st && !(await ctx.editor.readDocument(target.uri))) throw new ToolError(`${target.rel} does not exist.`);
      if (!st?.isDirectory()) {
        if (!isSupportedSource(target.abs)) throw new ToolError(`${target.rel}: this file type is not covered (see the tool's description).`);
        return textResult((await fileBlock(ctx, target.abs)) ?? `No definitions found in ${target.rel}.`);
      }
      const files = await sourceFilesIn(target.abs);
      const blocks: string[] = [];
      for (const file of files.slice(0, MAX_DEFINITION_FILES)) {
        const block = await fileBlock(ctx, file);
        if (block) blocks.push(block);
      }
      if (files.length > MAX_DEFINITION_FILES) {
        blocks.push(`[Only the first ${MAX_DEFINITION_FILES} of ${files.length} source files; ask for a single file or a subfolder.]`);
      }
      return textResult(blocks.length ? blocks.join("\n\n") : `No definitions found in the source files of ${target.rel}/.`);
    }),
});
