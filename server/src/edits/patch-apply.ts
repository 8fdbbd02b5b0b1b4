/**
 * Applies parsed patch operations to a set of file contents, all or nothing.
 *
 * The operations run in order against a simulated file system (so a patch may add a file and
 * then update it, or update the same file in two sections), and nothing is returned until every
 * operation succeeded: the caller gets the final state of each touched path, or one error. The
 * results compare the final state with the initial one per path, so each path appears once:
 * `A` created, `D` deleted, `M` changed (with `moveTo` when an Update moved it).
 */
import { applyHunks } from "./patch-hunks.js";
import type { PatchOp } from "./patch-types.js";

export { applyHunks, type HunksResult } from "./patch-hunks.js";

/** Ends every error: the caller must not write anything, and the model should know. */
const NOTHING_CHANGED = "Nothing was changed: a patch applies as a whole or not at all.";

/** What a patch does to one path. */
export interface PatchFileResult {
  path: string;
  action: "A" | "M" | "D";
  /** For a moved file: where it now lives (`path` no longer exists). */
  moveTo?: string;
  /** Content before the patch (absent for `A`). */
  oldText?: string;
  /** Content after the patch (absent for `D`). */
  newText?: string;
  /** Anything that did not match exactly, e.g. "hunk 2 matched ignoring trailing whitespace". */
  fuzzy: string[];
}

/** The outcome of {@link applyPatchOps}. */
export type ApplyPatchResult = { ok: true; results: PatchFileResult[] } | { ok: false; error: string };

/** Every path whose current content {@link applyPatchOps} needs (targets and move destinations). */
export function patchPaths(ops: readonly PatchOp[]): string[] {
  const paths = new Set<string>();
  for (const op of ops) {
    paths.add(op.path);
    if (op.type === "update" && op.moveTo !== undefined) paths.add(op.moveTo);
  }
  return [...paths];
}

/**
 * Applies `ops` to `files` (current content by path; `undefined` or a missing key means the file
 * does not exist). Rejects an empty patch, Add of an existing file, Delete or Update of a missing
 * one, a move onto an existing file, and any hunk whose lines cannot be found.
 */
export function applyPatchOps(ops: readonly PatchOp[], files: ReadonlyMap<string, string | undefined>): ApplyPatchResult {
  if (ops.length === 0) return { ok: false, error: "The patch is empty: it contains no file operations." };
  const fs = new SimulatedFiles(files);
  for (const op of ops) {
    const error = fs.apply(op);
    if (error !== undefined) return { ok: false, error: `${error}\n${NOTHING_CHANGED}` };
  }
  return { ok: true, results: fs.results() };
}

/** The files as the operations so far left them, plus what is needed to report the changes. */
class SimulatedFiles {
  private readonly current = new Map<string, string | undefined>();
  /** Paths in the order they were first touched. */
  private readonly touched: string[] = [];
  /** For a path an Update moved here: the path it originally had. */
  private readonly originOf = new Map<string, string>();
  /** Original path -> where moves last took it. */
  private readonly movedTo = new Map<string, string>();
  /** Notes by original path. */
  private readonly notes = new Map<string, string[]>();

  constructor(private readonly initial: ReadonlyMap<string, string | undefined>) {}

  private get(path: string): string | undefined {
    return this.current.has(path) ? this.current.get(path) : this.initial.get(path);
  }

  private set(path: string, text: string | undefined): void {
    if (!this.touched.includes(path)) this.touched.push(path);
    this.current.set(path, text);
  }

  /** Runs one operation; returns an error message, or undefined when it applied. */
  apply(op: PatchOp): string | undefined {
    const existing = this.get(op.path);
    switch (op.type) {
      case "add":
        if (existing !== undefined) {
          return `Add File ${op.path}: the file already exists, and Add File never overwrites one. Change it with "*** Update File: ${op.path}" and hunks, or replace all of its content with write_file.`;
        }
        this.set(op.path, op.content);
        return undefined;
      case "delete":
        if (existing === undefined) return `Delete File ${op.path}: no such file.`;
        this.set(op.path, undefined);
        return undefined;
      case "update": {
        if (existing === undefined) return `Update File ${op.path}: no such file. To create it, use "*** Add File: ${op.path}" with every line starting with "+".`;
        const result = applyHunks(existing, op.hunks, op.path);
        if (!result.ok) return result.error;
        const origin = this.originOf.get(op.path) ?? op.path;
        if (result.notes.length > 0) this.notes.set(origin, [...(this.notes.get(origin) ?? []), ...result.notes]);
        if (op.moveTo === undefined || op.moveTo === op.path) {
          this.set(op.path, result.text);
          return undefined;
        }
        if (this.get(op.moveTo) !== undefined) {
          return `Update File ${op.path}: cannot move to ${op.moveTo}, a file already exists there and a move never overwrites one. Move it elsewhere, or delete ${op.moveTo} first ("*** Delete File: ${op.moveTo}" before this section).`;
        }
        this.set(op.path, undefined);
        this.set(op.moveTo, result.text);
        this.originOf.delete(op.path);
        this.originOf.set(op.moveTo, origin);
        this.movedTo.set(origin, op.moveTo);
        return undefined;
      }
    }
  }

  /** The net effect per path, in the order the paths were first touched. */
  results(): PatchFileResult[] {
    // A move is reported as one `M` entry only when it is a plain move: the source existed, the
    // destination did not, and the destination still exists at the end. Otherwise the two paths
    // are reported on their own (a `D` and an `A`).
    const moves = new Map<string, string>();
    for (const [from, to] of this.movedTo) {
      if (this.initial.get(from) !== undefined && this.initial.get(to) === undefined && this.get(to) !== undefined && this.get(from) === undefined) {
        moves.set(from, to);
      }
    }
    const destinations = new Set(moves.values());
    const results: PatchFileResult[] = [];
    for (const path of this.touched) {
      if (destinations.has(path)) continue;
      const before = this.initial.get(path);
      const after = this.get(path);
      const fuzzy = this.notes.get(path) ?? this.notes.get(this.originOf.get(path) ?? path) ?? [];
      const moveTo = moves.get(path);
      if (moveTo !== undefined) {
        results.push({ path, action: "M", moveTo, oldText: before, newText: this.get(moveTo), fuzzy });
      } else if (before === undefined && after !== undefined) {
        results.push({ path, action: "A", newText: after, fuzzy });
      } else if (before !== undefined && after === undefined) {
        results.push({ path, action: "D", oldText: before, fuzzy });
      } else if (before !== undefined && after !== undefined) {
        results.push({ path, action: "M", oldText: before, newText: after, fuzzy });
      }
    }
    return results;
  }
}
