/**
 * What the context tools (context_archive, compact_context) reach of the session they run in: a
 * service the agent provides, since tools never see the session itself.
 */

/** The service's key in ToolServices. */
export const SESSION_CONTEXT_SERVICE = "sessionContext";

/** One message of the log, as the archive shows it. */
export interface ArchivedMessage {
  seq: number;
  role: string;
  time: string;
  text: string;
  /** The compaction that took it out of the working context, if one did. */
  compaction?: number;
  /** A prompt whose turn failed before the model answered it (never in the working context). */
  failed?: boolean;
}

/** A page of archive entries; `text` is a snippet (search) or a preview (list). */
export interface ArchivePage {
  entries: Omit<ArchivedMessage, "time">[];
  total: number;
  /** The last message number in the log. */
  lastSeq: number;
}

/** A session's whole log, read on demand. */
export interface SessionArchive {
  /** Messages whose text contains `query` (case-insensitive), oldest first. */
  search(query: string, offset: number, limit: number): ArchivePage;
  /** Every message, oldest first. */
  list(offset: number, limit: number): ArchivePage;
  /** One message whole, or undefined when the log has no message `seq`. */
  read(seq: number): ArchivedMessage | undefined;
}

/** The service. */
export interface SessionContextService {
  archive(sessionId: string): SessionArchive;
  /** Asks for a compaction before the session's next model call. */
  requestCompaction(sessionId: string, focus?: string): void;
}
