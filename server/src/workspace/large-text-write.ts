/**
 * Writing a large text (a model's `create` of tens of megabytes) without holding the event loop:
 * encoded, hashed and written a megabyte at a time, each write on the I/O threads, so other
 * requests are answered meanwhile. Small texts keep the one synchronous pass of scratch.ts, which
 * is faster for them.
 */
import { createHash } from "node:crypto";
import type { FileHandle } from "node:fs/promises";
import { writeText } from "./scratch.js";

/** Texts longer than this (in characters) are written in slices. */
const SLICE_CHARS = 1024 * 1024;

/** Where to end a slice of `text` from `at`: about SLICE_CHARS on, never inside a surrogate pair. */
function sliceEnd(text: string, at: number): number {
  const end = Math.min(text.length, at + SLICE_CHARS);
  const last = text.charCodeAt(end - 1);
  return end < text.length && last >= 0xd800 && last <= 0xdbff ? end - 1 : end;
}

/** Writes all of `bytes` at the file's current position. */
async function writeAll(handle: FileHandle, bytes: Uint8Array): Promise<void> {
  for (let done = 0; done < bytes.length; ) done += (await handle.write(bytes, done)).bytesWritten;
}

/**
 * Encodes `text` as UTF-8 (behind a BOM when asked) and writes it to the new file `handle`;
 * resolves with the hash of the text's bytes (without the BOM), the same as scratch.ts's
 * writeText returns.
 */
export async function writeTextInSlices(handle: FileHandle, text: string, bom: boolean): Promise<string> {
  if (text.length <= SLICE_CHARS) return writeText(handle.fd, text, bom);
  const hash = createHash("sha1");
  if (bom) await writeAll(handle, Buffer.from("\uFEFF", "utf8"));
  for (let at = 0; at < text.length; ) {
    const end = sliceEnd(text, at);
    const bytes = Buffer.from(text.slice(at, end), "utf8");
    hash.update(bytes);
    await writeAll(handle, bytes);
    at = end;
  }
  return hash.digest("hex");
}
