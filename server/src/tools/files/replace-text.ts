/**
 * replace_text: a literal or regex replacement across every file matching a glob, as one change
 * set. By default a dry run that shows the diff; with `apply: true` the change is made (all files
 * or none), gated and checkpointed like any other.
 */
import { z } from "zod";
import { lazySchema } from "../../util/lazy-schema.js";
import { replaceText } from "../../edits/replace-text.js";
import type { FileOp } from "../../workspace/change-set.js";
import { breather } from "../../util/breathe.js";
import { unifiedDiff } from "../../workspace/diff.js";
import { fileGlobMatcher } from "../../workspace/glob.js";
import { walk } from "../../workspace/walk.js";
import type { ReadResult } from "../../workspace/workspace.js";
import { defineTool, ToolError, textResult } from "../define-tool.js";
import { applyOptions, changeResult, withWorkspaceErrors } from "./file-tool-support.js";
import type { ToolContext } from "../types.js";

/** Most files one replace_text may change. */
const MAX_REPLACE_FILES = 500;
/** Files listed by name in the result of an applied replacement; the rest are counted. */
const MAX_FILES_LISTED = 50;
/** Most characters of preview diff in a dry run. */
const MAX_PREVIEW = 12_000;

const input = lazySchema(() => z.object({
  glob: z.string().min(1).describe("Files to change, relative to the project root: '*.md' (any folder) or 'src/**/*.ts'."),
  find: z.string().min(1).describe("The text to find (or a JavaScript regex when regex is true)."),
  replace: z.string().describe("The replacement; with regex, $1 and $<name> insert groups."),
  regex: z.boolean().optional().describe("Treat find as a regular expression (flags g and m)."),
  apply: z.boolean().optional().describe("Make the change. Default false: only show what would change."),
}));

type Input = z.infer<typeof input>;

/** A file that would change. */
interface Planned {
  rel: string;
  /** The read the new text was computed from (the Workspace refuses it if the file changed since). */
  read: ReadResult;
  newText: string;
  count: number;
}

/** Works out the new text of every matching file. */
async function planReplacements(ctx: ToolContext, args: Input): Promise<Planned[]> {
  const matches = await fileGlobMatcher(args.glob);
  const rels: string[] = [];
  await walk({ base: ctx.workspace.root, start: ctx.workspace.root, recursive: true, signal: ctx.signal }, (e) => {
    // A link out of the project is neither shown in the preview nor changed.
    if (!e.isDir && !e.outside && matches(e.rel)) rels.push(e.rel);
  });
  if (ctx.signal.aborted) throw new ToolError("Cancelled.");
  const planned: Planned[] = [];
  for (const rel of rels) {
    const read = await ctx.workspace.readTextIfExists(rel);
    if (!read || read.binary) continue;
    const r = replaceText(read.text, { find: args.find, replace: args.replace, regex: args.regex });
    if (!r.ok) throw new ToolError(r.error);
    if (r.count > 0 && r.text !== read.text) planned.push({ rel, read, newText: r.text, count: r.count });
    if (planned.length > MAX_REPLACE_FILES) {
      throw new ToolError(`More than ${MAX_REPLACE_FILES} files would change; use a narrower glob.`);
    }
  }
  return planned;
}

/**
 * The diffs of the preview: files in turn until it is long enough (the rest are not diffed at
 * all), yielding to the event loop between files.
 */
async function previewDiff(planned: Planned[]): Promise<string> {
  const pause = breather(10);
  let diff = "";
  for (const [i, p] of planned.entries()) {
    await pause();
    diff += unifiedDiff(p.rel, p.rel, p.read.text, p.newText).text;
    if (diff.length > MAX_PREVIEW) {
      const rest = planned.length - i - 1;
      return `${diff.slice(0, MAX_PREVIEW)}\n[... preview cut${rest ? `; ${rest} more files not shown` : ""}]\n`;
    }
  }
  return diff;
}

/** The dry-run preview: counts and the diff. */
async function preview(planned: Planned[]): Promise<string> {
  const total = planned.reduce((n, p) => n + p.count, 0);
  const diff = await previewDiff(planned);
  const head = `Dry run: ${total} replacements in ${planned.length} files would be made. Call again with apply: true to make them.`;
  return [head, ...planned.map((p) => `  ${p.rel} (${p.count})`), "", diff.trimEnd()].join("\n");
}

/** The replace_text tool. */
export const replaceTextTool = defineTool({
  name: "replace_text",
  description:
    "Replace text (literal, or a regex with regex: true) in every file matching a glob, respecting .gitignore. " +
    "By default only previews the change as a diff; set apply: true to make it (all files or none).",
  input,
  policyClass: "read_write",
  // Every change goes through Workspace.apply, which asks the gate with the diff (docs/safety.md).
  metadata: { authorizesChanges: true },
  category: "file",
  help: {
    whenToUse: "To replace the same text across many files (a rename in docs, an import path); preview first, then apply: true.",
    examples: ['{"glob": "src/**/*.ts", "find": "oldName", "replace": "newName"}', '{"glob": "*.md", "find": "v(\\\\d+)", "replace": "version $1", "regex": true, "apply": true}'],
    failureModes: ["Without apply: true nothing changes (a preview).", "An invalid regex is refused with the reason."],
  },
  title: (a) => `Replace in ${a.glob}${a.apply ? "" : " (preview)"}`,
  execute: (args, ctx) =>
    withWorkspaceErrors(async () => {
      const planned = await planReplacements(ctx, args);
      if (!planned.length) return textResult(`No file matching ${args.glob} contains ${args.regex ? "a match for " : ""}${JSON.stringify(args.find)}.`);
      if (!args.apply) return textResult(await preview(planned));
      const ops: FileOp[] = planned.map((p) => ({ kind: "write", path: p.rel, text: p.newText, base: p.read }));
      const result = await ctx.workspace.apply({ tool: "replace_text", ops }, applyOptions(ctx));
      const total = planned.reduce((n, p) => n + p.count, 0);
      const shown = planned.slice(0, MAX_FILES_LISTED).map((p) => `  ${p.rel} (${p.count})`);
      const more = planned.length > MAX_FILES_LISTED ? [`  and ${planned.length - MAX_FILES_LISTED} more files`] : [];
      const headline = [`Replaced ${total} occurrences in ${planned.length} files:`, ...shown, ...more].join("\n");
      return changeResult(headline, result);
    }),
});
