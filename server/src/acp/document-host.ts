/**
 * The document host over an ACP client's `fs/read_text_file` and `fs/write_text_file`, for a
 * client that declares both: every file is read through the client (it answers with the unsaved
 * buffer when one is open) and every change is written through it, all-or-nothing across files.
 * A client that declares neither gets the disk (the Workspace's own atomic writes).
 */
import { fileURLToPath, pathToFileURL } from "node:url";
import type { ApplyEditOptions, ApplyEditResult, DocumentHost, FileChange, OpenDocument, SaveResult } from "../editor/document-host.js";
import type { Logger } from "../util/log.js";

/** The client's file methods, as the connection offers them. */
export interface AcpFiles {
  read(params: { sessionId: string; path: string }, signal?: AbortSignal): Promise<{ content: string }>;
  write(params: { sessionId: string; path: string; content: string }, signal?: AbortSignal): Promise<unknown>;
}

/** Which session a file belongs to: ACP's fs requests name one (the client resolves its project). */
export type SessionForPath = (absPath: string) => string | undefined;

/** Open documents and edits through the ACP client. */
export class AcpDocumentHost implements DocumentHost {
  readonly supportsResourceOperations = false;
  readonly canSaveDocuments = false;
  /**
   * What the client answered for each file since the current tool call began. One change reads a
   * file several times (the tool's read, the plan, the re-read under the change lock, the check
   * after writing), each a round trip through the client: they share one answer. ACP reports no
   * changes, so the answers are forgotten at every tool call and around every permission prompt
   * (the user may type meanwhile), and a write puts its own text here.
   */
  private readonly recent = new Map<string, string>();

  /**
   * @param files the client's fs methods, or undefined when it does not declare both
   * @param sessionFor the session whose folder holds a path (fs requests carry a session id)
   */
  constructor(
    private readonly files: AcpFiles | undefined,
    private readonly sessionFor: SessionForPath,
    private readonly log: Logger,
  ) {}

  /** The client's text of the file: its buffer when open, else what it reads from disk. */
  async readDocument(uri: string): Promise<OpenDocument | undefined> {
    const target = this.target(uri);
    if (!target) return undefined;
    const uriOut = pathToFileURL(target.path).href;
    const reused = this.recent.get(target.path);
    // ACP has no document versions; a null version makes the Workspace compare texts instead.
    if (reused !== undefined) return { uri: uriOut, text: reused, version: null };
    try {
      const { content } = await this.files!.read(target);
      this.recent.set(target.path, content);
      return { uri: uriOut, text: content, version: null };
    } catch (err) {
      // A file that does not exist is an error to ACP clients; the Workspace then looks at the disk.
      this.log.debug(`fs/read_text_file ${target.path}: ${(err as Error).message}`);
      return undefined;
    }
  }

  /** Forgets every answer: the next read of each file asks the client again. */
  forget(): void {
    this.recent.clear();
  }

  /** ACP clients do not list their open buffers: searches see the disk. */
  async openDocuments(): Promise<OpenDocument[]> {
    return [];
  }

  /** ACP clients report no changes; each read asks the client afresh instead. */
  onDidChange(): () => void {
    return () => undefined;
  }

  /**
   * Writes each changed file through `fs/write_text_file`. When one write fails, the files
   * already written get their old text back, so the change set lands whole or not at all.
   */
  async applyEdit(label: string, changes: FileChange[], options: ApplyEditOptions = {}): Promise<ApplyEditResult> {
    const edits = changes.filter((c): c is Extract<FileChange, { kind: "edit" }> => c.kind === "edit");
    if (edits.length !== changes.length) return { applied: false, reason: "ACP clients cannot create, delete or rename files through an edit" };
    const written: typeof edits = [];
    for (const edit of edits) {
      const target = this.target(edit.uri, options.sessionId);
      if (!target) return this.undo(written, `no session of this client holds ${edit.uri}`, options);
      try {
        this.recent.delete(target.path);
        await this.files!.write({ ...target, content: edit.newText }, options.signal);
        this.recent.set(target.path, edit.newText);
        written.push(edit);
      } catch (err) {
        return this.undo(written, `the client did not write ${target.path}: ${(err as Error).message}`, options);
      }
    }
    this.log.debug(`${label}: wrote ${edits.length} file(s) through the client`);
    return { applied: true, reports: Object.fromEntries(edits.map((e) => [e.uri, "confirmed" as const])) };
  }

  /** Nothing to save: fs/write_text_file writes the file itself. */
  async saveDocuments(uris: string[]): Promise<SaveResult> {
    return { saved: [], failed: uris.map((uri) => ({ uri, reason: "ACP clients save their buffers themselves" })) };
  }

  /** Writes are answered when done: there is nothing to learn later. */
  takeNotices(): string[] {
    return [];
  }

  /** Puts the old text back into the files already written; says how that went. */
  private async undo(written: Extract<FileChange, { kind: "edit" }>[], why: string, options: ApplyEditOptions): Promise<ApplyEditResult> {
    const failed: string[] = [];
    for (const edit of written.reverse()) {
      const target = this.target(edit.uri, options.sessionId)!;
      // Not the turn's signal: a cancel must not leave the undo half done.
      this.recent.delete(target.path);
      await this.files!.write({ ...target, content: edit.oldText }).catch((err: Error) => failed.push(`${target.path} (${err.message})`));
    }
    const undone = written.length === 0 ? "" : failed.length ? `; the files written before could not all be restored: ${failed.join(", ")}` : "; the files written before were restored";
    return { applied: false, reason: `${why}${undone}` };
  }

  /** The fs request target of a file URI, or undefined when the client's fs is not used. */
  private target(uri: string, sessionId?: string): { sessionId: string; path: string } | undefined {
    if (!this.files || !uri.startsWith("file:")) return undefined;
    const absPath = fileURLToPath(uri);
    const session = sessionId ?? this.sessionFor(absPath);
    return session ? { sessionId: session, path: absPath } : undefined;
  }
}
