/**
 * Commands read the disk, but the agent's edits to open documents stay in the editor's buffers
 * until saved: the agent would "run the tests" on code without its change. Before a command,
 * the buffers the agent changed and did not save are saved through the editor (config `[exec]
 * save_before_commands`); where they are not, the approval and the result say which files the
 * command will not see as the agent left them.
 */
import type { SaveBeforeCommands } from "../../config/schema.js";
import type { ResolvedPath } from "../../workspace/paths.js";
import { configFrom } from "../tool-config.js";
import type { ToolContext } from "../types.js";

/** What will happen to the unsaved agent changes when the command runs. */
export interface SavePlan {
  files: ResolvedPath[];
  /** They will be saved once the command is approved. */
  save: boolean;
  policy: SaveBeforeCommands;
}

/** Finds the unsaved agent changes and decides whether they can be saved. */
export async function planSave(ctx: ToolContext): Promise<SavePlan> {
  const policy = configFrom(ctx.services).exec.save_before_commands;
  const files = await ctx.workspace.unsavedEdits();
  return { files, policy, save: files.length > 0 && policy !== "never" && ctx.editor.canSaveDocuments };
}

/**
 * What the command's approval says about them. With "ask" the save is part of what is approved;
 * with "always" it is no question (the result says it happened); unsaved files are named.
 */
export function approvalNote(plan: SavePlan): string | undefined {
  if (!plan.files.length) return undefined;
  if (plan.save) return plan.policy === "ask" ? `and save ${count(plan.files)} first: ${names(plan.files)}` : undefined;
  return `${names(plan.files)} ${plan.files.length === 1 ? "has" : "have"} unsaved changes by the agent that the command will not see`;
}

/** After the approval: saves what the plan says, and returns what the result should say. */
export async function saveBeforeCommand(ctx: ToolContext, plan: SavePlan): Promise<string[]> {
  if (!plan.files.length) return [];
  if (!plan.save) {
    const why = plan.policy === "never" ? 'save_before_commands is "never"' : "this editor cannot save files on request";
    return [`Not saved (${why}): ${names(plan.files)}. The command sees them as they are on disk, without your unsaved changes.`];
  }
  const byUri = new Map(plan.files.map((f) => [f.uri, f]));
  const result = await ctx.editor.saveDocuments([...byUri.keys()], ctx.signal);
  const notes: string[] = [];
  const saved = result.saved.map((uri) => byUri.get(uri)!).filter(Boolean);
  if (saved.length) notes.push(`Saved ${names(saved)} before running the command.`);
  for (const f of result.failed) {
    notes.push(`Could not save ${byUri.get(f.uri)?.rel ?? f.uri} (${f.reason}): the command sees its content on disk, without your unsaved changes.`);
  }
  // Said to the user as well: files were written without a prompt naming them (full_access, auto).
  ctx.emit({ kind: "status", text: notes.join(" ") });
  return notes;
}

function names(files: ResolvedPath[]): string {
  return files.map((f) => f.rel).join(", ");
}

function count(files: ResolvedPath[]): string {
  return files.length === 1 ? "1 file" : `${files.length} files`;
}
