/**
 * The LSP library's view of the message stream: messages come from a MessageSource (framing.ts
 * parses them; bad frames are answered there) and go to the connection, one per turn of the event
 * loop with sessions taking turns (util/fair-queue.ts), so a burst of requests on one session
 * never holds up `agent/listSessions`, `agent/cancel` or another session's requests.
 */
import type { DataCallback, Disposable, Message } from "vscode-languageserver/node.js";
import { AbstractMessageReader } from "./lsp-library.js";
import { FairPacer, sessionRoute } from "../util/fair-queue.js";
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
    const pacer = new FairPacer<object>((m) => callback(m as Message), sessionRoute("agent/cancel"));
    return this.source.listen({
      message: (m) => {
        const admitted = this.admit(m);
        if (admitted) pacer.push(admitted);
      },
      close: () => pacer.whenDelivered(() => this.fireClose()),
      error: (err) => pacer.whenDelivered(() => this.fireError(err)),
    });
  }
}
