import { describe, expect, it } from "vitest";
import { boundedInput } from "../../../server/src/util/bounded-input.js";

describe("boundedInput", () => {
  const long = `${"a".repeat(30)}${"m".repeat(100)}${"z".repeat(10)}`;
  it.each([
    ["a small input is the same object", { path: "a.ts", content: "short" }, 100, (out: unknown, input: unknown) => expect(out).toBe(input)],
    ["a long string keeps its first three quarters and last quarter of the limit", { path: "a.ts", content: long }, 40, (out: any) => {
      expect(out.path).toBe("a.ts");
      expect(out.content).toBe(`${"a".repeat(30)}\n[… 100 characters not shown …]\n${"z".repeat(10)}`);
    }],
    ["strings in arrays and nested objects are cut too", { edits: [{ old: long, new: "x" }] }, 40, (out: any) => {
      expect(out.edits[0].old).toContain("[… 100 characters not shown …]");
      expect(out.edits[0].new).toBe("x");
    }],
    ["numbers, booleans and null stay", { n: 1, b: true, z: null, s: long }, 40, (out: any) => expect([out.n, out.b, out.z]).toEqual([1, true, null])],
    ["a string input on its own is cut", long, 40, (out: any) => expect(out).toMatch(/^a{30}\n\[… 100 characters not shown …\]\nz{10}$/)],
    ["the count is written with thousands separators", "x".repeat(1_234_607), 40, (out: any) => expect(out).toContain("\n[… 1,234,567 characters not shown …]\n")],
  ])("%s", (_name, input, limit, check) => {
    const copy = structuredClone(input);
    check(boundedInput(input, limit), input);
    expect(input).toEqual(copy); // the tool's own input is never changed
  });
});
