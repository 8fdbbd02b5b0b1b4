/**
 * ACP's newline-delimited JSON read straight off the input stream: lines split wherever the
 * chunks cut them, taken as the SDK takes them, bad lines answered as it answers them, and every
 * message reaching the connection's stream in order.
 */
import { PassThrough } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { ndJsonStdio } from "../../../server/src/acp/ndjson-stdio.js";

/** Feeds `chunks` (after `head`) and ends; returns what the readable gave and what was written. */
async function read(chunks: (string | Buffer)[], head = "", options: Parameters<typeof ndJsonStdio>[3] = {}) {
  const input = new PassThrough();
  const output = new PassThrough();
  let written = "";
  output.on("data", (d) => (written += d));
  const stream = ndJsonStdio(input, output, Buffer.from(head), options);
  for (const chunk of chunks) input.write(chunk);
  input.end();
  const messages: unknown[] = [];
  let error: unknown;
  try {
    for await (const m of stream.readable) messages.push(m);
  } catch (err) {
    error = err;
  }
  await new Promise((r) => setImmediate(r));
  return { messages, answers: written.split("\n").filter(Boolean).map((l) => JSON.parse(l)), error };
}

/** The same through the SDK's ndJsonStream, which ndJsonStdio stands in for. */
async function readWithSdk(chunks: string[]) {
  let written = "";
  const output = new WritableStream<Uint8Array>({ write: (b) => void (written += Buffer.from(b).toString()) });
  const input = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(Buffer.from(chunk));
      controller.close();
    },
  });
  const messages: unknown[] = [];
  for await (const m of acp.ndJsonStream(output, input).readable) messages.push(m);
  return { messages, answers: written.split("\n").filter(Boolean).map((l) => JSON.parse(l)) };
}

const note = (n: number) => ({ jsonrpc: "2.0", method: "note", params: { n, text: "é 😀" } });

describe("ndJsonStdio", () => {
  it("splits lines wherever the chunks cut them (inside a character too), LF or CRLF, skipping blank lines", async () => {
    const text = `${JSON.stringify(note(1))}\r\n\n  \n${JSON.stringify(note(2))}\n${JSON.stringify(note(3))}`;
    const bytes = Buffer.from(text);
    for (const size of [1, 3, 7, bytes.length]) {
      const chunks: Buffer[] = [];
      for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
      const { messages, answers } = await read(chunks);
      expect(messages).toEqual([note(1), note(2), note(3)]);
      expect(answers).toEqual([]);
    }
  });

  it("reads the bytes the start-up path read before the input's own", async () => {
    const one = JSON.stringify(note(1));
    const { messages } = await read([`${one.slice(9)}\n${JSON.stringify(note(2))}\n`], `${JSON.stringify(note(0))}\n${one.slice(0, 9)}`);
    expect(messages).toEqual([note(0), note(1), note(2)]);
  });

  it("answers a line that is no JSON, a batch and a bare value as the SDK's own reader does, and goes on", async () => {
    const chunks = ["{nope\n", "[1,2]\n", "5\n", "null\n", `${JSON.stringify(note(1))}\n`];
    const ours = await read(chunks);
    const sdk = await readWithSdk(chunks);
    expect(ours.messages).toEqual([note(1)]);
    expect(sdk.messages).toEqual(ours.messages);
    expect(ours.answers).toHaveLength(4);
    expect(ours.answers).toEqual(sdk.answers);
  });

  it("drops what admit refuses and hands on what it returns", async () => {
    const { messages } = await read([`${JSON.stringify(note(1))}\n${JSON.stringify(note(2))}\n`], "", {
      admit: (m) => ((m as { params: { n: number } }).params.n === 1 ? undefined : { ...m, seen: true } as never),
    });
    expect(messages).toEqual([{ ...note(2), seen: true }]);
  });

  it("ends the stream with an error when a line outgrows the limit, in one chunk or across several", async () => {
    for (const chunks of [[`${"x".repeat(50)}\n`], ["x".repeat(30), "x".repeat(30), "\n"]]) {
      const { error } = await read([`${JSON.stringify(note(1))}\n`, ...chunks], "", { maxMessageBytes: 40 });
      expect((error as Error).name).toBe("MessageTooLargeError");
    }
  });
});
