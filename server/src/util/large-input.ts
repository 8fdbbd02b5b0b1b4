/**
 * Memory given back after a large incoming message. A 100 MB JSON-RPC message (a didOpen of a
 * huge file, a prompt carrying one) leaves its chunks, the joined body and the parse's garbage
 * behind: several hundred megabytes that an idle server, allocating nothing, kept resident for
 * good. The readers count what they read between two messages; once a message has come in that
 * was large, they ask for one collection (release-memory.ts), which runs only when the process
 * really grew by that much.
 */
import { releaseAfterLargeWork } from "./release-memory.js";

/** Bytes since the last message past which the one being read counts as large. */
export const LARGE_INPUT_BYTES = 8 * 1024 * 1024;

/** Counts the bytes of the message being read; one per input stream. */
export class LargeInputWatch {
  private bytes = 0;
  /** Resident memory when the message being read turned out large. */
  private rssBefore: number | undefined;

  /**
   * @param release asks for the collection, given the resident memory before the message
   * @param rss the resident memory now (read only once a message is known to be large)
   */
  constructor(
    private readonly release: (rssBefore: number) => void = releaseAfterLargeWork,
    private readonly rss: () => number = () => process.memoryUsage.rss(),
  ) {}

  /** `n` more bytes of the stream were read. */
  read(n: number): void {
    this.bytes += n;
    if (this.rssBefore === undefined && this.bytes > LARGE_INPUT_BYTES) this.rssBefore = this.rss();
  }

  /** A message ended: if it was large, its memory is handed back once it has been handled. */
  ended(): void {
    if (this.rssBefore !== undefined) this.release(this.rssBefore);
    this.rssBefore = undefined;
    this.bytes = 0;
  }
}
