/**
 * A tool input parsed as its deltas stream in: for any text cut anywhere, the same value as
 * JSON.parse of the whole, and a failure wherever JSON.parse fails.
 */
import { describe, expect, it } from "vitest";
import { IncrementalJson } from "../../../server/src/util/incremental-json.js";

/** Parses `text` pushed in pieces cut at `cuts`; the value, or the SyntaxError thrown. */
function parsed(text: string, cuts: number[]): { value?: unknown; error?: boolean } {
  const p = new IncrementalJson();
  let at = 0;
  for (const cut of [...cuts, text.length]) {
    p.push(text.slice(at, cut));
    at = cut;
  }
  try {
    return { value: p.end() };
  } catch (err) {
    expect(err).toBeInstanceOf(SyntaxError);
    return { error: true };
  }
}

function reference(text: string): { value?: unknown; error?: boolean } {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return { error: true };
  }
}

const valid = [
  '{"path":"a.txt","content":"line \\"one\\"\\n\\ttwo \\\\ \\u00e9\\ud83d\\ude00 😀 end"}',
  ' [1, -2.5e3, true, false, null, {"a":[]}, [], {}, "", "\\/"] ',
  '{"__proto__":{"x":1},"b":{"c":[{"d":"e"}]},"b":2,"2":0,"1":0}',
  '"just a string"',
  "0",
  '{"k":"\\\\\\\\","k2":"\\\\\\""}',
];
const invalid = ["", "   ", "{", '{"a"}', '{"a":1,}', "[1,]", "[1 2]", '{"a":1 "b":2}', "01", "tru", "nulltrue", '"\\x"', '"\\u12"', '"a\nb"', "{} {}", '{"a":1}}', "[}", "\f1", '{"a":-}', '"unterminated'];

describe("IncrementalJson", () => {
  it.each(valid.concat(invalid))("agrees with JSON.parse on %j, cut at every place and in twos", (text) => {
    const expected = reference(text);
    expect(parsed(text, [])).toEqual(expected);
    for (let i = 0; i <= text.length; i++) expect(parsed(text, [i])).toEqual(expected);
    for (let i = 0; i <= text.length; i += 3) for (let j = i; j <= text.length; j += 2) expect(parsed(text, [i, j])).toEqual(expected);
  });

  it("keeps __proto__ an own property, as JSON.parse does", () => {
    const p = new IncrementalJson();
    p.push('{"__proto__":{"polluted":true}}');
    const value = p.end() as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(["__proto__"]);
  });

  it("parses a large write_file input pushed in 1 MB deltas", () => {
    const input = { path: "big.txt", content: 'y"\\é😀\n'.repeat(400_000) };
    const text = JSON.stringify(input);
    const p = new IncrementalJson();
    for (let at = 0; at < text.length; at += 1 << 20) p.push(text.slice(at, at + (1 << 20)));
    expect(p.end()).toEqual(input);
  });

  it("tells whether anything but whitespace came", () => {
    const p = new IncrementalJson();
    p.push(" \n");
    expect(p.sawText).toBe(false);
    p.push("{");
    expect(p.sawText).toBe(true);
  });
});
