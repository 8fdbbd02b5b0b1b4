/**
 * The capability registry: register/unregister/unregisterKind/find, and list(filter) composing
 * kind -> policy -> allowlist ([] none, absent no narrowing) -> excluded names -> excluded
 * categories -> hidden, in insertion order.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../../server/src/tools/define-tool.js";
import { ToolRegistry } from "../../server/src/tools/registry.js";
import { type ListFilter } from "../../server/src/vocabulary/policy.js";
import type { Capability } from "../../server/src/tools/types.js";
import type { PolicyClass, ToolKind } from "../../server/src/vocabulary/policy.js";

function cap(name: string, kind: ToolKind, policyClass: PolicyClass, category: string, extra: { hidden?: boolean; metadata?: Record<string, unknown> } = {}): Capability {
  const c = defineTool({
    name,
    description: name,
    input: z.object({}),
    policyClass,
    category,
    hiddenFromAgent: extra.hidden ?? false,
    metadata: extra.metadata ?? {},
    execute: async () => name,
  });
  return { ...c, kind };
}

function registry(): ToolRegistry {
  const r = new ToolRegistry();
  r.register(cap("read", "builtin", "read_only", "file"));
  r.register(cap("write", "builtin", "read_write", "file"));
  r.register(cap("shell", "builtin", "exec", "system"));
  r.register(cap("fetch", "builtin", "network", "web"));
  r.register(cap("mcp_x_search", "mcp", "external_api", "mcp", { metadata: { server: "x" } }));
  r.register(cap("mcp_x_secret", "mcp", "external_api", "mcp", { hidden: true, metadata: { server: "x" } }));
  r.register(cap("mcp_y_tool", "mcp", "read_only", "mcp", { metadata: { server: "y" } }));
  r.register(cap("desktop", "builtin", "gui_control", "computer", { hidden: true }));
  return r;
}

const VISIBLE = ["read", "write", "shell", "fetch", "mcp_x_search", "mcp_y_tool"];

const CASES: [string, ListFilter | undefined, string[]][] = [
  ["no filter: everything, hidden included", undefined, ["read", "write", "shell", "fetch", "mcp_x_search", "mcp_x_secret", "mcp_y_tool", "desktop"]],
  ["an empty filter hides hidden tools only", {}, VISIBLE],
  ["kind all", { kind: "all" }, VISIBLE],
  ["kind builtin", { kind: "builtin" }, ["read", "write", "shell", "fetch"]],
  ["kind mcp", { kind: "mcp" }, ["mcp_x_search", "mcp_y_tool"]],
  ["kind mcp, hidden included", { kind: "mcp", includeHidden: true }, ["mcp_x_search", "mcp_x_secret", "mcp_y_tool"]],
  ["policy allow read_only", { policy: { allow: ["read_only"] } }, ["read", "mcp_y_tool"]],
  ["policy deny wins over allow", { policy: { allow: ["read_only", "exec"], deny: ["exec"] } }, ["read", "mcp_y_tool"]],
  ["policy allow nothing", { policy: { allow: [] } }, []],
  ["allowlist [] admits nothing", { allowedTools: [] }, []],
  ["allowlist absent does not narrow", { allowedTools: undefined }, VISIBLE],
  ["allowlist narrows by name", { allowedTools: ["shell", "read", "nope"] }, ["read", "shell"]],
  ["allowlist does not reveal hidden tools", { allowedTools: ["mcp_x_secret", "read"] }, ["read"]],
  ["allowlist with hidden included", { allowedTools: ["mcp_x_secret", "read"], includeHidden: true }, ["read", "mcp_x_secret"]],
  ["excluded names", { excludedNames: ["write", "fetch"] }, ["read", "shell", "mcp_x_search", "mcp_y_tool"]],
  ["excluded categories", { excludedCategories: ["file", "mcp"] }, ["shell", "fetch"]],
  [
    "every stage at once",
    { kind: "builtin", policy: { allow: ["read_only", "read_write", "exec", "gui_control"], deny: ["exec"] }, allowedTools: ["read", "write", "shell", "desktop", "mcp_y_tool"], excludedNames: ["read"], excludedCategories: ["web"] },
    ["write"],
  ],
  ["an allowlist cannot bring back a class the policy removed", { policy: { allow: ["read_only"] }, allowedTools: ["write", "read"] }, ["read"]],
  ["an excluded name beats the allowlist", { allowedTools: ["read", "write"], excludedNames: ["write"] }, ["read"]],
  ["a category exclusion beats the allowlist", { allowedTools: ["read", "shell"], excludedCategories: ["system"] }, ["read"]],
  ["the hidden stage comes last: includeHidden still obeys every earlier stage", { kind: "builtin", policy: { allow: ["gui_control"] }, includeHidden: true }, ["desktop"]],
];

describe("ToolRegistry.list", () => {
  it.each(CASES)("%s", (_name, filter, expected) => {
    expect(registry().list(filter).map((c) => c.name)).toEqual(expected);
  });
});

describe("ToolRegistry membership", () => {
  it("refuses a duplicate name and keeps the first", () => {
    const r = registry();
    expect(() => r.register(cap("read", "mcp", "exec", "mcp"))).toThrow(/already registered/);
    expect(r.find("read")?.policyClass).toBe("read_only");
  });

  it("unregisters by name", () => {
    const r = registry();
    expect(r.unregister("write")).toBe(true);
    expect(r.unregister("write")).toBe(false);
    expect(r.find("write")).toBeUndefined();
  });

  it("unregisterKind removes a family by kind and metadata, and nothing else", () => {
    const r = registry();
    expect(r.unregisterKind("mcp", { server: "x" })).toEqual(["mcp_x_search", "mcp_x_secret"]);
    expect(r.list().map((c) => c.name)).toEqual(["read", "write", "shell", "fetch", "mcp_y_tool", "desktop"]);
    expect(r.unregisterKind("builtin", { server: "y" })).toEqual([]);
    expect(r.unregisterKind("mcp")).toEqual(["mcp_y_tool"]);
    // A re-registration after the family left works (an MCP server reconnecting).
    r.register(cap("mcp_x_search", "mcp", "external_api", "mcp", { metadata: { server: "x" } }));
    expect(r.find("mcp_x_search")).toBeDefined();
  });
});

describe("older names (aliases)", () => {
  const renamed = (): Capability => ({ ...cap("working_respond", "builtin", "read_only", "reporting"), aliases: ["act_mode_respond"] });

  it("find a tool by its older name; list offers only the new one", () => {
    const r = new ToolRegistry();
    r.register(renamed());
    expect(r.find("act_mode_respond")?.name).toBe("working_respond");
    expect(r.list().map((c) => c.name)).toEqual(["working_respond"]);
  });

  it("an alias that another tool already uses (as name or alias) is refused", () => {
    const r = new ToolRegistry();
    r.register(cap("act_mode_respond", "builtin", "read_only", "reporting"));
    expect(() => r.register(renamed())).toThrow(/"act_mode_respond" is already registered/);
  });

  it("unregistering the tool frees its older names", () => {
    const r = new ToolRegistry();
    r.register(renamed());
    r.unregister("working_respond");
    expect(r.find("act_mode_respond")).toBeUndefined();
    r.register(cap("act_mode_respond", "builtin", "read_only", "reporting"));
    expect(r.find("act_mode_respond")?.name).toBe("act_mode_respond");
  });
});
