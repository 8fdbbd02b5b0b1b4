/** The structured side of tool calls: kind, locations and command from the input; diffs file by file. */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { callFacts, fileDiffs } from "../../../server/src/agent/turn/tool-call-facts.js";
import { defineTool } from "../../../server/src/tools/define-tool.js";
import type { PolicyClass } from "../../../server/src/vocabulary/policy.js";

const tool = (policyClass: PolicyClass, callKind?: "search") =>
  defineTool({ name: "t", description: "", input: z.any(), policyClass, category: "file", ...(callKind ? { callKind } : {}), execute: async () => "" });

describe("callFacts", () => {
  it.each([
    ["a read with a line range", tool("read_only"), { path: "src/a.ts", start_line: 10, line_count: 5 }, { toolKind: "read", locations: [{ path: "src/a.ts", line: 10, endLine: 14 }] }],
    ["a view_range read", tool("read_only"), { path: "/p/a.ts", view_range: [3, 9] }, { toolKind: "read", locations: [{ path: "a.ts", line: 3, endLine: 9 }] }],
    ["an edit", tool("read_write"), { path: "b.ts" }, { toolKind: "edit", locations: [{ path: "b.ts" }] }],
    ["a search declared as such", tool("read_only", "search"), { path: "." }, { toolKind: "search", locations: [{ path: "/p" }] }],
    ["a path outside", tool("read_only"), { path: "../x.txt" }, { toolKind: "read", locations: [{ path: "/x.txt" }] }],
    ["a command", tool("exec"), { command: "npm test", cwd: "web" }, { toolKind: "execute", command: { command: "npm test", cwd: "/p/web" } }],
    ["no input", tool("network"), undefined, { toolKind: "fetch" }],
    ["an unknown tool", undefined, { path: "a" }, { toolKind: "other", locations: [{ path: "a" }] }],
  ])("%s", (_name, capability, input, expected) => {
    expect(callFacts(capability, input, "/p")).toEqual(expected);
  });
});

describe("fileDiffs", () => {
  it("splits a diff of several files, keeping a note before a header with its file", () => {
    const a = "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-x\n+y\n";
    const note = "diff of big.txt not shown: too big\n";
    const b = "--- /dev/null\n+++ b/big.txt\n";
    const c = "--- a/gone.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-z\n";
    expect(fileDiffs(a + note + b + c)).toEqual([
      { path: "a.txt", diff: a },
      { path: "big.txt", diff: note + b },
      { path: "gone.txt", diff: c },
    ]);
  });

  it("finds no files in no diff", () => {
    expect(fileDiffs("")).toEqual([]);
  });
});
