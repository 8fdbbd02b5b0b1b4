/**
 * The one error type the Workspace throws for failures a model (or a user) should read: a missing
 * file, a refused write, a stale read, an editor that refused an edit. Anything else is a bug.
 */

/** A failure whose message is written for the model: what went wrong and what to do next. */
export class WorkspaceError extends Error {
  override readonly name = "WorkspaceError";
}

/** Node's errno code of an error, if it has one. */
export function errnoCode(err: unknown): string | undefined {
  return typeof err === "object" && err !== null && "code" in err ? String((err as { code: unknown }).code) : undefined;
}

/**
 * Turns a file system error into a WorkspaceError naming the path, for the common cases a model
 * can act on; other errors pass through unchanged.
 */
export function describeFsError(err: unknown, rel: string): unknown {
  switch (errnoCode(err)) {
    case "ENOENT":
      return new WorkspaceError(`${rel} does not exist.`);
    case "EISDIR":
      return new WorkspaceError(`${rel} is a directory, not a file (use list_files to see what is in it).`);
    case "ENOTDIR":
      return new WorkspaceError(`${rel}: a part of this path is a file, not a directory.`);
    case "EACCES":
    case "EPERM":
      return new WorkspaceError(`${rel}: permission denied.`);
    case "EROFS":
      return new WorkspaceError(`${rel}: the file system is read-only; nothing can be written there.`);
    case "ENOSPC":
    case "EDQUOT":
      return new WorkspaceError(`${rel}: the disk is full; nothing was written.`);
    default:
      return err;
  }
}
