/**
 * One reusable byte buffer for reading and writing whole files. Allocating fresh memory for every
 * 10 MB file costs more than the copy itself (the pages must be faulted in each time), so reads and
 * encodes of files up to a size go through this buffer instead. It is only ever used inside a
 * synchronous stretch of code (read + decode, encode + write + hash), so two async callers can
 * never see each other's bytes.
 */
import { closeSync, fstatSync, openSync, readSync, writeSync } from "node:fs";
import { hashBytes } from "./read-stamps.js";

/** Files larger than this are read and written without the shared buffer (and it never grows past it). */
const SCRATCH_LIMIT = 32 * 1024 * 1024;

/** A large buffer is let go after this long unused, so one big file does not pin its size. */
const RELEASE_AFTER_MS = 10_000;

let scratch = Buffer.alloc(0);
let releaseTimer: NodeJS.Timeout | undefined;

/** The shared buffer, at least `size` bytes. */
function scratchOf(size: number): Buffer {
  if (scratch.length < size) scratch = Buffer.allocUnsafe(Math.max(size, Math.min(scratch.length * 2, SCRATCH_LIMIT)));
  if (scratch.length > 1024 * 1024) {
    clearTimeout(releaseTimer);
    releaseTimer = setTimeout(() => (scratch = Buffer.alloc(0)), RELEASE_AFTER_MS);
    releaseTimer.unref();
  }
  return scratch;
}

/**
 * Reads a whole file and hands its bytes (valid only during the call) to `use`; returns what
 * `use` returns. Returns undefined when the file is larger than the limit (read it another way).
 */
export function withFileBytes<T>(file: string, use: (bytes: Buffer) => T): T | undefined {
  const fd = openSync(file, "r");
  try {
    const size = fstatSync(fd).size;
    if (size > SCRATCH_LIMIT) return undefined;
    const buf = scratchOf(size + 1);
    let n = 0;
    // A file that grew since fstat fills the extra byte and is read the slow way instead.
    for (let got = -1; got !== 0 && n <= size; n += got) got = readSync(fd, buf, n, size + 1 - n, n);
    if (n > size) return undefined;
    return use(buf.subarray(0, n));
  } finally {
    closeSync(fd);
  }
}

/**
 * Encodes `text` as UTF-8 (behind a BOM when asked) and writes it to the open file `fd`;
 * returns the hash of the text's bytes (without the BOM), as read stamps keep it.
 */
export function writeText(fd: number, text: string, bom: boolean): string {
  const length = Buffer.byteLength(text, "utf8") + (bom ? 3 : 0);
  const buf = length <= SCRATCH_LIMIT ? scratchOf(length) : Buffer.allocUnsafe(length);
  let at = 0;
  if (bom) at = buf.write("\uFEFF", 0, "utf8");
  buf.write(text, at, "utf8");
  for (let done = 0; done < length; ) done += writeSync(fd, buf, done, length - done);
  return hashBytes(buf.subarray(bom ? 3 : 0, length));
}
