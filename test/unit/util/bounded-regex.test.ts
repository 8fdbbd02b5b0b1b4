/** A model's regular expression cannot freeze the server. */
import { describe, expect, it } from "vitest";
import { boundedRegexTest, mayBacktrackWithoutEnd, RegexTimeoutError } from "../../../server/src/util/bounded-regex.js";
import { PROMPTLY_MS } from "../../helpers/wait.js";

describe("boundedRegexTest", () => {
  it.each([
    [/ready on port \d+/m, "starting\nready on port 3000\n", true],
    [/error/i, "all good", false],
  ])("%s on %j is %s", (re, text, expected) => {
    expect(boundedRegexTest(re, text)).toBe(expected);
  });

  it("stops a catastrophically backtracking pattern with a clear error", () => {
    const t0 = Date.now();
    expect(() => boundedRegexTest(/^(a+)+$/, `${"a".repeat(40)}!`, 100)).toThrow(RegexTimeoutError);
    expect(Date.now() - t0).toBeLessThan(PROMPTLY_MS);
  });
});

describe("mayBacktrackWithoutEnd", () => {
  it.each([
    [/^(a+)+$/, true],
    [/(\w*)*x/, true],
    [/(x|y+){2,}/, true],
    [/ready on port \d+/, false],
    [/function\s+(\w+)\s*\(/, false],
    [/\(a+\)+/, false],
  ])("%s → %s", (re, expected) => {
    expect(mayBacktrackWithoutEnd(re)).toBe(expected);
  });
});
