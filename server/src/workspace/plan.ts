/**
 * Turns a change set into a plan: every path resolved and checked (outside the root, through a
 * symlink, into the Workspace's own folders), every file's current state loaded (buffer first),
 * stale reads refused, and each file's final text worked out with its BOM and CRLF kept.
 * Nothing is changed here; every refusal happens before anything is written.
 */
import type { DocumentHost } from "../editor/document-host.js";
import type { ApplyOptions, ChangeSet, FileOp } from "./change-set.js";
import { keepLineEndings } from "./encoding.js";
import { WorkspaceError } from "./errors.js";
import { diskFacts, loadFileState, type FileState } from "./file-state.js";
import { isInside, type ResolvedPath } from "./paths.js";
import type { ReadStamps } from "./read-stamps.js";
import { isInternalPath } from "./state-dir.js";
import type { ReadResult } from "./workspace.js";

/** What planning needs from the Workspace. */
export interface PlanContext {
  root: string;
  documents: DocumentHost;
  stamps: ReadStamps;
  allowExternalWrites: boolean;
  resolve(input: string): Promise<ResolvedPath>;
}

/** One file of a plan. */
export interface PlannedChange {
  path: ResolvedPath;
  before: FileState;
  /** The final text (without BOM), or null when the file goes away. */
  after: string | null;
  /** Exact bytes for the disk (restores), instead of encoding `after`. */
  bytes?: Buffer;
  /** Mode bits for the disk, when not the file's current ones. */
  mode?: number;
  /** Write a BOM, when not as the file's current state says. */
  bom?: boolean;
  /** The new side of a move: where the file came from. */
  movedFrom?: ResolvedPath;
  /** The old side of a move: where the file went. */
  movedTo?: ResolvedPath;
}

/** A checked change set, ready to show and apply. */
export interface Plan {
  changes: PlannedChange[];
  /** Folders to create. */
  dirs: ResolvedPath[];
}

/** Refuses a write the Workspace never makes, or the gate does not allow. */
async function checkWritable(ctx: PlanContext, p: ResolvedPath, opts: ApplyOptions): Promise<void> {
  if (isInternalPath(ctx.root, p.abs)) {
    throw new WorkspaceError(`${p.rel} is inside agent-lsp's own state folder; it cannot be written by tools.`);
  }
  if (!p.external) return;
  if (isInside(ctx.root, p.abs)) {
    throw new WorkspaceError(
      `${p.rel} leads through a symbolic link to ${p.real}, outside the project; agent-lsp never writes through a link out of the project root.`,
    );
  }
  if (!ctx.allowExternalWrites) {
    throw new WorkspaceError(
      `${p.abs} is outside the project root (${ctx.root}); writing outside the project is not allowed. Work on files inside the project.`,
    );
  }
  const decision = await opts.authorize?.({ kind: "external_path", path: p.abs, access: "write" });
  if (decision && !decision.allowed) throw new WorkspaceError(`Writing ${p.abs} was not allowed: ${decision.reason}`);
}

/**
 * The state to plan from: the tool's own read when it is still current, else a fresh load. The
 * tool computed its new text from `base`; if the file's text is no longer that (another session's
 * change set went first, the user typed or saved while this one waited its turn), writing that
 * text would silently undo the other change, so the change is refused instead.
 */
async function currentState(ctx: PlanContext, p: ResolvedPath, base?: ReadResult): Promise<FileState> {
  if (!base || base.path.abs !== p.abs) return loadFileState(ctx.documents, p);
  const doc = await ctx.documents.readDocument(p.uri);
  // An unknown version (an edit not reported back yet) proves nothing: compare the text below.
  if (base.source === "buffer" && doc && doc.version !== null && doc.version === base.version) return { ...base, exists: true };
  if (base.source === "disk" && !doc) {
    const facts = await diskFacts(p);
    if (facts && facts.mtimeMs === base.mtimeMs && facts.size === base.size) return { ...base, exists: true };
  }
  const state = await loadFileState(ctx.documents, p);
  if (state.exists && state.text === base.text) return state;
  const where = state.source === "buffer" ? "in the editor" : "on disk";
  throw new WorkspaceError(
    `${p.rel} changed ${where} while this change was being made from it; nothing was changed. Read it again and redo the change.`,
  );
}

/** Refuses a change to a file that changed since this session last saw it. */
function checkFresh(ctx: PlanContext, p: ResolvedPath, state: FileState, opts: ApplyOptions): void {
  if (!state.exists || state.source === "none") return;
  const current = { text: state.text, source: state.source, mtimeMs: state.mtimeMs, size: state.size };
  if (ctx.stamps.isStale(opts.sessionId, p.real, current)) {
    const where = state.source === "buffer" ? "in the editor" : "on disk";
    throw new WorkspaceError(`${p.rel} changed ${where} since you last read it; read it again before changing it.`);
  }
}

/** Builds the planned change for one target file. */
async function planFile(
  ctx: PlanContext,
  p: ResolvedPath,
  after: string | null,
  opts: ApplyOptions,
  base?: ReadResult,
): Promise<PlannedChange> {
  await checkWritable(ctx, p, opts);
  const before = await currentState(ctx, p, base);
  checkFresh(ctx, p, before, opts);
  if (after === null && !before.exists) throw new WorkspaceError(`${p.rel} does not exist.`);
  const text = after === null ? null : keepLineEndings(before.exists ? before.text : undefined, after);
  return { path: p, before, after: text };
}

/** Plans one operation (a move plans two files). */
async function planOp(ctx: PlanContext, op: FileOp, opts: ApplyOptions, plan: Plan): Promise<void> {
  if (op.kind === "mkdir") {
    const p = await ctx.resolve(op.path);
    await checkWritable(ctx, p, opts);
    plan.dirs.push(p);
    return;
  }
  if (op.kind === "write") {
    const p = await ctx.resolve(op.path);
    const change = await planFile(ctx, p, op.text, opts, op.base);
    if (op.bytes) {
      if (change.before.source === "buffer") throw new WorkspaceError(`${p.rel} is open in the editor as text; close it there before writing binary content to it.`);
      change.bytes = op.bytes;
    }
    if (change.before.exists && opts.requireReadForOverwrite && !ctx.stamps.has(opts.sessionId, p.real)) {
      throw new WorkspaceError(
        `${p.rel} already exists and you have not read it in this session; read it first (read_file), or change it with edit_file.`,
      );
    }
    plan.changes.push(change);
    return;
  }
  if (op.kind === "delete") {
    plan.changes.push(await planFile(ctx, await ctx.resolve(op.path), null, opts));
    return;
  }
  const from = await ctx.resolve(op.from);
  const to = await ctx.resolve(op.to);
  const source = await planFile(ctx, from, null, opts, op.base);
  const target = await planFile(ctx, to, op.text ?? source.before.text, opts);
  if (target.before.exists) throw new WorkspaceError(`Cannot move ${from.rel} to ${to.rel}: ${to.rel} already exists.`);
  source.movedTo = to;
  target.movedFrom = from;
  target.after = keepLineEndings(source.before.text, op.text ?? source.before.text);
  target.bom = source.before.bom;
  target.mode = source.before.mode;
  plan.changes.push(source, target);
}

/** Checks and loads a whole change set. Throws a WorkspaceError on the first problem. */
export async function planChangeSet(ctx: PlanContext, set: ChangeSet, opts: ApplyOptions): Promise<Plan> {
  const plan: Plan = { changes: [], dirs: [] };
  for (const op of set.ops) await planOp(ctx, op, opts, plan);
  const seen = new Set<string>();
  for (const change of plan.changes) {
    if (seen.has(change.path.real)) {
      throw new WorkspaceError(`${change.path.rel} is changed twice in one change; combine the changes into one.`);
    }
    seen.add(change.path.real);
  }
  return plan;
}

/** Drops files whose final text is what they already have. */
export function withoutNoOps(plan: Plan): Plan {
  const changes = plan.changes.filter(
    (c) => c.movedFrom || c.movedTo || !c.before.exists || c.after === null || c.after !== c.before.text,
  );
  return { ...plan, changes };
}
