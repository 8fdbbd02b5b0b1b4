/**
 * Requests pipelined behind `initialize`: a client may write `session/new` in the same chunk as
 * `initialize` (the spec lets it send once initialize is sent), but the SDK refuses any request
 * that arrives before it has answered initialize (-32600, "must be initialized"). So every
 * message after an initialize request waits here until that request's answer has been written,
 * then goes on in order: queued, never refused.
 */
import type * as acp from "@agentclientprotocol/sdk";
import type { WrittenAnswers } from "../util/written-answers.js";

/** `stream` with messages after an initialize held until its answer is out. */
export function queueUntilInitialized(stream: acp.Stream): acp.Stream {
  let waitingFor: number | string | undefined;
  let release: (() => void) | undefined;
  let gate: Promise<void> = Promise.resolve();
  const readable = stream.readable.pipeThrough(
    new TransformStream<acp.AnyMessage, acp.AnyMessage>({
      async transform(message, controller) {
        await gate;
        controller.enqueue(message);
        if ("method" in message && message.method === "initialize" && "id" in message && message.id !== undefined && message.id !== null) {
          waitingFor = message.id;
          gate = new Promise((resolve) => (release = resolve));
        }
      },
    }),
  );
  const writer = stream.writable.getWriter();
  const writable = new WritableStream<acp.AnyMessage>({
    async write(message) {
      await writer.write(message);
      if (waitingFor !== undefined && !("method" in message) && "id" in message && message.id === waitingFor) {
        waitingFor = undefined;
        // The SDK marks the connection initialized once its answer is written: let the next
        // message through only after that.
        setImmediate(() => release?.());
      }
    },
    close: () => writer.close(),
    abort: (reason) => writer.abort(reason),
  });
  return { readable, writable };
}

/** `stream` with each written message handed to `answers` once it has gone out. */
export function watchWrites(stream: acp.Stream, answers: WrittenAnswers): acp.Stream {
  const writer = stream.writable.getWriter();
  const writable = new WritableStream<acp.AnyMessage>({
    write: async (message) => {
      await writer.write(message);
      answers.written(message as { method?: unknown; id?: unknown });
    },
    close: () => writer.close(),
    abort: (reason) => writer.abort(reason),
  });
  return { readable: stream.readable, writable };
}
