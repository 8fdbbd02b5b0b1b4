/**
 * edit_file: replace `target_content` with `replacement_content` at one location (or every one
 * with `allow_multiple`), or insert after `insert_line`. The matching (exact, then more forgiving
 * steps) is the edits/ engine's; this tool reads the file through the Workspace (the editor's
 * buffer when open) and hands the result back as one change set.
 */
import { numberList } from "../../edits/number-list.js";
import { z } from "zod";
import { lazySchema } from "../../util/lazy-schema.js";
import { editText } from "../../edits/edit.js";
import { STEP_DESCRIPTIONS } from "../../edits/normalize.js";
import { EDIT_FILE_TERMS, TEXT_EDITOR_TERMS } from "../../edits/edit-terms.js";
import { defineTool, ToolError } from "../define-tool.js";
import { applyOptions, changeResult, lineDelta, withWorkspaceErrors, refuseBinary } from "./file-tool-support.js";

const input = lazySchema(() => z.object({
  path: z.string().min(1).describe("The file to edit, relative to the project root (or absolute)."),
  target_content: z
    .string()
    .describe("The exact text to replace, copied from the file (a part of a line works). Ignored with insert_line."),
  replacement_content: z.string().describe("The text to put in its place (or to insert, with insert_line)."),
  allow_multiple: z.boolean().optional().describe("Replace every match instead of requiring exactly one."),
  insert_line: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe("Insert replacement_content after this line number instead of replacing (0 inserts at the top)."),
}));

/** The edit_file tool. */
export const editFileTool = defineTool({
  name: "edit_file",
  description:
    "Edit one location of a file: replace target_content (which must match exactly one place, unless allow_multiple) " +
    "with replacement_content, or insert after insert_line. Matching forgives trailing whitespace, indentation and " +
    "typographic characters when an exact match fails, and says so. With no match, shows the closest region.",
  input,
  policyClass: "read_write",
  // Every change goes through Workspace.apply, which asks the gate with the diff (docs/safety.md).
  metadata: { authorizesChanges: true },
  category: "file",
  help: {
    whenToUse: "For one change in a file: a line, a block, an insertion after a line. For several places at once use replace_in_file or apply_patch.",
    examples: ['{"path": "src/a.ts", "target_content": "const x = 1;", "replacement_content": "const x = 2;"}', '{"path": "src/a.ts", "target_content": "", "insert_line": 0, "replacement_content": "// header\\n"}'],
    failureModes: ["No match: the closest region of the file comes back; read it and retry with its exact text.", "Several matches without allow_multiple: refused with the line numbers; add context to make it unique."],
  },
  title: (a) => `Edit ${a.path}`,
  execute: (args, ctx) =>
    withWorkspaceErrors(async () => {
      const read = refuseBinary(await ctx.workspace.readText(args.path), "edit_file");
      const edit = editText(read.text, {
        target: args.target_content,
        replacement: args.replacement_content,
        allowMultiple: args.allow_multiple,
        insertLine: args.insert_line,
        // Calls rewritten from Anthropic's text editor hear about old_str, not target_content.
        terms: ctx.nativeTool === "str_replace_based_edit_tool" ? TEXT_EDITOR_TERMS : EDIT_FILE_TERMS,
      });
      if (!edit.ok) throw new ToolError(`${read.path.rel}: ${edit.error}`);
      const result = await ctx.workspace.apply(
        { tool: "edit_file", ops: [{ kind: "write", path: args.path, text: edit.text, base: read }] },
        applyOptions(ctx),
      );
      const file = result.files[0];
      const delta = file ? ` (${lineDelta(file.additions, file.deletions)})` : "";
      const headline =
        edit.step === "insert"
          ? `Inserted into ${read.path.rel} after line ${args.insert_line}${delta}.`
          : `Edited ${read.path.rel}: replaced ${edit.count === 1 ? "1 match" : `${edit.count} matches`} at ${matchLines(edit.replacedAt)}, matched ${STEP_DESCRIPTIONS[edit.step]}${edit.indentNote ? `, ${edit.indentNote}` : ""}${delta}.`;
      return changeResult(headline, result);
    }),
});

/** "line 3", or "lines 3, 7" (the first few of many, then how many more). */
function matchLines(lines: readonly number[]): string {
  return `${lines.length === 1 ? "line" : "lines"} ${numberList(lines)}`;
}
