/**
 * apply_patch: multi-file, multi-hunk changes in either the `*** Begin Patch` envelope or plain
 * unified diffs. The edits/ engine parses and applies the whole patch in memory first (every
 * hunk of every file must match); only then does the result become one change set, so a patch
 * changes all its files or none.
 */
import { z } from "zod";
import { lazySchema } from "../../util/lazy-schema.js";
import { applyPatchOps, patchPaths, type PatchFileResult } from "../../edits/patch-apply.js";
import { parsePatch } from "../../edits/patch-parse.js";
import type { FileOp } from "../../workspace/change-set.js";
import type { ReadResult } from "../../workspace/workspace.js";
import { defineTool, ToolError } from "../define-tool.js";
import { applyOptions, changeResult, withWorkspaceErrors, refuseBinary } from "./file-tool-support.js";
import type { ToolContext } from "../types.js";

const input = lazySchema(() => z.object({
  patch: z
    .string()
    .min(1)
    .describe(
      "The patch: either '*** Begin Patch' ... '*** End Patch' with '*** Add File: p', '*** Update File: p' " +
        "(optionally '*** Move to: q'), '*** Delete File: p', '@@' context anchors and ' '/'-'/'+' lines; or a unified diff " +
        "('--- a/p', '+++ b/p', '@@ -a,b +c,d @@'), several files allowed, /dev/null for new and deleted files.",
    ),
}));

/** Reads every path the patch needs (undefined for missing files). */
async function currentFiles(ctx: ToolContext, paths: string[]): Promise<{ texts: Map<string, string | undefined>; reads: Map<string, ReadResult> }> {
  const texts = new Map<string, string | undefined>();
  const reads = new Map<string, ReadResult>();
  for (const p of paths) {
    const read = refuseBinary(await ctx.workspace.readTextIfExists(p), "apply_patch");
    texts.set(p, read?.text);
    if (read) reads.set(p, read);
  }
  return { texts, reads };
}

/** The change-set operation of one patched file. */
function toOp(r: PatchFileResult, reads: Map<string, ReadResult>): FileOp {
  if (r.action === "D") return { kind: "delete", path: r.path };
  if (r.moveTo !== undefined) return { kind: "move", from: r.path, to: r.moveTo, text: r.newText, base: reads.get(r.path) };
  return { kind: "write", path: r.path, text: r.newText ?? "", base: reads.get(r.path) };
}

/** `A path`, `M path`, `M old -> new`, `D path`, with any fuzzy match below it. */
function describeFile(r: PatchFileResult): string {
  const line = `${r.action} ${r.path}${r.moveTo !== undefined ? ` -> ${r.moveTo}` : ""}`;
  return [line, ...r.fuzzy.map((f) => `  (${f})`)].join("\n");
}

/** The apply_patch tool. */
export const applyPatchTool = defineTool({
  name: "apply_patch",
  description:
    "Apply a patch that adds, deletes, moves or edits files, with any number of hunks. Accepts the '*** Begin Patch' " +
    "format and unified diffs. Context lines must match the files (whitespace and typographic differences are " +
    "forgiven and reported). The whole patch applies or nothing does.",
  input,
  policyClass: "read_write",
  // Every change goes through Workspace.apply, which asks the gate with the diff (docs/safety.md).
  metadata: { authorizesChanges: true },
  category: "file",
  help: {
    whenToUse: "Changes across several files or hunks at once, moves and deletions in one step; for one small change edit_file or replace_in_file is simpler.",
    examples: ['{"patch": "*** Begin Patch\\n*** Update File: src/a.ts\\n@@\\n-const x = 1;\\n+const x = 2;\\n*** End Patch"}'],
    failureModes: ["A context line that matches nowhere fails the whole patch (nothing applied) with the closest text: read the file again and redo the hunk.", "The user declines the change: nothing is applied."],
  },
  title: () => "Apply patch",
  execute: (args, ctx) =>
    withWorkspaceErrors(async () => {
      const speak = ctx.nativeTool === "apply_patch" ? inOperationTerms : (e: string) => e;
      const parsed = parsePatch(args.patch);
      if (!parsed.ok) throw new ToolError(speak(parsed.error));
      const { texts, reads } = await currentFiles(ctx, patchPaths(parsed.ops));
      const applied = applyPatchOps(parsed.ops, texts);
      if (!applied.ok) throw new ToolError(speak(applied.error));
      const result = await ctx.workspace.apply(
        { tool: "apply_patch", ops: applied.results.map((r) => toOp(r, reads)) },
        applyOptions(ctx),
      );
      const headline = ["Applied the patch:", ...applied.results.map(describeFile)].join("\n");
      return changeResult(headline, result);
    }),
});

/**
 * An error in the terms of OpenAI's native apply_patch, whose calls (one operation, a V4A `diff`)
 * reach this tool wrapped in a one-file envelope (providers/native/openai.ts): the envelope's two
 * header lines are not the model's, so "line 3 of the patch" is line 1 of its diff, and the
 * section names are the operation's type.
 */
export function inOperationTerms(error: string): string {
  return error
    .replace(/line (\d+) of the patch/g, (_, n: string) => `line ${Math.max(1, Number(n) - 2)} of the diff`)
    .replace(/\bUpdate File /g, "update_file ")
    .replace(/\bAdd File /g, "create_file ")
    .replace(/\bDelete File /g, "delete_file ");
}
