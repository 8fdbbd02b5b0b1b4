/**
 * An event stream whose huge `data:` lines are parsed as they arrive and handed on small. Gemini
 * sends a function call whole, in one event: a 50 MB `create` is one 50 MB line. `@google/genai`
 * appends each 64 KB read to everything it buffered and searches all of it for the event's end
 * (quadratic: 23 s of CPU for 50 MB, in stretches of up to 700 ms that held every other request),
 * then JSON.parses the event twice. Here a `data:` line past a megabyte is parsed by us a read at
 * a time (linear, JSON.parse's own decoding), and what goes on is the same line with its large
 * strings as placeholders ({@link LargeStrings}), which the provider swaps back. Lines that are
 * not JSON pass on unchanged, as do small ones (regrouped into whole lines, as they came).
 */
import { TextDecoder } from "node:util";
import { breather } from "../util/breathe.js";
import { IncrementalJson } from "../util/incremental-json.js";
import type { LargeStrings } from "./large-strings.js";
import { eventStreamsThrough, join, lastBreak } from "./whole-lines-fetch.js";

const LF = 0x0a;
const CR = 0x0d;
/** A line held this long (in bytes) without its end is parsed as it comes. */
const LARGE_LINE_BYTES = 1 << 20;
const DATA = new TextEncoder().encode("data:");

/** A large `data:` line being read: its JSON so far, and the bytes as they came (for a line that is no JSON). */
interface LargeLine {
  json: IncrementalJson;
  decoder: TextDecoder;
  raw: Uint8Array[];
}

/** `text/event-stream` bytes with large `data:` lines parsed into `strings` as they stream (see the file's comment). */
export function hideLargeEvents(strings: LargeStrings): TransformStream<Uint8Array, Uint8Array> {
  let held: Uint8Array[] = [];
  let heldBytes = 0;
  let large: LargeLine | undefined;
  const encoder = new TextEncoder();
  // The reads of a large line come back to back in microtasks; without a pause now and then
  // they hold the event loop as one long stretch.
  const pause = breather(5);

  /** Ends the large line: its JSON with placeholders, or its bytes as they came. */
  const finishLarge = (controller: TransformStreamDefaultController<Uint8Array>) => {
    const line = large!;
    large = undefined;
    line.json.push(line.decoder.decode());
    let value: unknown;
    try {
      value = line.json.end();
    } catch {
      for (const bytes of line.raw) controller.enqueue(bytes);
      return;
    }
    controller.enqueue(encoder.encode(`data: ${JSON.stringify(strings.hide(value))}`));
  };

  const startLarge = () => {
    const bytes = join(held, heldBytes);
    held = [];
    heldBytes = 0;
    large = { json: new IncrementalJson(), decoder: new TextDecoder(), raw: [bytes] };
    large.json.push(large.decoder.decode(bytes.subarray(DATA.length), { stream: true }));
  };

  return new TransformStream({
    async transform(chunk, controller) {
      if (large) {
        const end = firstBreak(chunk);
        const part = end < 0 ? chunk : chunk.subarray(0, end);
        large.raw.push(part);
        large.json.push(large.decoder.decode(part, { stream: true }));
        if (end < 0) return pause();
        finishLarge(controller);
        chunk = chunk.subarray(end);
      }
      const end = lastBreak(chunk);
      if (end >= 0) {
        const head = chunk.subarray(0, end + 1);
        controller.enqueue(held.length ? join([...held, head], heldBytes + head.length) : head);
        chunk = chunk.subarray(end + 1);
        held = [];
        heldBytes = 0;
      }
      if (chunk.length === 0) return;
      held.push(chunk);
      heldBytes += chunk.length;
      if (heldBytes >= LARGE_LINE_BYTES && startsWithData(held)) startLarge();
      await pause();
    },
    flush(controller) {
      if (large) finishLarge(controller);
      else if (heldBytes) controller.enqueue(join(held, heldBytes));
    },
  });
}

/**
 * `inner` around an SDK that was handed placeholders from `strings`: a request body the SDK
 * wrote with placeholders goes out with their strings spliced back (built a piece at a time), and
 * `text/event-stream` bodies pass through {@link hideLargeEvents}, their large strings landing in
 * `strings` for the provider to put back.
 */
export function largeStringsFetch(inner: typeof fetch, strings: LargeStrings): typeof fetch {
  const events = eventStreamsThrough(inner, () => hideLargeEvents(strings));
  return async (input, init) => {
    const body = typeof init?.body === "string" ? await strings.body(init.body) : undefined;
    return events(input, body ? { ...init, body } : init);
  };
}

/** Whether the held line starts with `data:` (its first bytes may be spread over several reads). */
function startsWithData(parts: Uint8Array[]): boolean {
  let at = 0;
  for (const part of parts) {
    for (let i = 0; i < part.length && at < DATA.length; i++, at++) {
      if (part[i] !== DATA[at]) return false;
    }
    if (at === DATA.length) return true;
  }
  return false;
}

function firstBreak(chunk: Uint8Array): number {
  const lf = chunk.indexOf(LF);
  const cr = chunk.indexOf(CR);
  return lf < 0 ? cr : cr < 0 ? lf : Math.min(lf, cr);
}
