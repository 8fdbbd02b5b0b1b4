/**
 * Turns a protocol prompt (text or blocks, plus optional editor context) into the neutral
 * content the model gets. Editor context (file, range, selected text, diagnostics) is spelled
 * out so the model knows exactly what the user is pointing at.
 */
import { fitImageBlock } from "../../images/fit.js";
import type { ContentBlock } from "../../vocabulary/messages.js";
import type { PromptParams } from "../../protocol/schemas.js";
import type { Workspace } from "../../workspace/workspace.js";

/** Converts the prompt and its context into content blocks. */
export async function buildPromptContent(params: PromptParams, workspace: Workspace): Promise<ContentBlock[]> {
  const blocks: ContentBlock[] = [];
  if (typeof params.prompt === "string") blocks.push({ type: "text", text: params.prompt });
  else {
    for (const b of params.prompt) {
      if (b.type === "text") blocks.push({ type: "text", text: b.text });
      else if (b.type === "image") blocks.push(await fittedPromptImage(b.mimeType, b.data));
      else blocks.push({ type: "text", text: await describeResource(b.uri, b.text, workspace) });
    }
  }
  if (params.context) blocks.push({ type: "text", text: await describeContext(params.context, workspace) });
  return blocks;
}

/**
 * A pasted picture, fitted like every other image. One that cannot be decoded is still sent as
 * given: the provider's own answer about it says more than a guess here.
 */
async function fittedPromptImage(mediaType: string, data: string): Promise<ContentBlock> {
  const block = { type: "image" as const, mediaType, data };
  return fitImageBlock(block).catch(() => block);
}

async function describeResource(uri: string, text: string | undefined, workspace: Workspace): Promise<string> {
  const resolved = await workspace.resolve(uri);
  const body = text ?? (await workspace.readText(resolved).then((r) => r.text).catch((e: Error) => `(could not read: ${e.message})`));
  return `<file path="${resolved.rel}">\n${body}\n</file>`;
}

async function describeContext(context: NonNullable<PromptParams["context"]>, workspace: Workspace): Promise<string> {
  const lines: string[] = ["<editor_context>"];
  if (context.uri) {
    const resolved = await workspace.resolve(context.uri);
    lines.push(`File: ${resolved.rel}`);
    if (context.range) {
      lines.push(`Range: ${lineSpan(context.range)}`);
      const selected = await selectedText(workspace, context.uri, context.range).catch(() => undefined);
      if (selected) lines.push("Selected text:", "```", selected, "```");
    }
  }
  for (const d of context.diagnostics ?? []) {
    const where = `line ${d.range.start.line + 1}`;
    const src = d.source ? `${d.source}: ` : "";
    lines.push(`Diagnostic (${where}): ${src}${d.message}${d.code !== undefined ? ` [${d.code}]` : ""}`);
  }
  lines.push("</editor_context>");
  return lines.join("\n");
}

/**
 * The lines a range covers, 1-based, in words. A range that ends at column 0 of a later line
 * (a whole-line selection: Helix's `x`, Vim's `V`) does not cover that line.
 */
export function lineSpan(range: { start: { line: number }; end: { line: number; character: number } }): string {
  const first = range.start.line + 1;
  const last = range.end.character === 0 && range.end.line > range.start.line ? range.end.line : range.end.line + 1;
  return first === last ? `line ${first}` : `lines ${first}-${last}`;
}

/** The text of `range` in the file (buffer first), by LSP positions. */
async function selectedText(
  workspace: Workspace,
  uri: string,
  range: NonNullable<NonNullable<PromptParams["context"]>["range"]>,
): Promise<string> {
  const { text } = await workspace.readText(uri);
  const lines = text.split("\n");
  const { start, end } = range;
  if (start.line === end.line) return (lines[start.line] ?? "").slice(start.character, end.character);
  const first = (lines[start.line] ?? "").slice(start.character);
  const middle = lines.slice(start.line + 1, end.line);
  const last = (lines[end.line] ?? "").slice(0, end.character);
  return [first, ...middle, last].join("\n");
}
