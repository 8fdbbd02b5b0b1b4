/**
 * The change-set pipeline: plan (check and load) -> show (diff, ask the gate, take the user's
 * trimmed version) -> checkpoint -> commit (editor, then disk) -> remember what the session now
 * knows of each file. Every step before the commit can refuse, and a refusal changes nothing.
 */
import { readFile, stat } from "node:fs/promises";
import type { ChangedText } from "../editor/session-events.js";
import type { GateDecision } from "../vocabulary/policy.js";
import type { AppliedFile, ApplyOptions, ApplyResult, ChangeSet } from "./change-set.js";
import type { CheckpointKind, CheckpointStore } from "./checkpoints.js";
import { IncompleteRollback } from "./atomic.js";
import { commitPlan, type CommitContext, type CommitOutcome } from "./commit.js";
import { breather } from "../util/breathe.js";
import { MAX_DIFF_CHARS, unifiedDiff, type FileDiff } from "./diff.js";
import { declinedHunksNote, type ReviewedFile } from "./declined-hunks.js";
import { EditOutcomeUnknown } from "./editor-steps.js";
import { keepLineEndings } from "./encoding.js";
import { WorkspaceError } from "./errors.js";
import { planChangeSet, withoutNoOps, type Plan, type PlanContext, type PlannedChange } from "./plan.js";
import { rebaseOnCurrent } from "./rebase.js";
import type { UnsavedEdits } from "./unsaved-edits.js";

/** What the pipeline needs from the Workspace. */
export interface WorkspaceCore extends PlanContext, CommitContext {
  checkpoints: CheckpointStore;
  /** Documents changed in the editor's buffer and perhaps not saved. */
  unsaved: UnsavedEdits;
  /** Runs `fn` after every change already under way (change sets never interleave). */
  exclusive<T>(fn: () => Promise<T>): Promise<T>;
}

/** A plan's diff, per file and whole, and its one-line summary. */
export interface ShownPlan {
  diffs: Map<PlannedChange, FileDiff>;
  diff: string;
  summary: string;
}

/**
 * Diffs a plan. The old side of a move shows inside its new side's diff. The files share
 * {@link MAX_DIFF_CHARS} of shown diff, and the event loop gets a turn between files, so a change
 * set of many large files neither floods the prompt nor holds up other requests.
 */
export async function showPlan(tool: string, plan: Plan): Promise<ShownPlan> {
  const diffs = new Map<PlannedChange, FileDiff>();
  let room = MAX_DIFF_CHARS;
  const pause = breather(10);
  for (const c of plan.changes) {
    if (c.movedTo) continue;
    const source = c.movedFrom ? plan.changes.find((s) => s.movedTo === c.path) : undefined;
    const oldName = c.movedFrom ? c.movedFrom.rel : c.before.exists ? c.path.rel : null;
    const oldText = source ? source.before.text : c.before.text;
    await pause();
    const d = unifiedDiff(oldName, c.after === null ? null : c.path.rel, oldText, c.after ?? "", { maxChars: room, limit: MAX_DIFF_CHARS });
    room = Math.max(0, room - d.text.length);
    diffs.set(c, d);
  }
  let added = 0;
  let removed = 0;
  for (const d of diffs.values()) (added += d.additions), (removed += d.deletions);
  const names = [...diffs.keys()].map((c) => c.path.rel).concat(plan.dirs.map((d) => `${d.rel}/`));
  const listed = names.length > 3 ? `${names.slice(0, 3).join(", ")} and ${names.length - 3} more` : names.join(", ");
  const diff = [...diffs.values()].map((d) => d.text).join("");
  return { diffs, diff, summary: `${tool}: ${listed} (+${added} -${removed})` };
}

/** Replaces the proposal's final text with what the user accepted in a review. */
function takeAccepted(plan: Plan, accepted: NonNullable<Extract<GateDecision, { allowed: true }>["accepted"]>): Plan {
  const byUri = new Map(accepted.map((a) => [a.uri, a.text]));
  const changes = plan.changes.map((c) => {
    const text = byUri.get(c.path.uri);
    if (text === undefined || c.after === null) return c;
    return { ...c, after: keepLineEndings(c.before.exists ? c.before.text : undefined, text) };
  });
  return withoutNoOps({ ...plan, changes });
}

/** Each proposed file's text beside what the review kept of it (a file the review dropped keeps its old text). */
function reviewedFiles(proposed: Plan, kept: Plan): ReviewedFile[] {
  const keptByUri = new Map(kept.changes.map((c) => [c.path.uri, c.after]));
  return proposed.changes.flatMap((c) => {
    if (c.after === null) return [];
    const dropped = !keptByUri.has(c.path.uri);
    const after = dropped ? c.before.text : keptByUri.get(c.path.uri);
    return after === null || after === undefined ? [] : [{ path: c.path.rel, proposed: c.after, kept: after, ...(dropped ? { declinedWhole: true } : {}) }];
  });
}

/** The result entry of each change (the old side of a move is folded into its new side). */
function appliedFiles(shown: ShownPlan, outcome: CommitOutcome): AppliedFile[] {
  return [...shown.diffs].map(([c, d]) => ({
    path: c.path.rel,
    status: c.movedFrom ? "R" : c.after === null ? "D" : c.before.exists ? "M" : "A",
    from: c.movedFrom?.rel,
    via: outcome.via.get(c) ?? "disk",
    additions: d.additions,
    deletions: d.deletions,
  }));
}

/** A result for a change set that changes nothing. */
function unchanged(notes: string[] = []): ApplyResult {
  return { changed: false, files: [], dirs: [], diff: "", notes };
}

/**
 * Checkpoints and commits a plan. On failure the checkpoint is discarded (the change never
 * happened) and the error is passed on. Also returns the hash of each text written to disk.
 */
export async function commitRecorded(
  core: WorkspaceCore,
  plan: Plan,
  meta: { sessionId: string; tool: string; kind: CheckpointKind; signal?: AbortSignal },
  shown: ShownPlan,
): Promise<{ result: ApplyResult; hashes: Map<string, string> }> {
  const touched = plan.changes.map((c) => ({ path: c.path, state: c.before }));
  const checkpoint = await core.checkpoints.create(meta.sessionId, meta.tool, meta.kind, touched);
  const priors = new Map(
    await Promise.all(
      plan.changes.map(async (c, i) => {
        const entry = checkpoint.files[i]!;
        const copy = await core.checkpoints.copyPath(checkpoint, entry);
        return [c, { existed: entry.existed, copy, mode: entry.mode }] as const;
      }),
    ),
  );
  let outcome: CommitOutcome;
  try {
    outcome = await commitPlan(core, `agent-lsp: ${shown.summary}`, plan, priors, { sessionId: meta.sessionId, signal: meta.signal });
  } catch (err) {
    if (err instanceof IncompleteRollback) {
      err.message += ` Their earlier content is in checkpoint ${checkpoint.id}: the user can /undo to bring it back.`;
      throw err;
    }
    if (err instanceof EditOutcomeUnknown) {
      // The editor may still apply it: keep the way back.
      err.message += ` If it lands, checkpoint ${checkpoint.id} has the earlier content (/undo).`;
      throw err;
    }
    await core.checkpoints.discard(checkpoint.id);
    throw err;
  }
  const saved = await savedByEditor(plan, outcome);
  for (const c of plan.changes) if (c.after !== null && outcome.via.get(c) === "editor" && !saved.has(c)) core.unsaved.record(c.path);
  // The manifest was saved before the commit (so a crash mid-commit still leaves an undoable
  // checkpoint); it only needs saving again when the commit created folders.
  if (outcome.createdDirs.length) {
    checkpoint.createdDirs = outcome.createdDirs;
    await core.checkpoints.save(checkpoint);
  }
  const result: ApplyResult = {
    changed: true,
    files: appliedFiles(shown, outcome).map((f) => (plan.changes.some((c) => saved.has(c) && c.path.rel === f.path) ? { ...f, saved: true } : f)),
    dirs: plan.dirs.map((d) => d.rel),
    diff: shown.diff,
    checkpointId: checkpoint.id,
    notes: outcome.notes,
    texts: changedTexts(plan),
  };
  return { result, hashes: outcome.hashes };
}

/**
 * The changes the editor took and has already written to disk (an ACP client that saves what it
 * is sent, an editor that saves on change): the disk holds exactly the new text. The model is then
 * told the file is saved, not that it waits in a buffer.
 */
async function savedByEditor(plan: Plan, outcome: CommitOutcome): Promise<Set<PlannedChange>> {
  const saved = new Set<PlannedChange>();
  for (const c of plan.changes) {
    if (c.after === null || outcome.via.get(c) !== "editor") continue;
    const disk = await readFile(c.path.real, "utf8").catch(() => undefined);
    if (disk === c.after) saved.add(c);
  }
  return saved;
}

/** The whole texts of each file the plan changed; a move's old text is its source's. */
function changedTexts(plan: Plan): ChangedText[] {
  return plan.changes
    .filter((c) => !c.movedTo)
    .map((c) => {
      const source = c.movedFrom ? plan.changes.find((s) => s.movedTo === c.path) : undefined;
      return { path: c.path.abs, oldText: (source ?? c).before.text, newText: c.after ?? "" };
    });
}

/** After a change, the session knows the new text of every file it wrote. */
async function rememberWrites(core: WorkspaceCore, sessionId: string, plan: Plan, result: ApplyResult, hashes: Map<string, string>): Promise<void> {
  for (const c of plan.changes) {
    if (c.after === null) {
      core.stamps.forget(sessionId, c.path.real);
      continue;
    }
    const inEditor = result.files.find((f) => f.path === c.path.rel)?.via === "editor";
    const st = inEditor ? undefined : await stat(c.path.real).catch(() => undefined);
    const hash = inEditor ? undefined : hashes.get(c.path.real);
    const current = { text: c.after, source: inEditor ? "buffer" : "disk", mtimeMs: st?.mtimeMs, size: st?.size } as const;
    core.stamps.record(sessionId, c.path.real, current, hash);
  }
}

/** Folders of the plan that do not exist yet. */
async function missingDirs(plan: Plan): Promise<Plan> {
  const dirs = [];
  for (const d of plan.dirs) {
    const st = await stat(d.real).catch(() => undefined);
    if (st && !st.isDirectory()) throw new WorkspaceError(`${d.rel} exists and is a file, not a directory.`);
    if (!st) dirs.push(d);
  }
  return { ...plan, dirs };
}

/**
 * Applies a change set all-or-nothing (see {@link Workspace.apply}). Planning and the question to
 * the gate run without the project's change lock, so a review that takes minutes holds up no other
 * session; the lock is taken to re-check every file against what was planned (see rebase.ts) and
 * to commit, so two change sets never interleave and none lands over another unseen.
 */
export async function applyChangeSet(core: WorkspaceCore, set: ChangeSet, opts: ApplyOptions): Promise<ApplyResult> {
  const cancelled = () => new WorkspaceError("Cancelled; nothing was changed.");
  if (opts.signal?.aborted) throw cancelled();
  let plan = await missingDirs(withoutNoOps(await planChangeSet(core, set, opts)));
  if (!plan.changes.length && !plan.dirs.length) return unchanged();
  let shown = await showPlan(set.tool, plan);
  const files = plan.changes.map((c) => ({ uri: c.path.uri, path: c.path.rel, oldText: c.before.text, newText: c.after ?? "" }));
  const external = plan.changes.some((c) => c.path.external) || plan.dirs.some((d) => d.external);
  const decision = await opts.authorize?.({ kind: "file_change", summary: shown.summary, diff: shown.diff, files, external });
  if (decision && !decision.allowed) throw new WorkspaceError(`The change was not applied: ${decision.reason}`);
  let reviewNotes: string[] = [];
  if (decision?.accepted) {
    const proposed = plan;
    plan = takeAccepted(plan, decision.accepted);
    if (!plan.changes.length && !plan.dirs.length) return unchanged(["The review kept none of the change."]);
    reviewNotes = declinedHunksNote(reviewedFiles(proposed, plan), decision.userWords);
    shown = await showPlan(set.tool, plan);
  }
  return core.exclusive(async () => {
    if (opts.signal?.aborted) throw cancelled();
    const current = await rebaseOnCurrent(core.documents, plan);
    if (current.notes.length) shown = await showPlan(set.tool, current.plan);
    const meta = { sessionId: opts.sessionId, tool: set.tool, kind: "change" as const, signal: opts.signal };
    const { result, hashes } = await commitRecorded(core, current.plan, meta, shown);
    await rememberWrites(core, opts.sessionId, current.plan, result, hashes);
    const notes = [...current.notes, ...reviewNotes];
    return notes.length ? { ...result, notes: [...notes, ...result.notes] } : result;
  });
}
