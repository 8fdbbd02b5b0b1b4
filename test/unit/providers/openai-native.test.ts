import { describe, expect, it } from "vitest";
import { rewriteOpenAIApplyPatch } from "../../../server/src/providers/native/openai.js";

describe("rewriteOpenAIApplyPatch: apply_patch_call operations onto our apply_patch", () => {
  const patch = (...lines: string[]) => ({ name: "apply_patch", input: { patch: [...lines, ""].join("\n") } });

  it.each([
    {
      what: "create_file with a V4A + body",
      op: { type: "create_file", path: "src/new.ts", diff: "+export const a = 1;\n+\n+export const b = 2;\n" },
      want: patch("*** Begin Patch", "*** Add File: src/new.ts", "+export const a = 1;", "+", "+export const b = 2;", "*** End Patch"),
    },
    {
      what: "create_file sent as bare file text gets its + prefixes",
      op: { type: "create_file", path: "notes.md", diff: "# Notes\n\n+ one\n" },
      want: patch("*** Begin Patch", "*** Add File: notes.md", "+# Notes", "+", "++ one", "*** End Patch"),
    },
    {
      what: "create_file of an empty file",
      op: { type: "create_file", path: "empty.txt", diff: "" },
      want: patch("*** Begin Patch", "*** Add File: empty.txt", "*** End Patch"),
    },
    {
      what: "update_file keeps the hunks as they are",
      op: { type: "update_file", path: "src/a.ts", diff: "@@ function f() {\n   const x = 1;\n-  return x;\n+  return x + 1;\n" },
      want: patch("*** Begin Patch", "*** Update File: src/a.ts", "@@ function f() {", "   const x = 1;", "-  return x;", "+  return x + 1;", "*** End Patch"),
    },
    {
      what: "update_file with CRLF line ends",
      op: { type: "update_file", path: "a.txt", diff: "-old\r\n+new\r\n" },
      want: patch("*** Begin Patch", "*** Update File: a.txt", "-old", "+new", "*** End Patch"),
    },
    {
      what: "delete_file needs no diff",
      op: { type: "delete_file", path: "old/file.ts" },
      want: patch("*** Begin Patch", "*** Delete File: old/file.ts", "*** End Patch"),
    },
  ])("$what", ({ op, want }) => {
    expect(rewriteOpenAIApplyPatch(op)).toEqual(want);
  });

  it.each([
    { what: "not an object", op: "create_file a.ts", error: "must be an object" },
    { what: "an unknown operation", op: { type: "rename_file", path: "a", diff: "" }, error: "unknown operation type" },
    { what: "no path", op: { type: "delete_file" }, error: "`path`" },
    { what: "a path with a line break", op: { type: "update_file", path: "a\n*** Delete File: b", diff: "-x\n+y" }, error: "`path`" },
    { what: "create_file without a diff", op: { type: "create_file", path: "a" }, error: "`diff` is required" },
    { what: "update_file with an empty diff", op: { type: "update_file", path: "a", diff: "\n" }, error: "diff is empty" },
  ])("answers $what with an error for the model", ({ op, error }) => {
    const result = rewriteOpenAIApplyPatch(op);
    expect(result).toEqual({ error: expect.stringContaining(error) });
  });
});
