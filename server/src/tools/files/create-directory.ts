/**
 * create_directory: makes a folder and any missing parents, as a change set (so the gate sees it
 * and /undo removes the folders it created, when they are still empty).
 */
import { stat } from "node:fs/promises";
import { z } from "zod";
import { lazySchema } from "../../util/lazy-schema.js";
import { defineTool, ToolError, textResult } from "../define-tool.js";
import { applyOptions, withWorkspaceErrors } from "./file-tool-support.js";

const input = lazySchema(() => z.object({
  path: z.string().min(1).describe("The folder to create, relative to the project root (or absolute)."),
}));

/** The create_directory tool. */
export const createDirectoryTool = defineTool({
  name: "create_directory",
  description: "Create a folder, with any missing parent folders. Succeeds when it already exists.",
  input,
  policyClass: "read_write",
  // Every change goes through Workspace.apply, which asks the gate with the diff (docs/safety.md).
  metadata: { authorizesChanges: true },
  category: "file",
  help: {
    whenToUse: "To make an empty folder; write_file creates missing folders by itself.",
    examples: ['{"path": "src/components"}'],
    failureModes: ["A path outside the project is asked about (or refused in read-only modes).", "A file of that name is in the way: the result says so."],
  },
  title: (a) => `Create ${a.path}/`,
  execute: (args, ctx) =>
    withWorkspaceErrors(async () => {
      const resolved = await ctx.workspace.resolve(args.path);
      const st = await stat(resolved.real).catch(() => undefined);
      if (st && !st.isDirectory()) throw new ToolError(`${resolved.rel} exists and is a file, not a folder.`);
      if (st) return textResult(`${resolved.rel}/ already exists.`);
      const result = await ctx.workspace.apply({ tool: "create_directory", ops: [{ kind: "mkdir", path: args.path }] }, applyOptions(ctx));
      return textResult(`Created ${resolved.rel}/.${result.checkpointId ? ` Checkpoint ${result.checkpointId}.` : ""}`);
    }),
});
