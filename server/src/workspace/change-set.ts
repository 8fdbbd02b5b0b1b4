/**
 * Change sets: what a mutating tool hands to the Workspace. A tool works out the final text of
 * each file (with the edits/ engines) and describes the whole change as one set; the Workspace
 * checks, shows, snapshots and applies it all-or-nothing (see Workspace.apply).
 */
import type { ChangedText } from "../editor/session-events.js";
import type { GateDecision, GatedAction } from "../vocabulary/policy.js";
import type { ReadResult } from "./workspace.js";

/** One operation of a change set. Paths are as the model gave them (relative to the root). */
export type FileOp =
  /** Create or replace a file with `text` (without BOM; the file's BOM and CRLF are kept). */
  | {
      kind: "write";
      path: string;
      text: string;
      /** The read the text was computed from: when still current, it is not read again. */
      base?: ReadResult;
      /**
       * Exact bytes to write instead (a generated image); `text` then only describes them in the
       * diff and the prompt. Refused for a file open in the editor, which holds text.
       */
      bytes?: Buffer;
    }
  | { kind: "delete"; path: string }
  /** Moves a file, giving it `text` at the new place when set. */
  | {
      kind: "move";
      from: string;
      to: string;
      text?: string;
      /** The read of `from` that `text` was computed from: the move is refused if it changed since. */
      base?: ReadResult;
    }
  /** Creates a folder (and its parents). */
  | { kind: "mkdir"; path: string };

/** The whole change one tool call makes. */
export interface ChangeSet {
  /** The tool (or command) making it: shown in prompts, summaries and /checkpoints. */
  tool: string;
  ops: FileOp[];
}

/** Who is applying, and the gate to ask. */
export interface ApplyOptions {
  sessionId: string;
  /** The policy gate (ToolContext.authorize); without one, nothing is asked. */
  authorize?: (action: GatedAction) => Promise<GateDecision>;
  signal?: AbortSignal;
  /** Replacing a file that exists needs a read of it in this session first (write_file). */
  requireReadForOverwrite?: boolean;
}

/** How a file changed: Added, Modified, Deleted, or Renamed (moved). */
export type FileStatus = "A" | "M" | "D" | "R";

/** One file of an applied change set. */
export interface AppliedFile {
  /** Root-relative path (the new one for a move). */
  path: string;
  status: FileStatus;
  /** The old path of a move. */
  from?: string;
  /** The editor's buffer (workspace/applyEdit) or the disk (atomic write). */
  via: "editor" | "disk";
  /** Through the editor, and already on disk as written (the editor saved it). */
  saved?: boolean;
  additions: number;
  deletions: number;
}

/** What apply did. */
export interface ApplyResult {
  /** False when the change set (after review) changes nothing. */
  changed: boolean;
  files: AppliedFile[];
  /** Folders created. */
  dirs: string[];
  /** Unified diff of everything applied. */
  diff: string;
  /** The checkpoint /undo and /restore use; absent when nothing changed. */
  checkpointId?: string;
  /** Things the model should know (a buffer left open on a deleted file...). */
  notes: string[];
  /** The whole texts before and after, per file written (for front ends that show them). */
  texts?: ChangedText[];
}
