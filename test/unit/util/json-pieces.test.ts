/**
 * A large record's JSON written a piece at a time (the conversation log's 50 MB `create`): the
 * pieces joined are exactly JSON.stringify's text, and no piece is much longer than asked.
 */
import { describe, expect, it } from "vitest";
import { JsonText, jsonPieces, stringChars } from "../../../server/src/util/json-pieces.js";

const record = (content: string) => ({
  type: "message",
  seq: 3,
  gone: undefined,
  fn: () => 1,
  time: new Date(0),
  message: { role: "assistant", content: [{ type: "tool_call", name: "write_file", input: { path: "p", content }, extra: [1, undefined, null, "s", { "k\"ey": true }] }] },
});

describe("jsonPieces", () => {
  // Surrogate pairs, escapes and control characters fall on every kind of cut.
  const content = 'ab😀"\\\n\u0001é'.repeat(3000) + "😀";

  it.each([1, 2, 3, 7, 64, 1000, 100_000])("joins to JSON.stringify's text in pieces of %i characters", (size) => {
    const value = record(content);
    expect([...jsonPieces(value, size)].join("")).toBe(JSON.stringify(value));
  });

  it("keeps pieces near the size asked for a value with one huge string", () => {
    const value = record("y".repeat(5_000_000));
    const pieces = [...jsonPieces(value, 1 << 16)];
    expect(pieces.join("")).toBe(JSON.stringify(value));
    expect(pieces.length).toBeGreaterThan(70);
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThan(2 * (1 << 16) + 200);
  });

  it("writes a small value whole", () => {
    expect([...jsonPieces({ a: [1, "b"], c: null })]).toEqual(['{"a":[1,"b"],"c":null}']);
    expect([...jsonPieces("text")]).toEqual(['"text"']);
  });
});

describe("JsonText", () => {
  // A chat-completions call's `arguments`: a string holding the input's JSON, written when needed.
  const input = { path: "p", content: 'ab😀"\\\n\u0001é'.repeat(3000) + "😀", n: 1 };
  const body = (args: unknown) => ({ messages: [{ role: "assistant", tool_calls: [{ function: { name: "w", arguments: args } }] }] });

  it.each([1, 7, 1000, 100_000])("writes, in pieces of %i characters, the string JSON.stringify of the input would be", (size) => {
    expect([...jsonPieces(body(new JsonText(input)), size)].join("")).toBe(JSON.stringify(body(JSON.stringify(input))));
  });

  it("is the same string when JSON.stringify writes it whole", () => {
    expect(JSON.stringify(body(new JsonText(input)))).toBe(JSON.stringify(body(JSON.stringify(input))));
  });
});

describe("stringChars", () => {
  it("counts strings and keys, and stops once past the bound", () => {
    expect(stringChars({ ab: ["cde", { f: "g" }], n: 5 })).toBe(2 + 3 + 1 + 1 + 1);
    expect(stringChars(["x".repeat(10), "y".repeat(10), "z".repeat(10)], 5)).toBe(10);
  });
});
