/**
 * Each session keeps what web_fetch fetched, so the model can search a page (`pattern`) or page
 * through it (`start_line`/`line_count`) again without fetching it again: the lines stay exactly
 * as they were, so line numbers from one call hold in the next.
 */

/** One fetched page as the session keeps it. */
export interface Snapshot {
  url: string;
  raw: boolean;
  /** The header shown above every view of it (title, type, where it came from). */
  header: string;
  lines: string[];
  fetchedAt: Date;
}

/** Pages kept per session; the oldest goes first. */
const PER_SESSION = 16;

/** Every session's snapshots. */
export class SnapshotStore {
  private readonly bySession = new Map<string, Map<string, Snapshot>>();

  /** The snapshot of `url` (raw or readable) in a session, if it was fetched. */
  get(sessionId: string, url: string, raw: boolean): Snapshot | undefined {
    return this.bySession.get(sessionId)?.get(key(url, raw));
  }

  /** Keeps a snapshot, replacing an older one of the same page. */
  put(sessionId: string, snapshot: Snapshot): void {
    let pages = this.bySession.get(sessionId);
    if (!pages) this.bySession.set(sessionId, (pages = new Map()));
    const k = key(snapshot.url, snapshot.raw);
    pages.delete(k);
    pages.set(k, snapshot);
    while (pages.size > PER_SESSION) pages.delete(pages.keys().next().value!);
  }
}

function key(url: string, raw: boolean): string {
  return `${raw ? "raw" : "readable"} ${url}`;
}
