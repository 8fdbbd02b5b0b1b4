/**
 * Messages read from a byte stream, held until someone listens. The stdio start-up path reads
 * (and may answer) the first messages before the LSP library has loaded; the connection then
 * gets every message in order, none lost.
 */
import type { Readable } from "node:stream";
import { LargeInputWatch } from "../util/large-input.js";
import { FrameParser, type FramingError } from "./framing.js";

/** Where a MessageSource delivers. */
export interface MessageListener {
  message(message: object): void;
  close(): void;
  error(err: Error): void;
}

/** Framed JSON-RPC messages from a readable stream. */
export class MessageSource {
  private readonly queue: object[] = [];
  private listener: MessageListener | undefined;
  private closed = false;
  private readonly parser: FrameParser;
  private readonly large = new LargeInputWatch();
  private onFramingError: (error: FramingError) => void;

  /**
   * @param input the byte stream (stdin)
   * @param onFramingError called for every bad frame (the server answers it)
   */
  constructor(
    private readonly input: Readable,
    onFramingError: (error: FramingError) => void,
  ) {
    this.onFramingError = onFramingError;
    this.parser = new FrameParser((m) => this.deliver(m), (e) => this.onFramingError(e));
    input.on("data", (chunk: Buffer) => {
      this.large.read(chunk.length);
      this.parser.push(chunk);
    });
    const onClose = () => this.close();
    input.on("end", onClose);
    input.on("close", onClose);
    input.on("error", (err: Error) => this.listener?.error(err));
  }

  /**
   * Routes framing errors elsewhere: once the LSP library writes to stdout, every answer must go
   * through its writer, or two writers could interleave the bytes of their messages.
   */
  setFramingErrorHandler(handler: (error: FramingError) => void): void {
    this.onFramingError = handler;
  }

  /** Resolves with the first message, or undefined when the stream ends first. */
  first(): Promise<object | undefined> {
    if (this.queue.length || this.closed) return Promise.resolve(this.queue[0]);
    return new Promise((resolve) => {
      const check = () => {
        if (!this.queue.length && !this.closed) return;
        this.input.off("data", check);
        this.input.off("end", check);
        resolve(this.queue[0]);
      };
      // Parsing happens in an earlier "data" listener, so by now the queue is up to date.
      this.input.on("data", check);
      this.input.on("end", check);
    });
  }

  /** Delivers queued and future messages to `listener`. */
  listen(listener: MessageListener): { dispose(): void } {
    this.listener = listener;
    for (const m of this.queue.splice(0)) listener.message(m);
    if (this.closed) listener.close();
    return {
      dispose: () => {
        this.listener = undefined;
        this.parser.dispose();
      },
    };
  }

  private deliver(message: object): void {
    this.large.ended();
    if (this.listener) this.listener.message(message);
    else this.queue.push(message);
  }

  private close(): void {
    if (this.closed) return;
    this.closed = true;
    this.listener?.close();
  }
}
