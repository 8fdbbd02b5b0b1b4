/**
 * The readers' watch for a large incoming message: it asks for a collection after a message that
 * was large (with the resident memory from when it turned large), never after small ones.
 */
import { describe, expect, it } from "vitest";
import { LARGE_INPUT_BYTES, LargeInputWatch } from "../../../server/src/util/large-input.js";

const MB = 1024 * 1024;

/** Feeds messages (each a list of chunk sizes, then its end); what release was asked with. */
function watch(messages: number[][]): number[] {
  const released: number[] = [];
  let rss = 100;
  const w = new LargeInputWatch((before) => released.push(Math.round(before)), () => rss);
  for (const chunks of messages) {
    for (const n of chunks) {
      w.read(n);
      rss += n / MB; // memory grows as the message is read; the watch reads it when the message turns large
    }
    w.ended();
  }
  return released;
}

describe("LargeInputWatch", () => {
  it.each([
    ["small messages", [[1000], [64 * 1024, 64 * 1024], [MB]], []],
    ["one message just under the line", [[LARGE_INPUT_BYTES]], []],
    ["one large message in 1 MB chunks", [Array.from({ length: 20 }, () => MB)], [108]],
    ["a large one between small ones", [[1000], Array.from({ length: 10 }, () => 2 * MB), [1000]], [108]],
    ["two large ones: each its own request", [[10 * MB], [10 * MB]], [100, 110]],
  ])("%s", (_, messages, expected) => {
    expect(watch(messages)).toEqual(expected);
  });
});
