/**
 * A background job's log with a size cap (`[exec] background_log_max_mb`): the job writes into a
 * pipe, the server appends what comes to an owner-only file in the state folder, and once the
 * file passes the cap the oldest half is dropped (the newest output is copied into a new file
 * renamed over the old one), so `yes` in the background cannot fill the disk. Offsets are logical
 * (bytes the job wrote since it started): a reader asking for dropped bytes is told how many.
 *
 * Every read and the drop are synchronous, so a read never sees half a drop. A write that fails
 * (a full disk) stops the log, never the server: later output is dropped and the failure is
 * reported with what is read.
 */
import { closeSync, readSync } from "node:fs";
import { asStateError, openStateFile, openStateFileForReading, stateWriteProblem, writeAll, writeStateFile } from "../util/state-folder.js";

/** Bytes in one MiB, the unit of the cap. */
export const MIB = 1024 * 1024;

/** A capped, append-only log file. */
export class CappedLog {
  private fd: number | undefined;
  /** Logical offset of the file's first byte: how many bytes were dropped so far. */
  private base = 0;
  /** Bytes in the file now. */
  private size = 0;
  /** Why writing stopped, once it did. */
  private failure: string | undefined;

  /**
   * Creates the file (new: never one someone placed there, nor a link) in a folder the state
   * folder made.
   */
  constructor(
    readonly path: string,
    readonly maxBytes: number,
  ) {
    try {
      this.fd = openStateFile(path, "new");
    } catch (err) {
      throw asStateError(err, "Could not create the background process log");
    }
  }

  /** Every byte the job wrote so far (dropped ones included). */
  get total(): number {
    return this.base + this.size;
  }

  /** Bytes dropped from the start to keep the cap. */
  get dropped(): number {
    return this.base;
  }

  /** Why the log stopped taking output (a full disk...), if it did. */
  get problem(): string | undefined {
    return this.failure;
  }

  /** Appends output; past the cap, drops the oldest half first. */
  write(chunk: Buffer): void {
    if (this.fd === undefined) return;
    try {
      writeAll(this.fd, chunk);
      this.size += chunk.length;
      if (this.size > this.maxBytes) this.dropOldest();
    } catch (err) {
      this.failure = stateWriteProblem(err, "The log stopped taking output");
      this.close();
    }
  }

  /**
   * Logical bytes `[from, to)` as far as the file still has them: `skipped` counts those asked
   * for that were dropped.
   */
  read(from: number, to: number): { bytes: Buffer; skipped: number } {
    const start = Math.max(from, this.base);
    const end = Math.min(to, this.total);
    const skipped = Math.max(Math.min(this.base, to) - from, 0);
    if (end <= start) return { bytes: Buffer.alloc(0), skipped };
    const buf = Buffer.alloc(end - start);
    // By name, not by the write descriptor (the drop renames a new file over it); so never
    // through a link put in its place: that would hand another file's bytes to the model.
    const fd = openStateFileForReading(this.path);
    try {
      const n = readSync(fd, buf, 0, buf.length, start - this.base);
      return { bytes: buf.subarray(0, n), skipped };
    } finally {
      closeSync(fd);
    }
  }

  /** Stops writing (the job ended and its pipes closed). */
  close(): void {
    if (this.fd === undefined) return;
    try {
      closeSync(this.fd);
    } catch {
      // Already closed.
    }
    this.fd = undefined;
  }

  /** Keeps the newest half of the cap: written new beside the log, renamed over it. */
  private dropOldest(): void {
    const keep = Math.floor(this.maxBytes / 2);
    const newest = this.read(this.total - keep, this.total).bytes;
    // A failure here (a full disk) leaves the old file whole; write() stops the log.
    writeStateFile(this.path, newest);
    this.close();
    this.base += this.size - newest.length;
    this.size = newest.length;
    this.fd = openStateFile(this.path, "append");
  }
}
