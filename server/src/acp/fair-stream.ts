/**
 * ACP messages handed to the SDK one per turn of the event loop, sessions taking turns
 * (util/fair-queue.ts): the SDK dispatches every message it can read at once, so without this a
 * burst of thousands of `session/prompt` on one session would hold up `session/list`,
 * `session/cancel` and other sessions' requests until the whole burst was answered.
 */
import type * as acp from "@agentclientprotocol/sdk";
import { FairPacer, sessionRoute } from "../util/fair-queue.js";

/** `stream` with its incoming messages paced fairly between sessions. */
export function fairlyPaced(stream: acp.Stream): acp.Stream {
  const source = stream.readable.getReader();
  const readable = new ReadableStream<acp.AnyMessage>(
    {
      start(controller) {
        const pacer = new FairPacer<acp.AnyMessage>((m) => controller.enqueue(m), sessionRoute("session/cancel"));
        void pump(source, pacer).then(
          () => pacer.whenDelivered(() => controller.close()),
          (err: unknown) => pacer.whenDelivered(() => controller.error(err)),
        );
      },
      cancel: (reason) => source.cancel(reason),
    },
    { highWaterMark: Number.POSITIVE_INFINITY },
  );
  return { readable, writable: stream.writable };
}

async function pump(source: ReadableStreamDefaultReader<acp.AnyMessage>, pacer: FairPacer<acp.AnyMessage>): Promise<void> {
  for (;;) {
    const { value, done } = await source.read();
    if (done) return;
    pacer.push(value);
  }
}
