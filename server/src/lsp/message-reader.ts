/**
 * The LSP library's view of the message stream: messages come from a MessageSource (framing.ts
 * parses them; bad frames are answered there) and go to the connection.
 */
import { AbstractMessageReader, type DataCallback, type Disposable, type Message } from "vscode-languageserver/node.js";
import type { MessageSource } from "./message-source.js";

/** A MessageReader over a MessageSource. */
export class SourceMessageReader extends AbstractMessageReader {
  constructor(private readonly source: MessageSource) {
    super();
  }

  listen(callback: DataCallback): Disposable {
    return this.source.listen({
      message: (m) => callback(m as Message),
      close: () => this.fireClose(),
      error: (err) => this.fireError(err),
    });
  }
}
