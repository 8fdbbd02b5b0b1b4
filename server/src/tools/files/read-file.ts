/**
 * read_file: a file's text with line numbers (`cat -n` style), the open buffer when the editor has
 * the file open. Long files come in pages with a note saying how to read on; PNG, JPEG, GIF and
 * WebP files (known by their first bytes) come back as images; other binary files are refused.
 */
import { readFile, stat } from "node:fs/promises";
import { z } from "zod";
import { lazySchema } from "../../util/lazy-schema.js";
import { splitBodies } from "../../edits/text.js";
import { describeSize, fitImage, toImageBlock } from "../../images/fit.js";
import { looksBinary, sniffImage } from "../../workspace/encoding.js";
import { describeFsError } from "../../workspace/errors.js";
import type { ResolvedPath } from "../../workspace/paths.js";
import { defineTool, ToolError, textResult } from "../define-tool.js";
import { resolveForRead, withWorkspaceErrors } from "./file-tool-support.js";
import type { ToolContext, ToolResult } from "../types.js";

/** Lines shown when no range is asked for. */
const DEFAULT_PAGE_LINES = 2000;
/** Longest line shown in full. */
const MAX_LINE_CHARS = 2000;
/** Largest image file read_file opens (it is then fitted to what providers accept). */
const MAX_IMAGE_FILE_BYTES = 50 * 1024 * 1024;

const input = lazySchema(() => z.object({
  path: z.string().min(1).describe("The file to read, relative to the project root (or absolute)."),
  start_line: z.number().int().min(1).optional().describe("First line to show (1-based). Default 1."),
  line_count: z.number().int().min(1).optional().describe(`How many lines to show. Default ${DEFAULT_PAGE_LINES}.`),
  view_range: z
    .array(z.number().int())
    .length(2)
    .optional()
    .describe("[first, last] lines to show, inclusive (1-based); last -1 reads to the end. Alternative to start_line/line_count."),
}));

type Input = z.infer<typeof input>;

/** The first line and the number of lines asked for. */
function requestedRange(args: Input): { start: number; count: number | undefined } {
  if (args.view_range && args.start_line === undefined) {
    const [first, last] = args.view_range as [number, number];
    if (first < 1) throw new ToolError("view_range: the first line is 1 or more.");
    if (last !== -1 && last < first) throw new ToolError("view_range: the last line must be -1 or not before the first.");
    return { start: first, count: last === -1 ? undefined : last - first + 1 };
  }
  return { start: args.start_line ?? 1, count: args.line_count };
}

/** One numbered line, cut when very long. */
function numbered(n: number, body: string): string {
  const shown = body.length > MAX_LINE_CHARS ? `${body.slice(0, MAX_LINE_CHARS)}... [${body.length - MAX_LINE_CHARS} more characters on this line]` : body;
  return `${String(n).padStart(6)}\t${shown}`;
}

/** Numbers lines of `text` from the requested range, within the output budget. */
function pageOfLines(text: string, start: number, count: number | undefined, budget: number, viewRange: boolean): string {
  const lines = splitBodies(text);
  if (text.endsWith("\n")) lines.pop();
  const total = lines.length;
  if (total === 0) return "(the file is empty)";
  if (start > total) {
    throw new ToolError(
      viewRange ? `view_range starts at line ${start}, past the end of the file (${total} lines).` : `start_line ${start} is past the end of the file (${total} lines).`,
    );
  }
  const wanted = Math.min(count ?? DEFAULT_PAGE_LINES, total - start + 1);
  const room = budget - 200;
  const out: string[] = [];
  let used = 0;
  for (let i = start - 1; i < start - 1 + wanted; i++) {
    const line = numbered(i + 1, lines[i]!);
    if (out.length > 0 && used + line.length + 1 > room) break;
    out.push(line);
    used += line.length + 1;
  }
  const last = start - 1 + out.length;
  if (last < total) {
    const next = viewRange ? `view_range [${last + 1}, -1]` : `start_line=${last + 1}`;
    out.push(`[Showing lines ${start}-${last} of ${total}. Read on with ${next}.]`);
  }
  return out.join("\n");
}

/**
 * An image result, fitted to what every provider accepts (a large photo is scaled down rather
 * than refused), or a refusal for a binary file that is not an image.
 */
async function binaryResult(path: ResolvedPath, bytes: Buffer): Promise<ToolResult> {
  const type = sniffImage(bytes);
  if (!type) {
    throw new ToolError(
      `${path.rel} is a binary file (${bytes.length} bytes); read_file shows text files and PNG, JPEG, GIF or WebP images only.`,
    );
  }
  if (bytes.length > MAX_IMAGE_FILE_BYTES) {
    throw new ToolError(`${path.rel} is a ${type} image of ${bytes.length} bytes, over the 50 MiB read_file opens; make a smaller copy to look at.`);
  }
  const fitted = await fitImage(bytes).catch((err: Error) => {
    throw new ToolError(`${path.rel} looks like a ${type} image but could not be decoded (${err.message}).`);
  });
  return {
    isError: false,
    content: [
      { type: "text", text: `[${type}, ${bytes.length} bytes, ${describeSize(fitted)}${fitted.mediaType !== type ? ` sent as ${fitted.mediaType}` : ""}]` },
      toImageBlock(fitted),
    ],
  };
}

/** Whether the disk file differs from the open buffer (the user has unsaved changes). */
async function hasUnsavedChanges(path: ResolvedPath, bufferText: string): Promise<boolean> {
  const disk = await readFile(path.real, "utf8").catch(() => undefined);
  return disk === undefined || disk.replace(/^\uFEFF/, "") !== bufferText;
}

async function execute(args: Input, ctx: ToolContext): Promise<ToolResult> {
  const path = await resolveForRead(ctx, args.path);
  const { start, count } = requestedRange(args);
  if (!(await ctx.editor.readDocument(path.uri))) {
    const st = await stat(path.real).catch((err: unknown) => {
      throw describeFsError(err, path.rel);
    });
    if (st.isDirectory()) throw new ToolError(`${path.rel} is a directory; use list_files to see what is in it.`);
    const head = await ctx.workspace.readBytes(path);
    if (sniffImage(head.bytes) || looksBinary(head.bytes)) return binaryResult(path, head.bytes);
  }
  const read = await ctx.workspace.readText(path);
  ctx.workspace.markRead(ctx.sessionId, read);
  // A call rewritten from Anthropic's text editor (`view`) is told about view_range, the field it has.
  let text = pageOfLines(read.text, start, count, ctx.outputBudget, ctx.nativeTool === "str_replace_based_edit_tool");
  if (read.source === "buffer" && (await hasUnsavedChanges(path, read.text))) {
    text += "\n[From the editor's buffer, which has unsaved changes.]";
  }
  return textResult(text);
}

/** The read_file tool. */
export const readFileTool = defineTool({
  name: "read_file",
  description:
    "Read a file of the project, with line numbers. Shows what the editor has (unsaved changes included). " +
    `Long files are shown ${DEFAULT_PAGE_LINES} lines at a time: use start_line and line_count (or view_range) to read on. ` +
    "PNG, JPEG, GIF and WebP images are returned as images.",
  input,
  policyClass: "read_only",
  category: "file",
  help: {
    whenToUse: "To read a file (what the editor shows, unsaved changes included) before changing it or to answer about it.",
    examples: ['{"path": "src/a.ts"}', '{"path": "src/a.ts", "start_line": 200, "line_count": 100}'],
    failureModes: ["A missing file is refused with the name; list_files shows what is there.", "Long files come a page at a time: read on with start_line."],
  },
  title: (a) => `Read ${a.path}`,
  execute: (args, ctx) => withWorkspaceErrors(() => execute(args, ctx)),
});
