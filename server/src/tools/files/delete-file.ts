/**
 * delete_file: removes one file as a checkpointed change set (so /undo brings it back). An open
 * document is deleted through the editor when it supports file operations.
 */
import { stat } from "node:fs/promises";
import { z } from "zod";
import { lazySchema } from "../../util/lazy-schema.js";
import { defineTool, ToolError } from "../define-tool.js";
import { applyOptions, changeResult, withWorkspaceErrors } from "./file-tool-support.js";

const input = lazySchema(() => z.object({
  path: z.string().min(1).describe("The file to delete, relative to the project root (or absolute)."),
}));

/** The delete_file tool. */
export const deleteFileTool = defineTool({
  name: "delete_file",
  description: "Delete a file (not a folder). The user can undo it with /undo.",
  input,
  policyClass: "read_write",
  callKind: "delete",
  // Every change goes through Workspace.apply, which asks the gate with the diff (docs/safety.md).
  metadata: { authorizesChanges: true },
  category: "file",
  help: {
    whenToUse: "To remove a file that should no longer exist; the user can undo it with /undo.",
    examples: ['{"path": "src/old-helper.ts"}'],
    failureModes: ["A folder or a missing file is refused with a message naming it.", "The user declines: nothing is deleted."],
  },
  title: (a) => `Delete ${a.path}`,
  execute: (args, ctx) =>
    withWorkspaceErrors(async () => {
      const resolved = await ctx.workspace.resolve(args.path);
      const st = await stat(resolved.abs).catch(() => undefined);
      if (st?.isDirectory()) throw new ToolError(`${resolved.rel} is a folder; delete_file deletes files only.`);
      const result = await ctx.workspace.apply({ tool: "delete_file", ops: [{ kind: "delete", path: args.path }] }, applyOptions(ctx));
      return changeResult(`Deleted ${resolved.rel}.`, result, { showDiff: false });
    }),
});
