/**
 * Bounded command output. A build log can be megabytes; the model needs how it started and how
 * it ended, so the buffer keeps a head and a tail and counts the bytes dropped between them.
 */

/** Default cap of a foreground command's output (head + tail), in bytes. */
export const DEFAULT_MAX_OUTPUT_BYTES = 48 * 1024;

/** The head's share of the cap: the end of a log (errors, summaries) matters more. */
const HEAD_SHARE = 0.3;

/** Head and tail of a stream of text, with the middle cut once it outgrows `maxBytes`. */
export class OutputBuffer {
  private readonly headCap: number;
  private readonly tailCap: number;
  private head = "";
  private headBytes = 0;
  private tailChunks: string[] = [];
  private tailBytes = 0;
  private dropped = 0;

  constructor(maxBytes = DEFAULT_MAX_OUTPUT_BYTES) {
    const cap = Math.max(Math.floor(maxBytes), 64);
    this.headCap = Math.floor(cap * HEAD_SHARE);
    this.tailCap = cap - this.headCap;
  }

  /** Bytes cut from the middle so far. */
  get droppedBytes(): number {
    return this.dropped;
  }

  /** Appends text (already decoded and stripped). */
  push(text: string): void {
    if (!text) return;
    let rest = text;
    if (this.headBytes < this.headCap && this.tailBytes === 0) {
      const [taken, left] = splitAtBytes(rest, this.headCap - this.headBytes);
      this.head += taken;
      this.headBytes += Buffer.byteLength(taken);
      rest = left;
    }
    if (!rest) return;
    this.tailChunks.push(rest);
    this.tailBytes += Buffer.byteLength(rest);
    this.trimTail();
  }

  /** Everything kept, with a note where the middle was cut. */
  text(): string {
    const tail = this.tailChunks.join("");
    if (!this.dropped) return this.head + tail;
    return `${this.head}\n[... ${this.dropped} bytes of output cut from the middle ...]\n${tail}`;
  }

  /** The newest output, at most `maxChars` characters (for progress reports). */
  recent(maxChars: number): string {
    let out = "";
    for (let i = this.tailChunks.length - 1; i >= 0 && out.length < maxChars; i--) {
      out = this.tailChunks[i]! + out;
    }
    if (out.length < maxChars) out = this.head.slice(-(maxChars - out.length)) + out;
    return out.slice(-maxChars);
  }

  private trimTail(): void {
    while (this.tailBytes > this.tailCap) {
      const first = this.tailChunks[0]!;
      const firstBytes = Buffer.byteLength(first);
      const excess = this.tailBytes - this.tailCap;
      if (firstBytes <= excess) {
        this.tailChunks.shift();
        this.tailBytes -= firstBytes;
        this.dropped += firstBytes;
        continue;
      }
      const [cut, kept] = splitAtBytes(first, excess, true);
      const cutBytes = Buffer.byteLength(cut);
      this.tailChunks[0] = kept;
      this.tailBytes -= cutBytes;
      this.dropped += cutBytes;
    }
  }
}

/**
 * Splits `text` after at most `bytes` UTF-8 bytes, never inside a character. With `atLeast`, the
 * first part has at least `bytes` bytes instead (rounded up to the next character boundary).
 */
export function splitAtBytes(text: string, bytes: number, atLeast = false): [string, string] {
  if (bytes <= 0) return ["", text];
  const buf = Buffer.from(text, "utf8");
  if (buf.length <= bytes) return [text, ""];
  let cut = bytes;
  // UTF-8 continuation bytes look like 10xxxxxx; a character boundary is any other byte.
  const isContinuation = (i: number) => i < buf.length && (buf[i]! & 0xc0) === 0x80;
  if (atLeast) while (isContinuation(cut)) cut++;
  else while (cut > 0 && isContinuation(cut)) cut--;
  return [buf.subarray(0, cut).toString("utf8"), buf.subarray(cut).toString("utf8")];
}
