/**
 * What the language tools share: reaching the editor's language service, turning the model's
 * 1-based `path:line:column` (or a symbol named on that line) into an LSP position checked
 * against the file, and asking one method with every failure turned into a tool error.
 */
import type { LanguageService } from "../../editor/language-service.js";
import type { LanguageServiceMethod } from "../../protocol/method-names.js";
import type { ReadResult } from "../../workspace/workspace.js";
import { splitBodies } from "../../edits/text.js";
import { z } from "zod";
import { ToolError } from "../define-tool.js";
import { resolveForRead } from "../files/file-tool-support.js";
import type { ToolContext } from "../types.js";

/** The input fields that point at a symbol in a file. */
export const positionInput = {
  path: z.string().min(1).describe("The file, relative to the project root (or absolute)."),
  line: z.number().int().min(1).describe("The line of the symbol (1-based, as read_file numbers lines)."),
  column: z.number().int().min(1).optional().describe("The column of the symbol on that line (1-based). Give this or `symbol`."),
  symbol: z.string().min(1).optional().describe("The symbol's name as written on that line, when you do not know its column."),
};

/** A position the model gave, resolved against the file. */
export interface ResolvedPosition {
  read: ReadResult;
  uri: string;
  /** 0-based, as LSP counts. */
  position: { line: number; character: number };
}

/** The editor's language service, or a tool error saying there is none. */
export function languageService(ctx: ToolContext): LanguageService {
  const service = ctx.editor.languageService;
  if (!service) throw new ToolError("The editor does not share its language servers with agent-lsp (docs/tools.md, language tools).");
  return service;
}

/** Asks one method; a failure (no server, an error, a timeout) is a tool error with the reason. */
export async function ask(ctx: ToolContext, method: LanguageServiceMethod, params: unknown): Promise<unknown> {
  const answer = await languageService(ctx).request(method, params, ctx.signal);
  if (!answer.ok) throw new ToolError(answer.reason);
  return answer.result;
}

/** The lines of a text, without terminators (a final newline ends the last line, it starts none). */
export function linesOf(text: string): string[] {
  const lines = splitBodies(text);
  if (lines.length > 1 && text.endsWith("\n")) lines.pop();
  return lines;
}

/** Resolves `path`, `line` and `column` (or `symbol`) to a checked LSP position. */
export async function resolvePosition(ctx: ToolContext, args: { path: string; line: number; column?: number | undefined; symbol?: string | undefined }): Promise<ResolvedPosition> {
  const resolved = await resolveForRead(ctx, args.path);
  const read = await ctx.workspace.readText(resolved);
  if (read.binary) throw new ToolError(`${resolved.rel} is a binary file.`);
  const lines = linesOf(read.text);
  const body = lines[args.line - 1];
  if (body === undefined) throw new ToolError(`Line ${args.line} is outside ${resolved.rel}, which has ${lines.length} line(s).`);
  const character = columnOf(body, args, resolved.rel);
  return { read, uri: resolved.uri, position: { line: args.line - 1, character } };
}

/** The 0-based character of the column or of the symbol's first whole-word occurrence. */
function columnOf(body: string, args: { line: number; column?: number | undefined; symbol?: string | undefined }, rel: string): number {
  if (args.column !== undefined) {
    if (args.column > body.length + 1) throw new ToolError(`Column ${args.column} is outside line ${args.line} of ${rel}, which has ${body.length} character(s).`);
    return args.column - 1;
  }
  if (!args.symbol) throw new ToolError("Give `column`, or the `symbol` as written on that line.");
  const escaped = args.symbol.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const match = new RegExp(`(?<![\\w$])${escaped}(?![\\w$])`).exec(body) ?? new RegExp(escaped).exec(body);
  if (!match) throw new ToolError(`"${args.symbol}" is not on line ${args.line} of ${rel}: ${JSON.stringify(body.trim().slice(0, 200))}.`);
  return match.index;
}
