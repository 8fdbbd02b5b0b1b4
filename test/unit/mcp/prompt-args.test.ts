/** Prompt commands' words as prompt arguments: in order, quotes group, the last takes the rest. */
import { describe, expect, it } from "vitest";
import { promptArguments, splitWords } from "../../../server/src/mcp/prompt-args.js";

const declared = [
  { name: "topic", required: true, description: "What to explain" },
  { name: "audience", required: false },
  { name: "detail", required: false },
];

describe("prompt arguments", () => {
  it("splits words, keeping double-quoted runs together", () => {
    expect(splitWords('auth "new users" in   depth')).toEqual(["auth", "new users", "in", "depth"]);
  });

  it("maps words in order; the last argument takes the rest", () => {
    expect(promptArguments("mcp__docs__explain", declared, 'auth "new users" in depth please')).toEqual({
      ok: true,
      values: { topic: "auth", audience: "new users", detail: "in depth please" },
    });
  });

  it("leaves out optional arguments not given", () => {
    expect(promptArguments("mcp__docs__explain", declared, "auth")).toEqual({ ok: true, values: { topic: "auth" } });
  });

  it("answers a missing required argument with a usage line", () => {
    expect(promptArguments("mcp__docs__explain", declared, "")).toEqual({
      ok: false,
      usage: "Usage: /mcp__docs__explain <topic> [audience] [detail]\n  topic: What to explain\nMissing: topic.",
    });
  });

  it("gives the last argument the rest as typed, quotes inside it kept", () => {
    expect(promptArguments("p", [{ name: "code", required: true }], ' x = "1" + 2 ')).toEqual({ ok: true, values: { code: 'x = "1" + 2' } });
    expect(promptArguments("p", [{ name: "a" }, { name: "b" }], 'one "two three"')).toEqual({ ok: true, values: { a: "one", b: "two three" } });
  });
});
