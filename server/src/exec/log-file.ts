/**
 * The log file of a background job: created owner-only, read back in byte ranges. Raw bytes stay
 * in the file (the user may want the colours); readers decode and strip what they return.
 */
import { closeSync, mkdirSync, openSync } from "node:fs";
import { open, stat } from "node:fs/promises";

/** Creates `path` (and its folder) readable by the owner only; returns an fd open for writing. */
export function createOwnerOnlyLog(dir: string, path: string): number {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // `wx`: never reuse a file someone else may have made (or linked) there; 0600 from the start.
  return openSync(path, "wx", 0o600);
}

/** Closes an fd, ignoring that it may already be closed. */
export function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Already closed: nothing to release.
  }
}

/** Current size of the file in bytes (0 when it is gone). */
export async function fileSize(path: string): Promise<number> {
  try {
    return (await stat(path)).size;
  } catch {
    return 0;
  }
}

/** Bytes `[from, to)` of the file (fewer when it is shorter). */
export async function readRange(path: string, from: number, to: number): Promise<Buffer> {
  if (to <= from) return Buffer.alloc(0);
  const handle = await open(path, "r");
  try {
    const buf = Buffer.alloc(to - from);
    const { bytesRead } = await handle.read(buf, 0, buf.length, from);
    return buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** Index of the first character boundary in `buf` (skips UTF-8 continuation bytes at its start). */
export function firstCharBoundary(buf: Buffer): number {
  let i = 0;
  while (i < buf.length && i < 4 && (buf[i]! & 0xc0) === 0x80) i++;
  return i;
}

/** Length of `buf` without a UTF-8 character cut off at its end (still being written). */
export function completeUtf8Length(buf: Buffer): number {
  // Walk back over at most three continuation bytes to the lead byte of the last character.
  let i = buf.length - 1;
  while (i >= 0 && buf.length - i <= 4 && (buf[i]! & 0xc0) === 0x80) i--;
  if (i < 0) return buf.length;
  const lead = buf[i]!;
  const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return buf.length - i < need ? i : buf.length;
}
