/**
 * What the file tools share: turning Workspace errors into tool errors, asking the gate before
 * reading outside the project, and describing an applied change set to the model.
 */
import type { ApplyOptions, ApplyResult } from "../../workspace/change-set.js";
import { WorkspaceError } from "../../workspace/errors.js";
import type { ResolvedPath } from "../../workspace/paths.js";
import type { ReadResult } from "../../workspace/workspace.js";
import { ToolError, textResult } from "../define-tool.js";
import type { ToolContext, ToolResult } from "../types.js";

/** Most characters of diff quoted back to the model in a result. */
const MAX_DIFF_IN_RESULT = 6000;

/** Runs a tool body, turning a WorkspaceError (a message for the model) into a ToolError. */
export async function withWorkspaceErrors<T>(body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (err) {
    if (err instanceof WorkspaceError) throw new ToolError(err.message);
    throw err;
  }
}

/** The Workspace's apply options for a tool call. */
export function applyOptions(ctx: ToolContext, extra: Partial<ApplyOptions> = {}): ApplyOptions {
  return { sessionId: ctx.sessionId, authorize: (a) => ctx.authorize(a), signal: ctx.signal, ...extra };
}

/** Resolves a path to read, asking the gate first when it lies outside the project. */
export async function resolveForRead(ctx: ToolContext, input: string): Promise<ResolvedPath> {
  const resolved = await ctx.workspace.resolve(input);
  if (resolved.external) {
    const decision = await ctx.authorize({ kind: "external_path", path: resolved.abs, access: "read" });
    if (!decision.allowed) throw new ToolError(`Reading ${resolved.abs} was not allowed: ${decision.reason}`);
  }
  return resolved;
}

/** Refuses a binary file for a tool that edits text; returns the read when it is text. */
export function refuseBinary<T extends ReadResult | undefined>(read: T, tool: string): T {
  if (read?.binary) throw new ToolError(`${read.path.rel} is a binary file; ${tool} changes text files only.`);
  return read;
}

/** "+3 -1" for a count of added and removed lines. */
export function lineDelta(additions: number, deletions: number): string {
  return `+${additions} -${deletions}`;
}

/** Where the change landed, in words the model can relay: saved or not, as the disk says after the change. */
function placeNote(result: ApplyResult): string | undefined {
  const inEditor = result.files.filter((f) => f.via === "editor");
  const unsaved = inEditor.filter((f) => !f.saved).map((f) => f.path);
  const saved = inEditor.filter((f) => f.saved).map((f) => f.path);
  const notes: string[] = [];
  if (unsaved.length) notes.push(`Changed in the editor's buffer (not saved to disk yet): ${listed(unsaved)}.`);
  if (saved.length) notes.push(`Changed in the editor, which saved it to disk: ${listed(saved)}.`);
  return notes.length ? notes.join(" ") : undefined;
}

/** Most paths named in one line of a result; the rest are counted. */
const MAX_LISTED = 20;

/** Paths joined, at most {@link MAX_LISTED}, with a count of the rest. */
function listed(paths: readonly string[]): string {
  if (paths.length <= MAX_LISTED) return paths.join(", ");
  return `${paths.slice(0, MAX_LISTED).join(", ")} and ${paths.length - MAX_LISTED} more`;
}

/** The diff, cut to a size a result can carry. */
function quotedDiff(diff: string): string {
  if (diff.length <= MAX_DIFF_IN_RESULT) return diff;
  return `${diff.slice(0, MAX_DIFF_IN_RESULT)}\n[... diff cut: ${diff.length - MAX_DIFF_IN_RESULT} more characters]\n`;
}

/** Most characters of a result's headline (a tool may list every match or file in it). */
const MAX_HEADLINE = 2000;

/** The headline, cut to {@link MAX_HEADLINE} with a note of how much was left out. */
function cappedHeadline(headline: string): string {
  if (headline.length <= MAX_HEADLINE) return headline;
  const cut = headline.lastIndexOf("\n", MAX_HEADLINE);
  const head = headline.slice(0, cut > MAX_HEADLINE / 2 ? cut : MAX_HEADLINE);
  return `${head}\n[... ${headline.length - head.length} more characters of this list left out]`;
}

/** The files a change set wrote, root-relative (deleted files have nothing left to diagnose). */
function writtenFiles(result: ApplyResult): string[] {
  return result.files.filter((f) => f.status !== "D").map((f) => f.path);
}

/**
 * A result for an applied change set: the headline, any notes, where it landed, the checkpoint
 * and the diff (also attached for the editor's tool_call_update).
 */
export function changeResult(headline: string, result: ApplyResult, options: { showDiff?: boolean } = {}): ToolResult {
  if (!result.changed) {
    return textResult([`No changes: the file already has that content.`, ...result.notes].join("\n"));
  }
  const lines = [cappedHeadline(headline), ...result.notes];
  const place = placeNote(result);
  if (place) lines.push(place);
  if (result.checkpointId) lines.push(`Checkpoint ${result.checkpointId} (the user can /undo this change).`);
  if (options.showDiff ?? true) lines.push("", quotedDiff(result.diff).trimEnd());
  return textResult(lines.join("\n"), { diff: result.diff, changedFiles: writtenFiles(result), ...(result.texts ? { texts: result.texts } : {}) });
}
