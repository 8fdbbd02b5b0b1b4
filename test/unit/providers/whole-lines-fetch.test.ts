/** Event-stream bodies regrouped into pieces that end at a line break, bytes unchanged. */
import { describe, expect, it } from "vitest";
import { wholeLines, wholeLinesFetch } from "../../../server/src/providers/whole-lines-fetch.js";

const enc = new TextEncoder();
const dec = new TextDecoder();

async function regroup(chunks: string[]): Promise<string[]> {
  const source = new ReadableStream<Uint8Array>({
    start(c) {
      for (const chunk of chunks) c.enqueue(enc.encode(chunk));
      c.close();
    },
  });
  const out: string[] = [];
  for await (const piece of source.pipeThrough(wholeLines()) as unknown as AsyncIterable<Uint8Array>) out.push(dec.decode(piece));
  return out;
}

describe("wholeLines", () => {
  it.each([
    { name: "small whole events pass as they came", input: ["data: 1\n\n", "data: 2\n\n"], output: ["data: 1\n\n", "data: 2\n\n"] },
    { name: "a long event in many reads comes as one piece", input: ["data: {\"a\":", "\"xxxx", "xxxx\"}", "\n\ndata: 2\n\n"], output: ["data: {\"a\":\"xxxxxxxx\"}\n\ndata: 2\n\n"] },
    { name: "the part after the last break waits for the next", input: ["data: 1\n\ndata: ", "2\n\n"], output: ["data: 1\n\n", "data: 2\n\n"] },
    { name: "CR line breaks count", input: ["data: 1\r", "\rdata: 2", "\r\r"], output: ["data: 1\r", "\r", "data: 2\r\r"] },
    { name: "an unfinished end is flushed as it is", input: ["data: 1\n\ndata: part"], output: ["data: 1\n\n", "data: part"] },
  ])("$name", async ({ input, output }) => {
    const got = await regroup(input);
    expect(got).toEqual(output);
    expect(got.join("")).toBe(input.join(""));
  });

  it("keeps a multi-byte character split between reads whole", async () => {
    const bytes = enc.encode("data: héllo\n\n");
    const source = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(bytes.subarray(0, 8)); // ends inside é
        c.enqueue(bytes.subarray(8));
        c.close();
      },
    });
    const pieces: Uint8Array[] = [];
    for await (const piece of source.pipeThrough(wholeLines()) as unknown as AsyncIterable<Uint8Array>) pieces.push(piece);
    expect(pieces.map((p) => dec.decode(p))).toEqual(["data: héllo\n\n"]);
  });
});

describe("wholeLinesFetch", () => {
  const respond = (type: string) => async () => new Response(new ReadableStream({ start: (c) => (c.enqueue(enc.encode("data: a")), c.enqueue(enc.encode("b\n\n")), c.close()) }), { headers: { "content-type": type } });

  it("regroups an event stream and keeps status and headers", async () => {
    const res = await wholeLinesFetch(respond("text/event-stream; charset=utf-8") as typeof fetch)("http://x");
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const pieces: string[] = [];
    for await (const piece of res.body as unknown as AsyncIterable<Uint8Array>) pieces.push(dec.decode(piece));
    expect(pieces).toEqual(["data: ab\n\n"]);
  });

  it("leaves any other body alone", async () => {
    const res = await wholeLinesFetch(respond("application/json") as typeof fetch)("http://x");
    const pieces: string[] = [];
    for await (const piece of res.body as unknown as AsyncIterable<Uint8Array>) pieces.push(dec.decode(piece));
    expect(pieces).toEqual(["data: a", "b\n\n"]);
  });
});
