/**
 * A large request body sent a piece at a time. The request after a 50 MB `create` carries it back
 * (built as a Blob without holding the event loop: large-body.ts, large-strings.ts); handed to
 * fetch as a Blob, undici read it and wrote it to the socket in one run of microtasks, 60-90 ms in
 * which no other request was answered. As a stream that pauses every few milliseconds it goes out
 * the same: the same bytes, with its Content-Length (undici keeps a length it is given, so the
 * body is not sent chunked).
 */
import { breather } from "../util/breathe.js";

/** Bodies at least this large (in bytes) are paced. */
export const PACED_BODY_BYTES = 4 * 1024 * 1024;

/** `inner`, with a Blob body of PACED_BODY_BYTES or more sent as a paced stream of the same bytes. */
export function pacedBodies(inner: typeof fetch): typeof fetch {
  return (input, init) => {
    const body = init?.body;
    if (!(body instanceof Blob) || body.size < PACED_BODY_BYTES) return inner(input, init);
    const headers = new Headers(init!.headers);
    headers.set("content-length", String(body.size));
    if (!headers.has("content-type") && body.type) headers.set("content-type", body.type);
    // A retry calls fetch again with the same Blob, and gets a fresh stream of it.
    return inner(input, { ...init, headers, body: paced(body), duplex: "half" } as RequestInit);
  };
}

/** `blob`'s bytes as a stream that gives the event loop a turn every 5 ms. */
function paced(blob: Blob): ReadableStream<Uint8Array> {
  const reader = blob.stream().getReader();
  const pause = breather(5);
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        await pause();
        const { value, done } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );
}
