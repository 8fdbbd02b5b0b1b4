/**
 * The frame parser on the byte patterns editors produce: a large body in many chunks (copied into
 * one buffer as it comes, not joined per chunk), and a Content-Length that lies, fed in small chunks.
 */
import { describe, expect, it } from "vitest";
import { FrameParser, type FramingError } from "../../../server/src/lsp/framing.js";

const frame = (body: string, length = Buffer.byteLength(body)) => Buffer.from(`Content-Length: ${length}\r\n\r\n${body}`);

function parse(bytes: Buffer, chunkSize: number) {
  const messages: object[] = [];
  const errors: FramingError[] = [];
  const parser = new FrameParser((m) => messages.push(m), (e) => errors.push(e));
  for (let i = 0; i < bytes.length; i += chunkSize) parser.push(bytes.subarray(i, i + chunkSize));
  parser.dispose();
  return { messages, errors };
}

describe("FrameParser", () => {
  it("delivers a 20 MB didOpen sent in 64 KB chunks once, quickly", () => {
    const text = "x".repeat(20 * 1024 * 1024);
    const body = JSON.stringify({ jsonrpc: "2.0", method: "textDocument/didOpen", params: { text } });
    const started = performance.now();
    const { messages, errors } = parse(Buffer.concat([frame(body), frame('{"jsonrpc":"2.0","method":"x"}')]), 65536);
    // Joining per chunk took over 10 s here; joining once takes well under one.
    expect(performance.now() - started).toBeLessThan(3000);
    expect(errors).toEqual([]);
    expect(messages).toHaveLength(2);
    expect((messages[0] as { params: { text: string } }).params.text).toHaveLength(text.length);
  });

  it("keeps a body that mentions Content-Length in its text", () => {
    const body = JSON.stringify({ jsonrpc: "2.0", method: "m", params: { text: `${"a".repeat(5000)}Content-Length: 12\\r\\n${"b".repeat(5000)}` } });
    const { messages, errors } = parse(frame(body), 7);
    expect(errors).toEqual([]);
    expect(messages).toHaveLength(1);
  });

  it("notices, in small chunks, a length that swallows the next message's header", () => {
    const first = '{"jsonrpc":"2.0","id":1,"method":"a"}';
    const second = '{"jsonrpc":"2.0","id":2,"method":"b"}';
    const { messages, errors } = parse(Buffer.concat([frame(first, 4000), frame(second)]), 7);
    expect(errors).toEqual([expect.objectContaining({ id: 1, code: -32600 })]);
    expect(messages).toEqual([JSON.parse(second)]);
  });

  it("reads messages fed one byte at a time", () => {
    const first = '{"jsonrpc":"2.0","id":1,"method":"a"}';
    const second = '{"jsonrpc":"2.0","id":2,"method":"b"}';
    expect(parse(Buffer.concat([frame(first), frame(second)]), 1)).toEqual({ messages: [JSON.parse(first), JSON.parse(second)], errors: [] });
    // and a lying length is still noticed
    const lie = parse(Buffer.concat([frame(first, 4000), frame(second)]), 1);
    expect(lie.errors).toEqual([expect.objectContaining({ id: 1, code: -32600 })]);
    expect(lie.messages).toEqual([JSON.parse(second)]);
  });

  const big = (mb: number, id: number) => JSON.stringify({ jsonrpc: "2.0", id, method: "m", params: { text: "y".repeat(mb * 1024 * 1024) } });
  const small = '{"jsonrpc":"2.0","id":9,"method":"after"}';
  it.each([
    ["whole chunks", 65536],
    ["chunks that end inside the next message", 65537],
    ["chunks of 1 MB and a byte", (1 << 20) + 1],
    ["the whole stream at once", Number.MAX_SAFE_INTEGER],
  ])("a body of megabytes in %s, with a message right behind it: both arrive whole", (_, size) => {
    const { messages, errors } = parse(Buffer.concat([frame(big(3, 1)), frame(small), frame(big(2, 2))]), size);
    expect(errors).toEqual([]);
    expect(messages.map((m) => (m as { id: number }).id)).toEqual([1, 9, 2]);
    expect((messages[0] as { params: { text: string } }).params.text).toHaveLength(3 * 1024 * 1024);
    expect((messages[2] as { params: { text: string } }).params.text).toHaveLength(2 * 1024 * 1024);
  });

  it("a length of megabytes that lies (too long) is noticed when the next header arrives, and that message is read", () => {
    const { messages, errors } = parse(Buffer.concat([frame(big(1, 1), 3 * 1024 * 1024), frame(small)]), 65536);
    expect(errors).toEqual([expect.objectContaining({ id: 1, code: -32600 })]);
    expect(messages).toEqual([JSON.parse(small)]);
  });
});
