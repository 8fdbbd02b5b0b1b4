/**
 * The LSP library's view of the message stream: messages come from a MessageSource (framing.ts
 * parses them; bad frames are answered there) and go to the connection.
 */
import { AbstractMessageReader, type DataCallback, type Disposable, type Message } from "vscode-languageserver/node.js";
import type { MessageSource } from "./message-source.js";

/** A MessageReader over a MessageSource. */
export class SourceMessageReader extends AbstractMessageReader {
  /**
   * @param source the messages
   * @param admit what the connection gets of each message (an answer's id mapped back); a
   *   message it returns undefined for is dropped (an answer to no request of this server)
   */
  constructor(
    private readonly source: MessageSource,
    private readonly admit: (message: object) => object | undefined = (m) => m,
  ) {
    super();
  }

  listen(callback: DataCallback): Disposable {
    return this.source.listen({
      message: (m) => {
        const admitted = this.admit(m);
        if (admitted) callback(admitted as Message);
      },
      close: () => this.fireClose(),
      error: (err) => this.fireError(err),
    });
  }
}
