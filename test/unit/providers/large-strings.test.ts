/**
 * Megabyte strings past an SDK as placeholders: hidden and shown back, a body spliced back to the
 * exact bytes JSON.stringify gives, and an event stream whose large `data:` lines are parsed as
 * they come while everything else passes unchanged.
 */
import { describe, expect, it } from "vitest";
import { LargeStrings } from "../../../server/src/providers/large-strings.js";
import { hideLargeEvents } from "../../../server/src/providers/large-events.js";

const BIG = `a "quoted" \\ line\té 😀\n`.repeat(60_000); // about 1.4 M characters

describe("LargeStrings", () => {
  it("hides only large strings, copying only the objects on their path, and shows them back", () => {
    const strings = new LargeStrings();
    const small = { path: "p", n: 1, ok: true, none: null };
    const value = { small, parts: [{ args: { content: BIG, path: "big.txt" } }, "x"] };
    const hidden = strings.hide(value);
    expect(hidden.small).toBe(small);
    expect(hidden.parts[0]).not.toBe(value.parts[0]);
    const placeholder = (hidden.parts[0] as { args: { content: string } }).args.content;
    expect(placeholder.length).toBeLessThan(100);
    expect(value.parts[0]).toEqual({ args: { content: BIG, path: "big.txt" } });
    expect(strings.show(JSON.parse(JSON.stringify(hidden)))).toEqual(value);
  });

  it("leaves a value without large strings as it is", () => {
    const strings = new LargeStrings();
    const value = { a: ["b", { c: "d" }] };
    expect(strings.hide(value)).toBe(value);
    expect(strings.size).toBe(0);
  });

  it("splices the strings back into a body: the UTF-8 of JSON.stringify of the original", async () => {
    const strings = new LargeStrings();
    const original = { contents: [{ parts: [{ functionCall: { name: "w", args: { content: BIG } } }, { text: BIG.slice(0, 1_200_000) }] }], note: "é" };
    const blob = await strings.body(JSON.stringify(strings.hide(original)));
    expect(blob?.type).toBe("application/json");
    expect(Buffer.from(await blob!.arrayBuffer()).equals(Buffer.from(JSON.stringify(original), "utf8"))).toBe(true);
  });

  it("leaves a body without placeholders to the SDK", async () => {
    expect(await new LargeStrings().body('{"a":"b"}')).toBeUndefined();
  });
});

/** Runs `bytes` through the transform in reads of `size` bytes; returns what came out, as text. */
async function through(strings: LargeStrings, bytes: Uint8Array, size: number): Promise<string> {
  const input = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let at = 0; at < bytes.length; at += size) controller.enqueue(bytes.subarray(at, at + size));
      controller.close();
    },
  });
  return new Response(input.pipeThrough(hideLargeEvents(strings))).text();
}

describe("hideLargeEvents", () => {
  const event = { candidates: [{ content: { role: "model", parts: [{ functionCall: { name: "w", args: { content: BIG } } }] }, index: 0 }] };
  const small = { candidates: [{ content: { parts: [{ text: "hi" }] } }] };

  for (const [framing, eol] of [["CRLF", "\r\n"], ["LF", "\n"]] as const) {
    for (const size of [65_536, 7_777]) {
      it(`parses a large data line as it streams (${framing}, ${size}-byte reads) and passes small events unchanged`, async () => {
        const strings = new LargeStrings();
        const text = `data: ${JSON.stringify(small)}${eol}${eol}data: ${JSON.stringify(event)}${eol}${eol}data: ${JSON.stringify(small)}${eol}${eol}`;
        const out = await through(strings, new TextEncoder().encode(text), size);
        const events = out.split(`${eol}${eol}`);
        expect(events).toHaveLength(4);
        expect(events[0]).toBe(`data: ${JSON.stringify(small)}`);
        expect(events[2]).toBe(`data: ${JSON.stringify(small)}`);
        expect(events[1]!.length).toBeLessThan(400);
        expect(strings.show(JSON.parse(events[1]!.slice("data:".length)))).toEqual(event);
      });
    }
  }

  it("passes a large line that is not JSON on unchanged", async () => {
    const strings = new LargeStrings();
    const text = `data: {"broken": "${"z".repeat(1_500_000)}\n\ndata: {"ok":1}\n\n`;
    expect(await through(strings, new TextEncoder().encode(text), 65_536)).toBe(text);
    expect(strings.size).toBe(0);
  });
});
