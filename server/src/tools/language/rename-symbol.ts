/**
 * rename_symbol: renames a symbol everywhere the editor's language servers know it. The servers
 * compute the rename (textDocument/prepareRename when served, then textDocument/rename); the
 * editor returns the WorkspaceEdit without applying it, and it is applied here through the
 * Workspace as one change set: reviewed with its diff like any edit, checkpointed (/undo), all
 * files or none.
 */
import { z } from "zod";
import { lazySchema } from "../../util/lazy-schema.js";
import { applyPositionEdits, type PositionEdit } from "../../edits/position-edits.js";
import type { FileOp } from "../../workspace/change-set.js";
import { uriToPath } from "../../workspace/paths.js";
import { defineTool, ToolError } from "../define-tool.js";
import { applyOptions, changeResult, refuseBinary, withWorkspaceErrors } from "../files/file-tool-support.js";
import { displayPath } from "./language-locations.js";
import { ask, languageService, positionInput, resolvePosition } from "./language-support.js";
import type { ToolContext } from "../types.js";

const input = lazySchema(() => z.object({
  ...positionInput,
  new_name: z.string().min(1).describe("The new name."),
}));

/** The text edits of one file, and where the file moves to when the rename moves it. */
interface FileEdits {
  uri: string;
  edits: PositionEdit[];
  moveTo?: string;
}

/** The edits of a WorkspaceEdit, file by file (`changes` and `documentChanges` alike). */
export function fileEditsOf(edit: unknown): FileEdits[] {
  const byUri = new Map<string, FileEdits>();
  const entry = (uri: string) => byUri.get(uri) ?? byUri.set(uri, { uri, edits: [] }).get(uri)!;
  const we = (edit ?? {}) as { changes?: Record<string, PositionEdit[]>; documentChanges?: Record<string, unknown>[] };
  for (const [uri, edits] of Object.entries(we.changes ?? {})) entry(uri).edits.push(...edits);
  for (const change of we.documentChanges ?? []) {
    if (change.kind === "rename") {
      const renamed = { ...entry(change.oldUri as string), moveTo: change.newUri as string };
      byUri.set(renamed.uri, renamed);
    } else if (change.kind === "create" || change.kind === "delete") {
      throw new ToolError(`The language server's rename would ${change.kind as string} a file; rename_symbol only edits and moves files.`);
    } else {
      const doc = change.textDocument as { uri: string };
      entry(doc.uri).edits.push(...((change.edits ?? []) as PositionEdit[]));
    }
  }
  return [...byUri.values()];
}

/** The change-set operation of one file's edits. */
async function opOf(ctx: ToolContext, file: FileEdits): Promise<FileOp> {
  const abs = uriToPath(file.uri);
  if (!abs) throw new ToolError(`The rename touches ${file.uri}, which is not a file.`);
  const read = refuseBinary(await ctx.workspace.readText(abs), "rename_symbol");
  const applied = applyPositionEdits(read.text, file.edits);
  if (!applied.ok) throw new ToolError(`The rename does not fit ${read.path.rel}: ${applied.error}. Read the file and try again.`);
  const to = file.moveTo && uriToPath(file.moveTo);
  return to ? { kind: "move", from: abs, to, text: applied.text, base: read } : { kind: "write", path: abs, text: applied.text, base: read };
}

/** Asks prepareRename when the editor serves it: a place that cannot be renamed is said at once. */
async function prepare(ctx: ToolContext, params: { textDocument: { uri: string }; position: { line: number; character: number } }, where: string): Promise<void> {
  if (!languageService(ctx).methods.includes("textDocument/prepareRename")) return;
  const answer = await ask(ctx, "textDocument/prepareRename", params);
  if (answer === null || answer === undefined) throw new ToolError(`The language servers cannot rename the symbol at ${where}.`);
}

/** The rename_symbol tool. */
export const renameSymbolTool = defineTool({
  name: "rename_symbol",
  description:
    "Rename the symbol at path:line:column (or the named `symbol` on that line) everywhere it is used, as the editor's own language servers " +
    "compute it. The change is reviewed and applied as one change set across all files, or not at all.",
  input,
  policyClass: "read_write",
  // Every change goes through Workspace.apply, which asks the gate with the diff (docs/safety.md).
  metadata: { authorizesChanges: true },
  category: "language",
  help: {
    whenToUse: "To rename a function, type or variable everywhere it is used, as the language server computes it (safer than text replacement).",
    examples: ['{"path": "src/config.ts", "line": 40, "symbol": "loadConfig", "new_name": "readConfig"}'],
    failureModes: ["The language server refuses the rename (not a symbol, an invalid name): nothing changes and its reason comes back.", "The user declines the change set: nothing changes."],
  },
  callKind: "edit",
  title: (a) => `Rename ${a.symbol ?? `${a.path}:${a.line}`} to ${a.new_name}`,
  execute: (args, ctx) =>
    withWorkspaceErrors(async () => {
      const at = await resolvePosition(ctx, args);
      const params = { textDocument: { uri: at.uri }, position: at.position };
      const where = `${at.read.path.rel}:${args.line}:${at.position.character + 1}`;
      await prepare(ctx, params, where);
      const root = ctx.workspace.root;
      const files = fileEditsOf(await ask(ctx, "textDocument/rename", { ...params, newName: args.new_name }))
        .filter((f) => f.edits.length || f.moveTo)
        .sort((a, b) => displayPath(root, a.uri).localeCompare(displayPath(root, b.uri)));
      if (!files.length) throw new ToolError(`The language servers found nothing to rename at ${where}.`);
      const ops: FileOp[] = [];
      for (const file of files) ops.push(await opOf(ctx, file));
      const result = await ctx.workspace.apply({ tool: "rename_symbol", ops }, applyOptions(ctx));
      const edits = files.reduce((n, f) => n + f.edits.length, 0);
      const list = files.map((f) => `  ${displayPath(root, f.uri)} (${f.edits.length} edit${f.edits.length === 1 ? "" : "s"})${f.moveTo ? ` -> ${displayPath(root, f.moveTo)}` : ""}`);
      return changeResult([`Renamed to ${args.new_name}: ${edits} edit${edits === 1 ? "" : "s"} in ${files.length} file${files.length === 1 ? "" : "s"}:`, ...list].join("\n"), result);
    }),
});
