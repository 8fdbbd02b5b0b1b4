/**
 * Content-Length framing that survives bad input. The stock reader stops making sense of the
 * stream after a Content-Length that lies; this parser reports each problem (so the client gets
 * an error response that says what was wrong) and resynchronises at the next header.
 *
 * It has no dependency on the LSP library: the start-up path uses it before that library loads.
 */
import { messageShapeProblem } from "./rpc-shape.js";

/** A problem in the byte stream: what was wrong, and the request id if one could be read. */
export interface FramingError {
  message: string;
  id: number | string | null;
  /** JSON-RPC code: -32700 parse error, -32600 invalid request. */
  code: number;
  /** The bad message was a notification: it must not be answered, only logged. */
  notification?: boolean;
}

const HEADER_END = Buffer.from("\r\n\r\n");
const HEADER_START = Buffer.from("Content-Length:");
/** How far before its end a header may start and still be recognised (looksLikeHeaderAt). */
const HEADER_LOOKBACK = 64;
/** Bodies still to come from this size on are copied into one reserved buffer (FrameParser.reserved). */
const RESERVE_FROM = 1 << 20;
/** A declared length past this is not trusted with a reservation; its chunks wait instead. */
const RESERVE_UP_TO = 1 << 30;
/** How long a body may stay incomplete before the header is taken to be a lie. */
const STALL_MS = 1500;

/** Turns bytes into JSON-RPC messages. */
export class FrameParser {
  private buffer = Buffer.alloc(0);
  private stallTimer: NodeJS.Timeout | undefined;
  /**
   * While a long body arrives, its chunks wait here instead of being joined onto `buffer` one by
   * one: joining (and rescanning) per chunk made a 20 MB didOpen cost seconds of copying.
   */
  private pending: Buffer[] = [];
  private pendingLength = 0;
  /**
   * A body of a megabyte or more is copied, as it arrives, into one buffer of the message's size
   * (`buffer`'s bytes first), instead of waiting as chunks: a 100 MB body held as 1,600 reads of
   * 64 KB left the allocator's heap fragmented, a hundred megabytes never given back to the
   * system. The reservation costs nothing up front: the kernel commits its pages as they fill.
   */
  private reserved: { bytes: Buffer<ArrayBuffer>; filled: number } | undefined;
  /** The body being waited for, set while `buffer` holds less than it. */
  private waiting: { start: number; length: number } | undefined;
  /** The stream's last bytes, as far back as a header drain could recognise may begin. */
  private tail = Buffer.alloc(0);

  constructor(
    private readonly onMessage: (message: object) => void,
    private readonly onFramingError: (error: FramingError) => void,
  ) {}

  /** Feeds the next bytes of the stream. */
  push(chunk: Buffer): void {
    const mayHoldHeader = this.mayHoldHeader(chunk);
    this.tail = Buffer.concat([this.tail, chunk.subarray(-HEADER_LOOKBACK)]).subarray(-HEADER_LOOKBACK);
    if (this.waiting && !mayHoldHeader) {
      const { start, length } = this.waiting;
      const into = this.reserved ?? this.reserve(start + length);
      if (into) {
        const n = Math.min(chunk.length, into.bytes.length - into.filled);
        chunk.copy(into.bytes, into.filled, 0, n);
        into.filled += n;
        if (into.filled < into.bytes.length) {
          this.startStallTimer(start, length);
          return;
        }
        // The body first, then what followed it: joining them would copy the whole body again.
        this.joinPending();
        this.drain();
        if (n < chunk.length) {
          this.joinPending(chunk.subarray(n));
          this.drain();
        }
        return;
      }
      this.pending.push(chunk);
      this.pendingLength += chunk.length;
      if (this.buffer.length + this.pendingLength < start + length) {
        this.startStallTimer(start, length);
        return;
      }
      this.joinPending();
    } else {
      this.joinPending(chunk);
    }
    this.drain();
  }

  /** Stops the stall timer. */
  dispose(): void {
    clearTimeout(this.stallTimer);
  }

  /**
   * Whether `chunk` may hold or complete a "Content-Length: N\r\n" inside the awaited body: then
   * the whole buffer goes through drain's check for a length that swallowed the next header.
   */
  private mayHoldHeader(chunk: Buffer): boolean {
    if (chunk.includes(HEADER_START)) return true;
    return Buffer.concat([this.tail, chunk.subarray(0, HEADER_LOOKBACK)]).includes(HEADER_START);
  }

  private joinPending(extra?: Buffer): void {
    if (this.reserved) {
      this.buffer = this.reserved.bytes.subarray(0, this.reserved.filled);
      this.reserved = undefined;
    }
    if (extra?.length) this.pending.push(extra);
    if (this.pending.length) this.buffer = Buffer.concat([this.buffer, ...this.pending]);
    this.pending = [];
    this.pendingLength = 0;
    this.waiting = undefined;
  }

  /**
   * Moves `buffer` into a new one of `total` bytes that the rest of the body is copied into; none
   * for a small body, or for one too large to reserve at once (its chunks then wait as before).
   */
  private reserve(total: number): { bytes: Buffer<ArrayBuffer>; filled: number } | undefined {
    if (total - this.buffer.length < RESERVE_FROM || total > RESERVE_UP_TO || this.pending.length) return undefined;
    let bytes: Buffer<ArrayBuffer>;
    try {
      bytes = Buffer.allocUnsafe(total);
    } catch {
      return undefined; // no room for it at once: the chunks wait
    }
    this.buffer.copy(bytes);
    this.reserved = { bytes, filled: this.buffer.length };
    this.buffer = Buffer.alloc(0);
    return this.reserved;
  }

  private startStallTimer(start: number, length: number): void {
    clearTimeout(this.stallTimer);
    this.stallTimer = setTimeout(() => {
      this.joinPending();
      this.onStall(start, length);
    }, STALL_MS);
  }

  private drain(): void {
    clearTimeout(this.stallTimer);
    for (;;) {
      this.dropGarbageBeforeHeader();
      const headerEnd = this.buffer.indexOf(HEADER_END);
      if (headerEnd < 0) return;
      const length = parseContentLength(this.buffer.subarray(0, headerEnd).toString("ascii"));
      if (length === undefined) {
        this.report("Invalid message header: expected a numeric Content-Length header.", null, -32700);
        this.skipPast(headerEnd + HEADER_END.length);
        continue;
      }
      const start = headerEnd + HEADER_END.length;
      const body = this.buffer.subarray(start, start + length);
      const nextHeader = body.indexOf(HEADER_START);
      if (nextHeader >= 0 && this.looksLikeHeaderAt(start + nextHeader)) {
        // The declared length swallows the next message's header: the length lied (too long).
        this.reportLengthLie(body.subarray(0, nextHeader), length);
        this.buffer = unshared(this.buffer.subarray(start + nextHeader));
        continue;
      }
      if (body.length < length) {
        this.waiting = { start, length };
        this.startStallTimer(start, length);
        return;
      }
      this.buffer = unshared(this.buffer.subarray(start + length));
      this.deliver(body);
    }
  }

  private deliver(body: Buffer): void {
    let message: unknown;
    try {
      message = JSON.parse(body.toString("utf8"));
    } catch (err) {
      this.report(`Parse error: the message body is not valid JSON (${(err as Error).message}).`, null, -32700);
      return;
    }
    if (typeof message !== "object" || message === null || Array.isArray(message)) {
      this.report("Invalid request: a JSON-RPC message must be a JSON object.", null, -32600);
      return;
    }
    const problem = messageShapeProblem(message);
    if (problem) this.onFramingError(problem);
    else this.onMessage(message);
  }

  /**
   * The body has not completed for a while. If what arrived is already a whole JSON message, the
   * header lied (too long) and the client is waiting for an answer: say so. Otherwise the rest
   * may still be on its way, so keep waiting.
   */
  private onStall(start: number, length: number): void {
    const body = this.buffer.subarray(start);
    try {
      JSON.parse(body.toString("utf8"));
    } catch {
      return;
    }
    this.buffer = Buffer.alloc(0);
    this.reportLengthLie(body, length);
  }

  private reportLengthLie(body: Buffer, declared: number): void {
    const text = body.toString("utf8").trimEnd();
    let id: number | string | null = null;
    try {
      const parsed = JSON.parse(text) as { id?: number | string };
      id = parsed.id ?? null;
    } catch {
      /* not even JSON: report without an id */
    }
    this.report(`Invalid message: Content-Length said ${declared} bytes but the message body was ${Buffer.byteLength(text)} bytes; the message was dropped.`, id, -32600);
  }

  private looksLikeHeaderAt(offset: number): boolean {
    const rest = this.buffer.subarray(offset, offset + HEADER_LOOKBACK).toString("ascii");
    return /^Content-Length:\s*\d+\r\n/.test(rest);
  }

  /**
   * Bytes that cannot start a header (the rest of a body whose length was understated, noise)
   * are reported once and dropped up to the next Content-Length header.
   */
  private dropGarbageBeforeHeader(): void {
    if (this.buffer.length === 0 || /^content-(length|type)/i.test(this.buffer.subarray(0, 14).toString("ascii"))) return;
    if (isHeaderPrefix(this.buffer)) return; // a header still arriving
    const next = this.buffer.indexOf(HEADER_START);
    this.report("Invalid data outside a message was skipped (a Content-Length that was too short?).", null, -32700);
    this.buffer = next > 0 ? unshared(this.buffer.subarray(next)) : Buffer.alloc(0);
  }

  private skipPast(offset: number): void {
    this.buffer = unshared(this.buffer.subarray(offset));
  }

  private report(message: string, id: number | string | null, code: number): void {
    this.onFramingError({ message, id, code });
  }
}

/**
 * The rest of the buffer, copied out when it is a small part of a large one: a view keeps its
 * whole backing memory alive, so the few bytes after a 100 MB message (often none) would hold
 * all 100 MB for as long as the stream stays quiet.
 */
function unshared(rest: Buffer<ArrayBuffer>): Buffer<ArrayBuffer> {
  if (rest.length === 0) return Buffer.alloc(0);
  return rest.buffer.byteLength > 1 << 20 && rest.length * 2 < rest.buffer.byteLength ? Buffer.from(rest) : rest;
}

function parseContentLength(header: string): number | undefined {
  for (const line of header.split("\r\n")) {
    const m = /^content-length\s*:\s*(\d+)\s*$/i.exec(line);
    if (m) return Number(m[1]);
  }
  return undefined;
}

/**
 * Whether `bytes` are the start of a header name still arriving ("Content-Le", a chunk later
 * "ngth: 12"): every prefix counts, not only those up to "Content-".
 */
function isHeaderPrefix(bytes: Buffer): boolean {
  if (bytes.length >= 15) return false;
  const start = bytes.toString("ascii").toLowerCase();
  return "content-length:".startsWith(start) || "content-type:".startsWith(start);
}
