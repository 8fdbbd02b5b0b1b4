/** Provider-safe MCP names: charset, the 64-character cap, and collisions told apart the same way every time. */
import { describe, expect, it } from "vitest";
import { promptCommandNames, serverParts, toolNames } from "../../../server/src/mcp/names.js";

describe("MCP names", () => {
  it.each([
    ["list_issues", "mcp__gh__list_issues"],
    ["get-file", "mcp__gh__get-file"],
    ["search.code", "mcp__gh__search_code"],
    ["créer note", "mcp__gh__cr_er_note"],
    ["", "mcp__gh___"],
  ])("sanitises %j", (raw, expected) => {
    expect(toolNames("gh", [raw])).toEqual([expected]);
  });

  it("keeps every name within 64 characters, with a hash of the raw name when cut", () => {
    const raw = "a".repeat(100);
    const [name] = toolNames("server", [raw]);
    expect(name!.length).toBe(64);
    expect(name).toMatch(/^mcp__server__a+_[0-9a-f]{6}$/);
    expect(toolNames("server", [raw])).toEqual([name]);
    expect(toolNames("server", [`${raw}b`])[0]).not.toBe(name);
  });

  it("tells apart names that sanitise alike: the unchanged one keeps its name, whatever the order", () => {
    const a = toolNames("s", ["a.b", "a_b", "a b"]);
    const b = toolNames("s", ["a b", "a_b", "a.b"]);
    expect(new Set(a).size).toBe(3);
    expect(a[1]).toBe("mcp__s__a_b");
    expect(b[1]).toBe("mcp__s__a_b");
    expect(a[0]).toBe(b[2]);
    expect(a[2]).toBe(b[0]);
    for (const n of a) expect(n).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
  });

  it("keeps server parts unique and short enough to leave room for tool names", () => {
    const parts = serverParts(["my.server", "my_server", "x".repeat(80)]);
    expect(new Set(parts).size).toBe(3);
    expect(parts[1]).toBe("my_server");
    expect(parts[2]!.length).toBeLessThanOrEqual(64 - 5 - 2 - 16);
  });

  it("lowercases prompt command names", () => {
    expect(promptCommandNames("Docs", ["Explain Code", "explain_code"])).toEqual([expect.stringMatching(/^mcp__docs__explain_code_[0-9a-f]{6}$/), "mcp__docs__explain_code"]);
  });
});
