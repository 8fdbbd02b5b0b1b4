/**
 * replace_in_file: SEARCH/REPLACE blocks applied to one file (the edits/ engine's line rules),
 * as one change set. The result reports the original line range each block replaced.
 */
import { z } from "zod";
import { lazySchema } from "../../util/lazy-schema.js";
import { applySearchReplace, describeIndent, type BlockReport } from "../../edits/search-replace.js";
import { defineTool, ToolError } from "../define-tool.js";
import { applyOptions, changeResult, withWorkspaceErrors, refuseBinary } from "./file-tool-support.js";

const input = lazySchema(() => z.object({
  path: z.string().min(1).describe("The file to edit, relative to the project root (or absolute)."),
  diff: z
    .string()
    .min(1)
    .describe(
      "One or more blocks:\n------- SEARCH\n[lines to find]\n=======\n[lines to put instead]\n+++++++ REPLACE\n" +
        "Each SEARCH line matches a whole file line or its beginning (indentation may be omitted). " +
        "A line '....... SKIP' inside SEARCH covers every line up to the next SEARCH lines.",
    ),
}));

/** One line per block: the lines it replaced, with what SKIP removed, and anything not taken as written. */
function describeBlock(b: BlockReport): string {
  const range = b.endLine < b.startLine ? `the empty file` : `lines ${b.startLine}-${b.endLine}`;
  const skip = b.skipped ? ` (SKIP covered ${b.skipped} lines)` : "";
  const notes: string[] = [];
  if (b.droppedBlank) notes.push(blankNote(b.droppedBlank));
  if (b.reindented !== undefined) {
    notes.push(`REPLACE was indented by ${describeIndent(b.reindented)}, the indentation SEARCH left out of the matched lines`);
  }
  if (b.outdented !== undefined) {
    notes.push(`REPLACE was outdented by ${describeIndent(b.outdented)}, the indentation SEARCH had beyond the matched lines`);
  }
  if (b.mapped) notes.push("each REPLACE line was given the indentation of the file line it stands for, as SEARCH had lost its relative indentation");
  return `block ${b.block}: replaced ${range}${skip} with ${b.replacementLines} lines${notes.map((n) => `; ${n}`).join("")}`;
}

/** "1 at the start and 2 at the end". */
function ends(leading: number, trailing: number): string {
  return [leading ? `${leading} at the start` : "", trailing ? `${trailing} at the end` : ""].filter(Boolean).join(" and ");
}

function blankNote(d: NonNullable<BlockReport["droppedBlank"]>): string {
  const search = `SEARCH matched only without its blank lines (${ends(d.leading, d.trailing)})`;
  if (d.replaceLeading + d.replaceTrailing === 0) return `${search}; REPLACE was written as given`;
  return `${search}, so REPLACE's matching blank lines were dropped too (${ends(d.replaceLeading, d.replaceTrailing)})`;
}

/** The replace_in_file tool. */
export const replaceInFileTool = defineTool({
  name: "replace_in_file",
  description:
    "Edit a file with SEARCH/REPLACE blocks. Each block must match exactly one place; every matched line is " +
    "replaced in full by REPLACE (include indentation; when SEARCH matched only with its indentation forgiven, REPLACE " +
    "is moved by the same offset, or the block is refused). All blocks apply or none.",
  input,
  policyClass: "read_write",
  // Every change goes through Workspace.apply, which asks the gate with the diff (docs/safety.md).
  metadata: { authorizesChanges: true },
  category: "file",
  help: {
    whenToUse: "For several changes to one file in one call, each a SEARCH/REPLACE block matched by whole lines.",
    examples: ['{"path": "src/a.ts", "diff": "------- SEARCH\\nconst x = 1;\\n=======\\nconst x = 2;\\n+++++++ REPLACE"}'],
    failureModes: ["A block matching nowhere or in several places fails the whole call with the candidates: fix that block and send all again."],
  },
  title: (a) => `Edit ${a.path}`,
  execute: (args, ctx) =>
    withWorkspaceErrors(async () => {
      const resolved = await ctx.workspace.resolve(args.path);
      const read = refuseBinary(await ctx.workspace.readTextIfExists(resolved), "replace_in_file");
      if (!read) throw new ToolError(`${resolved.rel} does not exist. replace_in_file changes an existing file; to create one, use write_file.`);
      const edit = applySearchReplace(read.text, args.diff);
      if (!edit.ok) throw new ToolError(`${read.path.rel}: ${edit.error}`);
      const result = await ctx.workspace.apply(
        { tool: "replace_in_file", ops: [{ kind: "write", path: args.path, text: edit.text, base: read }] },
        applyOptions(ctx),
      );
      const headline = [`Edited ${read.path.rel}:`, ...edit.blocks.map(describeBlock)].join("\n");
      return changeResult(headline, result);
    }),
});
