/**
 * Requests pipelined behind `initialize`: a client may write `session/new` in the same chunk as
 * `initialize` (the spec lets it send once initialize is sent), but the SDK refuses any request
 * that arrives before it has answered initialize (-32600, "must be initialized"). So every
 * message after an initialize request waits here until that request's answer has been written,
 * then goes on in order: queued, never refused.
 */
import type * as acp from "@agentclientprotocol/sdk";

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

/**
 * Runs what waits for a request's answer once that answer has been written: updates about a
 * session follow its id, and the runtime's load (a long synchronous stretch) starts only after
 * the new session's answer is out, not between the handler's return and the write.
 */
export class WrittenAnswers {
  private readonly waiting = new Map<number | string, Array<() => void>>();

  /** Calls `fn` once the answer to request `id` has been written (soon, when the id is unknown). */
  after(id: number | string | null | undefined, fn: () => void): void {
    if (id === undefined || id === null) {
      setImmediate(fn);
      return;
    }
    const list = this.waiting.get(id);
    if (list) list.push(fn);
    else this.waiting.set(id, [fn]);
  }

  /** `stream` with its writes watched. */
  watch(stream: acp.Stream): acp.Stream {
    const writer = stream.writable.getWriter();
    const writable = new WritableStream<acp.AnyMessage>({
      write: async (message) => {
        await writer.write(message);
        if ("method" in message || !("id" in message) || message.id === undefined || message.id === null) return;
        const due = this.waiting.get(message.id);
        if (!due) return;
        this.waiting.delete(message.id);
        setImmediate(() => {
          for (const fn of due) fn();
        });
      },
      close: () => writer.close(),
      abort: (reason) => writer.abort(reason),
    });
    return { readable: stream.readable, writable };
  }
}
