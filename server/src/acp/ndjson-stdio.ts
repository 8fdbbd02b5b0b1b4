/**
 * ACP's newline-delimited JSON on Node streams, read the way the LSP front end reads its frames:
 * each chunk split into lines and parsed where it lands, every message handed straight to the
 * fair pacer (util/fair-queue.ts), which hands them to the SDK one per turn of the event loop. The
 * SDK's own ndJsonStream sent each message through an await per line and two web-stream hops
 * (promise ping-pong per message) before the pacer saw it: reading a burst of 10,000 prompts cost
 * about 1.5 times what LSP's took, and a `session/list` or a cancel behind the burst waited for all
 * of that. The lines are taken as the SDK takes them (LF ends a line, a CR before it is dropped,
 * blank lines are skipped, a line past its byte limit ends the connection), and bad lines are
 * answered as it answers them.
 */
import type { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import { FairPacer, sessionRoute } from "../util/fair-queue.js";
import { LargeInputWatch } from "../util/large-input.js";

const LF = 0x0a;
const CR = 0x0d;

/** Where the messages go and where the connection's answers to bad lines are written. */
export interface NdJsonOptions {
  /** What the connection gets of each message; undefined drops it (an answer to no request). */
  admit?: (message: acp.AnyMessage) => acp.AnyMessage | undefined;
  /** Bytes one line may have (the SDK's limit by default). */
  maxMessageBytes?: number;
}

/**
 * An acp.Stream over `input` (bytes already read first: `head`) and `output`: messages parsed as
 * they arrive and paced fairly between sessions; messages written as one JSON line each.
 */
export function ndJsonStdio(input: Readable, output: Writable, head: Buffer = Buffer.alloc(0), options: NdJsonOptions = {}): acp.Stream {
  const writable = new WritableStream<acp.AnyMessage>({ write: (message) => writeLine(output, message) });
  const readable = new ReadableStream<acp.AnyMessage>(
    {
      start(controller) {
        const pacer = new FairPacer<acp.AnyMessage>((m) => controller.enqueue(m), sessionRoute("session/cancel"));
        // A large line (message) gives its memory back once read (util/large-input.ts).
        const large = new LargeInputWatch();
        const lines = new LineReader(options.maxMessageBytes ?? acp.DEFAULT_MAX_MESSAGE_BYTES, (line) => {
          const message = parseLine(line, output);
          large.ended();
          const admitted = message && (options.admit ? options.admit(message) : message);
          if (admitted) pacer.push(admitted);
        });
        let ended = false;
        const end = (err?: unknown) => {
          if (ended) return;
          ended = true;
          input.off("data", onData);
          pacer.whenDelivered(() => (err === undefined ? controller.close() : controller.error(err)));
        };
        const onData = (chunk: Buffer) => {
          large.read(chunk.length);
          try {
            lines.push(chunk);
          } catch (err) {
            end(err);
          }
        };
        const finish = () => {
          lines.flush();
          end();
        };
        onData(head);
        if (input.readableEnded) return finish();
        input.on("data", onData);
        input.once("end", finish);
        input.once("error", (err) => end(err));
        // The start-up path paused it after reading the first line; a listener alone does not resume.
        input.resume();
      },
      cancel: () => void input.pause(),
    },
    { highWaterMark: Number.POSITIVE_INFINITY },
  );
  return { readable, writable };
}

/** Writes `message` as one line; resolves once `output` has taken it. */
function writeLine(output: Writable, message: unknown): Promise<void> {
  return new Promise((resolve, reject) => output.write(`${JSON.stringify(message)}\n`, (err) => (err ? reject(err) : resolve())));
}

/** The message on a line, or undefined for a blank or bad line (a bad one is answered as the SDK does). */
function parseLine(line: string, output: Writable): acp.AnyMessage | undefined {
  const text = line.trim();
  if (!text) return undefined;
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return void answer(output, acp.RequestError.parseError());
  }
  if (Array.isArray(message)) return void answer(output, acp.RequestError.invalidRequest(undefined, "JSON-RPC batches are not supported"));
  if (typeof message !== "object" || message === null) return void answer(output, acp.RequestError.invalidRequest(message));
  return message as acp.AnyMessage;
}

function answer(output: Writable, error: acp.RequestError): void {
  writeLine(output, { jsonrpc: "2.0", id: null, error: error.toErrorResponse() }).catch(() => undefined);
}

/**
 * Splits bytes into LF-ended lines (without the LF and a CR before it), each byte scanned once. A
 * line that spans reads is gathered in one buffer grown by doubling (as the SDK's reader does),
 * not as the reads themselves: thousands of 64 KB pieces held at once fragment the heap.
 */
class LineReader {
  private held = Buffer.alloc(0);
  private heldBytes = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly line: (text: string) => void,
  ) {}

  /** Takes the next bytes; throws MessageTooLargeError when a line outgrows the limit. */
  push(chunk: Buffer): void {
    let start = 0;
    for (let lf = chunk.indexOf(LF); lf !== -1; lf = chunk.indexOf(LF, start)) {
      if (this.heldBytes) {
        this.hold(chunk.subarray(start, lf));
        this.emitHeld();
      } else {
        if (lf - start > this.maxBytes) throw new acp.MessageTooLargeError(this.maxBytes);
        this.emit(chunk.subarray(start, lf));
      }
      start = lf + 1;
    }
    if (start < chunk.length) this.hold(chunk.subarray(start));
  }

  /** The unended last line, handed on (at the input's end). */
  flush(): void {
    if (this.heldBytes) this.emitHeld();
  }

  private hold(bytes: Buffer): void {
    const length = this.heldBytes + bytes.length;
    if (length > this.maxBytes) {
      this.reset();
      throw new acp.MessageTooLargeError(this.maxBytes);
    }
    if (length > this.held.length) {
      const grown = Buffer.allocUnsafe(Math.min(this.maxBytes, Math.max(length, this.held.length * 2, 1024)));
      this.held.copy(grown, 0, 0, this.heldBytes);
      this.held = grown;
    }
    bytes.copy(this.held, this.heldBytes);
    this.heldBytes = length;
  }

  private emitHeld(): void {
    const bytes = this.held.subarray(0, this.heldBytes);
    this.reset();
    this.emit(bytes);
  }

  /** Forgets the held line; a buffer grown past a megabyte is let go, so its memory can return. */
  private reset(): void {
    if (this.held.length > 1 << 20) this.held = Buffer.alloc(0);
    this.heldBytes = 0;
  }

  private emit(bytes: Buffer): void {
    const end = bytes.length > 0 && bytes[bytes.length - 1] === CR ? bytes.length - 1 : bytes.length;
    this.line(bytes.toString("utf8", 0, end));
  }
}
