/**
 * Command names are compared without localeCompare when they are lowercase letters, digits and
 * hyphens; the order must be localeCompare's all the same.
 */
import { describe, expect, it } from "vitest";
import { byCommandName } from "../../../server/src/agent/commands/command-order.js";

const sign = (n: number) => Math.sign(n);

/** A name of `alphabet`, 0 to 8 characters, from a seeded generator (the same names every run). */
function names(alphabet: string, count: number): string[] {
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  return Array.from({ length: count }, () => Array.from({ length: Math.floor(next() * 9) }, () => alphabet[Math.floor(next() * alphabet.length)]).join(""));
}

describe("the order of command names", () => {
  it("is localeCompare's for names of lowercase letters, digits and hyphens", () => {
    const list = [...names("ab-19z", 300), "mcp-login", "mcp", "model", "mode", "a-b", "ab", "a1", "a-1", "-", "0"];
    for (const a of list) for (const b of list) expect([a, b, sign(byCommandName(a, b))]).toEqual([a, b, sign(a.localeCompare(b))]);
  });

  it("is localeCompare's for any other name (skills, workflows, MCP prompts)", () => {
    const list = ["skill:review", "mcp__srv__plan", "Zed", "zed", "a_b", "a:b", "ab", "a1", "mcp-login", "éclair", "eclair"];
    for (const a of list) for (const b of list) expect(sign(byCommandName(a, b))).toBe(sign(a.localeCompare(b)));
    expect([...list].sort(byCommandName)).toEqual([...list].sort((a, b) => a.localeCompare(b)));
  });
});
