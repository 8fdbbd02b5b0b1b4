/**
 * Cuts JSON-RPC messages out of a byte stream in linear time: chunks kept in a list and joined only
 * when a whole header or body is there, each message cut out once. LSP framing (`Content-Length`
 * headers) or ACP's newline-delimited JSON. A client that joined every chunk onto what it held
 * spent quadratic time on a server's megabyte answers, and tests timed that instead of the server.
 */
/** How messages are cut out of the byte stream. */
export type Framing = "lsp" | "ndjson";

/** One message as JSON-RPC has it. */
export interface WireMessage {
  id?: number | string;
  method?: string;
  params?: any;
  result?: any;
  error?: { code: number; message: string };
}

/** Splits a byte stream into messages in linear time. */
export class LinearParser {
  private chunks: Buffer[] = [];
  private size = 0;
  /** Body length of the message being read, once its header is in. */
  private need = -1;

  constructor(
    private readonly framing: Framing,
    private readonly onMessage: (message: WireMessage) => void,
  ) {}

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    if (this.framing === "ndjson") this.lines();
    else this.frames();
  }

  /** Joins the held chunks into one (only done when a whole message or header is there). */
  private joined(): Buffer {
    if (this.chunks.length > 1) this.chunks = [Buffer.concat(this.chunks, this.size)];
    return this.chunks[0] ?? Buffer.alloc(0);
  }

  private keep(rest: Buffer): void {
    this.chunks = rest.length ? [rest] : [];
    this.size = rest.length;
  }

  private lines(): void {
    // Only the newest chunk can hold the end of the pending line.
    if (!this.chunks[this.chunks.length - 1]!.includes(10)) return;
    const all = this.joined();
    let start = 0;
    for (let end = all.indexOf(10, start); end >= 0; end = all.indexOf(10, start)) {
      const line = all.subarray(start, end).toString().trim();
      start = end + 1;
      if (line) this.onMessage(JSON.parse(line) as WireMessage);
    }
    this.keep(all.subarray(start));
  }

  private frames(): void {
    for (;;) {
      if (this.need < 0) {
        const all = this.joined();
        const end = all.indexOf("\r\n\r\n");
        if (end < 0) return;
        this.need = Number(/Content-Length:\s*(\d+)/i.exec(all.subarray(0, end).toString())?.[1] ?? 0);
        this.keep(all.subarray(end + 4));
      }
      if (this.size < this.need) return;
      const all = this.joined();
      const body = all.subarray(0, this.need);
      this.keep(all.subarray(this.need));
      this.need = -1;
      this.onMessage(JSON.parse(body.toString()) as WireMessage);
    }
  }
}
