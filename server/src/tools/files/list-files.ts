/**
 * list_files: what is in a folder (optionally the whole tree below it), .gitignore respected,
 * folders marked with a trailing `/`. Bounded: a listing stops at a fixed number of entries, and
 * being breadth first, a cut listing still shows the top of the tree.
 */
import { stat } from "node:fs/promises";
import { z } from "zod";
import { lazySchema } from "../../util/lazy-schema.js";
import { walk } from "../../workspace/walk.js";
import { defineTool, ToolError, textResult } from "../define-tool.js";
import { resolveForRead, withWorkspaceErrors } from "./file-tool-support.js";

/** Most entries listed. */
export const MAX_LIST_ENTRIES = 1000;

const input = lazySchema(() => z.object({
  path: z.string().optional().describe("The folder to list, relative to the project root. Default: the root."),
  recursive: z.boolean().optional().describe("List everything below the folder, not only its direct entries."),
  max_depth: z.number().int().min(1).max(20).optional().describe("Without recursive: list this many levels below the folder (1: its own entries)."),
  hidden: z.boolean().optional().describe("Include entries whose name starts with a dot (default true)."),
}));

/** The list_files tool. */
export const listFilesTool = defineTool({
  name: "list_files",
  description:
    "List the files and folders in a folder of the project (folders end with '/'); recursive lists the whole tree. " +
    `Files ignored by .gitignore are left out. At most ${MAX_LIST_ENTRIES} entries.`,
  input,
  policyClass: "read_only",
  callKind: "search",
  category: "file",
  help: {
    whenToUse: "To see what is in a folder, or the tree below it (recursive).",
    examples: ['{"path": "src"}', '{"path": "src", "recursive": true}'],
    failureModes: ["A missing folder is refused with the name.", "Over the entry limit: the list is cut and says so; list a subfolder."],
  },
  title: (a) => `List ${a.path ?? "."}`,
  execute: (args, ctx) =>
    withWorkspaceErrors(async () => {
      const dir = await resolveForRead(ctx, args.path ?? ".");
      const st = await stat(dir.real).catch(() => undefined);
      if (!st) throw new ToolError(`${dir.rel} does not exist.`);
      if (!st.isDirectory()) throw new ToolError(`${dir.rel} is a file, not a folder; use read_file to read it.`);
      const base = dir.external ? dir.abs : ctx.workspace.root;
      const entries: string[] = [];
      const complete = await walk({ base, start: dir.abs, recursive: args.recursive ?? false, maxDepth: args.max_depth, skipHidden: args.hidden === false, signal: ctx.signal }, (e) => {
        if (entries.length >= MAX_LIST_ENTRIES) return false;
        entries.push(e.isDir ? `${e.rel}/` : e.rel);
      });
      if (ctx.signal.aborted) throw new ToolError("Cancelled.");
      if (!entries.length) return textResult(`${dir.rel === "." ? "The project root" : `${dir.rel}/`} is empty (or holds only ignored files).`);
      entries.sort();
      if (!complete) entries.push(`[Stopped at ${MAX_LIST_ENTRIES} entries; list a subfolder to see more.]`);
      return textResult(entries.join("\n"));
    }),
});
