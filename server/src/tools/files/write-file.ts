/**
 * write_file: create a file, or replace one the model has read, with the given content. Parent
 * folders are created. Goes through the Workspace like every change: one checkpointed,
 * all-or-nothing change set (an open document is replaced in the editor's buffer).
 */
import { z } from "zod";
import { lazySchema } from "../../util/lazy-schema.js";
import { countLines } from "../../edits/text.js";
import { defineTool } from "../define-tool.js";
import { applyOptions, changeResult, lineDelta, withWorkspaceErrors } from "./file-tool-support.js";

const input = lazySchema(() => z.object({
  path: z.string().min(1).describe("The file to write, relative to the project root (or absolute)."),
  content: z.string().describe("The complete new content of the file."),
}));

/** The write_file tool. */
export const writeFileTool = defineTool({
  name: "write_file",
  description:
    "Create a file with the given content, or replace the whole content of an existing file (read it first). " +
    "Creates missing parent folders. For changes to part of a file, use edit_file, replace_in_file or apply_patch.",
  input,
  policyClass: "read_write",
  // Every change goes through Workspace.apply, which asks the gate with the diff (docs/safety.md).
  metadata: { authorizesChanges: true },
  category: "file",
  help: {
    whenToUse: "To create a file, or replace a whole file you have read. For part of a file use edit_file, replace_in_file or apply_patch.",
    examples: ['{"path": "src/new.ts", "content": "export const x = 1;\\n"}'],
    failureModes: ["The user declines: nothing is written.", "A path outside the project is asked about (or refused in read-only modes)."],
  },
  title: (a) => `Write ${a.path}`,
  execute: (args, ctx) =>
    withWorkspaceErrors(async () => {
      const result = await ctx.workspace.apply(
        { tool: "write_file", ops: [{ kind: "write", path: args.path, text: args.content }] },
        applyOptions(ctx, { requireReadForOverwrite: true }),
      );
      const file = result.files[0];
      const lines = countLines(args.content);
      const headline =
        file?.status === "A"
          ? `Created ${file.path} (${lines} lines).`
          : `Wrote ${file?.path ?? args.path} (${lines} lines, ${lineDelta(file?.additions ?? 0, file?.deletions ?? 0)}).`;
      return changeResult(headline, result, { showDiff: file?.status !== "A" });
    }),
});
