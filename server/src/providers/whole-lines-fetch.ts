/**
 * A `fetch` whose event-stream bodies arrive in pieces that end at a line break. The openai
 * SDK looks for the blank line that ends an event by scanning all it has buffered from its start
 * on every read (internal/decoders/line.js); an event of megabytes (a tool input in 1 MB pieces
 * of `arguments`) comes in dozens of reads of 64 KB, so that scan is quadratic in the event's
 * size: 1.4 s of CPU over a 50 MB create, in stretches of 100-170 ms that held every other
 * request. Handing the SDK whole lines, which it scans once, makes the same work linear; a
 * stream of small events passes through almost as it came. (The Anthropic provider does not need
 * the regrouping: measured with and without, it only added a copy; it is only paced, pacedChunks.)
 */

import { breather } from "../util/breathe.js";

const LF = 0x0a;
const CR = 0x0d;

/** `inner`, with `text/event-stream` bodies regrouped into pieces that end at a line break. */
export function wholeLinesFetch(inner: typeof fetch): typeof fetch {
  return eventStreamsThrough(inner, wholeLines);
}

/** `inner`, with `text/event-stream` bodies piped through a fresh `transform()`; other responses as they are. */
export function eventStreamsThrough(inner: typeof fetch, transform: () => TransformStream<Uint8Array, Uint8Array>): typeof fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    const type = response.headers.get("content-type") ?? "";
    if (!response.body || !type.toLowerCase().includes("text/event-stream")) return response;
    const copy = new Response(response.body.pipeThrough(transform()), { status: response.status, statusText: response.statusText, headers: response.headers });
    // Only the SDKs' logging reads it, but a copy without it would log an empty URL.
    Object.defineProperty(copy, "url", { value: response.url });
    return copy;
  };
}

/**
 * The bytes as they come, with a turn for the event loop every 5 ms: reads that piled up are
 * otherwise taken back to back in microtasks, and an SDK parsing megabyte events between them
 * (the Anthropic SDK during a 50 MB tool input) holds every other request for 40-50 ms at a time.
 */
export function pacedChunks(): TransformStream<Uint8Array, Uint8Array> {
  const pause = breather(5);
  return new TransformStream({
    async transform(chunk, controller) {
      controller.enqueue(chunk);
      await pause();
    },
  });
}

/**
 * Regroups bytes so each piece ends at the last line break (LF or CR) that had arrived; the rest
 * waits for the next break or the end. Every byte is looked at once and copied at most once.
 */
export function wholeLines(): TransformStream<Uint8Array, Uint8Array> {
  let held: Uint8Array[] = [];
  let heldBytes = 0;
  // Reads that have piled up are taken back to back in microtasks, each megabyte event parsed by
  // the SDK in between: without a pause now and then that is one stretch of 40-50 ms.
  const pause = breather(5);
  return new TransformStream({
    async transform(chunk, controller) {
      const end = lastBreak(chunk);
      if (end < 0) {
        held.push(chunk);
        heldBytes += chunk.length;
        return pause();
      }
      const head = chunk.subarray(0, end + 1);
      controller.enqueue(held.length ? join([...held, head], heldBytes + head.length) : head);
      const rest = chunk.subarray(end + 1);
      held = rest.length ? [rest] : [];
      heldBytes = rest.length;
      await pause();
    },
    flush(controller) {
      if (heldBytes) controller.enqueue(join(held, heldBytes));
    },
  });
}

/** Where the last line break (LF or CR) of `chunk` is, or -1. */
export function lastBreak(chunk: Uint8Array): number {
  return Math.max(chunk.lastIndexOf(LF), chunk.lastIndexOf(CR));
}

/** `parts` (of `length` bytes in all) as one array; a single part as it is. */
export function join(parts: Uint8Array[], length: number): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
