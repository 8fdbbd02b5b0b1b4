/**
 * The event stream's cost per update: emitting 100,000 updates to the subscribers a session has
 * (the front end's forwarder and a run watch), against calling those same subscribers directly,
 * in the same process. Target: under 0.01 ms per update added by the stream.
 */
import { SessionEvents } from "../server/src/editor/session-events.js";
import type { SessionUpdate } from "../server/src/protocol/updates.js";

const UPDATES = 100_000;

export async function benchEvents(): Promise<string[]> {
  const update: SessionUpdate = { kind: "text", text: "the next piece of the answer " };
  let sink = 0;
  const forward = (_id: string, u: SessionUpdate | { kind: string }) => {
    sink += u.kind.length;
  };
  const watch = (_id: string, u: SessionUpdate | { kind: string }) => {
    if (u.kind === "text") sink++;
  };
  const events = new SessionEvents();
  events.subscribe(forward);
  events.subscribe(watch, "s-1");
  events.subscribe(watch, "s-2");
  const direct = () => {
    for (let i = 0; i < UPDATES; i++) {
      forward("s-1", update);
      watch("s-1", update);
    }
  };
  const streamed = () => {
    for (let i = 0; i < UPDATES; i++) events.emit("s-1", update);
  };
  // Warm both paths, then take the best of several rounds of each (noise only ever adds time).
  const best = (fn: () => void) => {
    let min = Infinity;
    for (let round = 0; round < 7; round++) {
      const start = process.hrtime.bigint();
      fn();
      min = Math.min(min, Number(process.hrtime.bigint() - start) / 1e6);
    }
    return min;
  };
  best(direct);
  best(streamed);
  const directMs = best(direct);
  const streamedMs = best(streamed);
  if (sink < 0) console.log(sink);
  const perUpdate = (streamedMs - directMs) / UPDATES;
  return [
    `events_direct_calls ${directMs.toFixed(2)} ms for ${UPDATES} updates`,
    `events_stream ${streamedMs.toFixed(2)} ms for ${UPDATES} updates`,
    `events_overhead_per_update ${(Math.max(perUpdate, 0) * 1000).toFixed(4)} µs (target < 10 µs)`,
  ];
}
