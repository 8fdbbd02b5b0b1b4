/**
 * search_files: a regular expression over the contents of the files in a folder, .gitignore
 * respected, open documents searched as the editor has them. Results are grouped by file with
 * line numbers and a line of context, and bounded.
 */
import { stat } from "node:fs/promises";
import { z } from "zod";
import { lazySchema } from "../../util/lazy-schema.js";
import { uriToPath } from "../../workspace/paths.js";
import { fileGlobMatcher } from "../../workspace/glob.js";
import { searchFiles, type FileHits } from "../../workspace/search.js";
import { defineTool, ToolError, textResult } from "../define-tool.js";
import { resolveForRead, withWorkspaceErrors } from "./file-tool-support.js";
import type { ToolContext } from "../types.js";

/** Most matching lines reported. */
const MAX_SEARCH_MATCHES = 300;
/** Longest line quoted in a result. */
const MAX_QUOTED_LINE = 300;

const input = lazySchema(() => z.object({
  path: z.string().optional().describe("The folder to search, relative to the project root. Default: the root."),
  regex: z.string().min(1).describe("JavaScript regular expression to find (case-sensitive; start with (?i) to ignore case)."),
  file_pattern: z.string().optional().describe("Only files whose name matches this glob, e.g. '*.ts' or 'src/**/*.{js,ts}'."),
}));

/** Compiles the model's regex; `(?i)` at the start (as in grep -P and ripgrep) ignores case. */
function compileSearchRegex(source: string): RegExp {
  const insensitive = source.startsWith("(?i)");
  const body = insensitive ? source.slice(4) : source;
  try {
    return new RegExp(body, insensitive ? "iu" : "u");
  } catch {
    try {
      return new RegExp(body, insensitive ? "i" : "");
    } catch (err) {
      throw new ToolError(`Invalid regular expression /${body}/: ${(err as Error).message}. Use JavaScript regex syntax.`);
    }
  }
}

/** The open documents, by absolute path. */
async function openBuffers(ctx: ToolContext): Promise<Map<string, string>> {
  const overlay = new Map<string, string>();
  for (const doc of await ctx.editor.openDocuments()) {
    const abs = uriToPath(doc.uri);
    if (abs) overlay.set(abs, doc.text);
  }
  return overlay;
}

/** One file's block: its path, then `12:` for matches and `11-` for context, `--` between runs. */
function formatFile(file: FileHits): string {
  const out = [file.rel];
  let previous = 0;
  for (const l of file.lines) {
    if (previous && l.line > previous + 1) out.push("--");
    const text = l.text.length > MAX_QUOTED_LINE ? `${l.text.slice(0, MAX_QUOTED_LINE)}...` : l.text;
    out.push(`${l.line}${l.match ? ":" : "-"} ${text}`);
    previous = l.line;
  }
  return out.join("\n");
}

/** The search_files tool. */
export const searchFilesTool = defineTool({
  name: "search_files",
  description:
    "Search file contents in a folder (recursively) with a regular expression; results show each matching line with " +
    "its line number and a line of context. Files ignored by .gitignore are skipped; open editor buffers are " +
    `searched as they are (unsaved changes included). At most ${MAX_SEARCH_MATCHES} matches.`,
  input,
  policyClass: "read_only",
  callKind: "search",
  category: "file",
  help: {
    whenToUse: "To find where something is defined or used across the project.",
    examples: ['{"regex": "function runTurn"}', '{"regex": "(?i)todo", "path": "src", "file_pattern": "*.ts"}'],
    failureModes: ["An invalid regular expression is refused with the reason.", "Over the match limit: the first matches come back with a note; narrow the path or pattern."],
  },
  title: (a) => `Search ${a.regex}${a.path ? ` in ${a.path}` : ""}`,
  execute: (args, ctx) =>
    withWorkspaceErrors(async () => {
      const regex = compileSearchRegex(args.regex);
      const dir = await resolveForRead(ctx, args.path ?? ".");
      const st = await stat(dir.real).catch(() => undefined);
      if (!st) throw new ToolError(`${dir.rel} does not exist.`);
      if (!st.isDirectory()) throw new ToolError(`${dir.rel} is a file; search_files searches folders (use read_file for one file).`);
      const matchesGlob = args.file_pattern ? await fileGlobMatcher(args.file_pattern) : undefined;
      const startRel = dir.rel === "." ? "" : `${dir.rel}/`;
      const out = await searchFiles({
        base: dir.external ? dir.abs : ctx.workspace.root,
        start: dir.abs,
        regex,
        filter: matchesGlob && ((rel) => matchesGlob(rel.startsWith(startRel) ? rel.slice(startRel.length) : rel)),
        overlay: await openBuffers(ctx),
        maxMatches: MAX_SEARCH_MATCHES,
        context: 1,
        signal: ctx.signal,
      });
      if (ctx.signal.aborted) throw new ToolError("Cancelled.");
      if (!out.matches) return textResult(`No matches in ${out.filesSearched} files.`);
      const head = `Found ${out.matches} matches in ${out.files.length} files${out.truncated ? ` (stopped at ${MAX_SEARCH_MATCHES}; narrow the search)` : ""}.`;
      return textResult([head, ...out.files.map(formatFile)].join("\n\n"));
    }),
});
