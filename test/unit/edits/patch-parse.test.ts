import { describe, expect, it } from "vitest";
import { parsePatch, parseV4AOperation } from "../../../server/src/edits/patch-parse.js";
import type { ParsePatchResult, PatchOp } from "../../../server/src/edits/patch-types.js";

function ops(result: ParsePatchResult): PatchOp[] {
  if (!result.ok) throw new Error(`expected success, got: ${result.error}`);
  return result.ops;
}

function err(result: ParsePatchResult): string {
  if (result.ok) throw new Error(`expected an error, got ${JSON.stringify(result.ops)}`);
  return result.error;
}

const ctx = (text: string) => ({ op: " " as const, text });
const del = (text: string) => ({ op: "-" as const, text });
const add = (text: string) => ({ op: "+" as const, text });

describe("parsePatch: the *** Begin Patch envelope", () => {
  it("parses add, delete, update with move, anchors and end-of-file hunks", () => {
    const patch = [
      "*** Begin Patch",
      "*** Add File: docs/new.md",
      "+# Title",
      "+",
      "+text",
      "*** Delete File: old.txt",
      "*** Update File: src/a.py",
      "*** Move to: src/b.py",
      "@@ class Foo",
      "@@     def bar(self):",
      " context",
      "-old",
      "+new",
      "@@",
      " tail",
      "+appended",
      "*** End of File",
      "*** End Patch",
    ].join("\n");
    expect(ops(parsePatch(patch))).toEqual([
      { type: "add", path: "docs/new.md", content: "# Title\n\ntext\n" },
      { type: "delete", path: "old.txt" },
      {
        type: "update",
        path: "src/a.py",
        moveTo: "src/b.py",
        hunks: [
          { anchors: ["class Foo", "    def bar(self):"], lines: [ctx("context"), del("old"), add("new")], endOfFile: false },
          { anchors: [], lines: [ctx("tail"), add("appended")], endOfFile: true },
        ],
      },
    ]);
  });

  it("accepts whitespace-padded markers, a code fence and a missing *** End Patch", () => {
    const patch = ["```diff", "   *** Begin Patch  ", "\t*** Update File:   a.txt  ", "  @@ anchor  ", "-x", "+y", "```"].join("\n");
    expect(ops(parsePatch(patch))).toEqual([
      { type: "update", path: "a.txt", hunks: [{ anchors: ["anchor"], lines: [del("x"), add("y")], endOfFile: false }] },
    ]);
  });

  it("lets the first hunk omit @@, reads empty lines as empty context, drops trailing blank lines", () => {
    const patch = ["*** Begin Patch", "*** Update File: a", " a", "", "-b", "+c", "", "", "*** End Patch"].join("\n");
    expect(ops(parsePatch(patch))).toEqual([
      { type: "update", path: "a", hunks: [{ anchors: [], lines: [ctx("a"), ctx(""), del("b"), add("c")], endOfFile: false }] },
    ]);
  });

  it("ignores blank lines between stacked anchors", () => {
    const patch = ["*** Begin Patch", "*** Update File: a", "@@ class A", "", "@@ def f():", " x", "+y", "*** End Patch"].join("\n");
    expect(ops(parsePatch(patch))[0]).toEqual({
      type: "update",
      path: "a",
      hunks: [{ anchors: ["class A", "def f():"], lines: [ctx("x"), add("y")], endOfFile: false }],
    });
  });

  it("reads a unified range header inside the envelope as a line hint, not an anchor", () => {
    const patch = ["*** Begin Patch", "*** Update File: a", "@@ -12,2 +12,2 @@ def f():", "-x", "+y", "*** End Patch"].join("\n");
    expect(ops(parsePatch(patch))[0]).toEqual({
      type: "update",
      path: "a",
      hunks: [{ anchors: [], lines: [del("x"), add("y")], endOfFile: false, oldStart: 12 }],
    });
  });

  it("handles CRLF patch text", () => {
    const patch = "*** Begin Patch\r\n*** Add File: a\r\n+x\r\n+y\r\n*** End Patch\r\n";
    expect(ops(parsePatch(patch))).toEqual([{ type: "add", path: "a", content: "x\ny\n" }]);
  });

  it("parses an empty Add File and a pure move", () => {
    const patch = ["*** Begin Patch", "*** Add File: empty.txt", "*** Update File: a", "*** Move to: b", "*** End Patch"].join("\n");
    expect(ops(parsePatch(patch))).toEqual([
      { type: "add", path: "empty.txt", content: "" },
      { type: "update", path: "a", moveTo: "b", hunks: [] },
    ]);
  });

  it.each([
    ["an empty patch", "", "The patch is empty."],
    ["a blank patch", "  \n\n", "The patch is empty."],
    ["an envelope without operations", "*** Begin Patch\n*** End Patch", "The patch is empty: it contains no file operations."],
    ["an Add line without +", "*** Begin Patch\n*** Add File: a\n+x\ny\n*** End Patch", 'Add File a: line 4 of the patch must start with "+" (every line of a new file does).'],
    [
      "a hunk line without a prefix",
      "*** Begin Patch\n*** Update File: a\n@@\n x\nbad\n*** End Patch",
      'Update File a: line 5 of the patch ("bad") must start with " " (context), "-" (remove) or "+" (add), or be an @@ line.',
    ],
    ["an Update without hunks", "*** Begin Patch\n*** Update File: a\n*** End Patch", 'Update File a has no hunks: add lines starting with " ", "-" or "+".'],
    ["a file marker without a path", "*** Begin Patch\n*** Delete File:\n*** End Patch", '"*** Delete File:" at line 2 of the patch names no file.'],
    [
      "an unknown section",
      "*** Begin Patch\n*** Rename File: a\n*** End Patch",
      'Unexpected "*** Rename File: a" at line 2 of the patch: expected "*** Add File:", "*** Update File:", "*** Delete File:" or "*** End Patch".',
    ],
    [
      "text in no known format",
      "please change foo to bar",
      'Unrecognised patch format. Use the "*** Begin Patch" envelope (*** Update File: path, @@ hunks, *** End Patch) or a unified diff (--- a/path, +++ b/path, @@ -1,2 +1,2 @@).',
    ],
  ])("rejects %s", (_name, patch, message) => {
    expect(err(parsePatch(patch))).toBe(message);
  });
});

describe("parsePatch: unified diffs", () => {
  it("parses several files, strips a/ b/ prefixes, and reads /dev/null as create and delete", () => {
    const patch = [
      "diff --git a/src/x.ts b/src/x.ts",
      "index 1111111..2222222 100644",
      "--- a/src/x.ts",
      "+++ b/src/x.ts",
      "@@ -1,3 +1,3 @@",
      " one",
      "-two",
      "+TWO",
      " three",
      "@@ -10,2 +10,3 @@ function f() {",
      " ten",
      "+ten and a half",
      " eleven",
      "--- /dev/null",
      "+++ b/new.txt",
      "@@ -0,0 +1,2 @@",
      "+a",
      "+b",
      "--- a/gone.txt",
      "+++ /dev/null",
      "@@ -1 +0,0 @@",
      "-bye",
      "",
    ].join("\n");
    expect(ops(parsePatch(patch))).toEqual([
      {
        type: "update",
        path: "src/x.ts",
        hunks: [
          { anchors: [], lines: [ctx("one"), del("two"), add("TWO"), ctx("three")], endOfFile: false, oldStart: 1 },
          { anchors: [], lines: [ctx("ten"), add("ten and a half"), ctx("eleven")], endOfFile: false, oldStart: 10 },
        ],
      },
      { type: "add", path: "new.txt", content: "a\nb\n" },
      { type: "delete", path: "gone.txt" },
    ]);
  });

  it("keeps paths without git prefixes, drops timestamps, and reads a rename", () => {
    const patch = ["--- lib/a.c\t2024-01-01 10:00:00", "+++ lib/b.c\t2024-01-02 10:00:00", "@@ -1 +1 @@", "-x", "+y"].join("\n");
    expect(ops(parsePatch(patch))).toEqual([
      { type: "update", path: "lib/a.c", moveTo: "lib/b.c", hunks: [{ anchors: [], lines: [del("x"), add("y")], endOfFile: false, oldStart: 1 }] },
    ]);
  });

  it("reads no-newline markers as the file's final line break", () => {
    const patch = [
      "--- a/f",
      "+++ b/f",
      "@@ -1,2 +1,2 @@",
      " a",
      "-b",
      "\\ No newline at end of file",
      "+b",
      "--- /dev/null",
      "+++ b/g",
      "@@ -0,0 +1 @@",
      "+only",
      "\\ No newline at end of file",
    ].join("\n");
    expect(ops(parsePatch(patch))).toEqual([
      {
        type: "update",
        path: "f",
        hunks: [{ anchors: [], lines: [ctx("a"), del("b"), add("b")], endOfFile: true, finalNewline: true, oldStart: 1 }],
      },
      { type: "add", path: "g", content: "only" },
    ]);
  });

  it("falls back to a lenient reader for wrong counts and bare @@ headers", () => {
    const patch = ["--- a/f", "+++ b/f", "@@ -1,7 +1,9 @@", " a", "-b", "+c", "@@", " x", "+y", "--- a/g", "+++ b/g", "@@ -3 +3 @@", "-p", "+q", ""].join("\n");
    expect(ops(parsePatch(patch))).toEqual([
      {
        type: "update",
        path: "f",
        hunks: [
          { anchors: [], lines: [ctx("a"), del("b"), add("c")], endOfFile: false, oldStart: 1 },
          { anchors: [], lines: [ctx("x"), add("y")], endOfFile: false },
        ],
      },
      { type: "update", path: "g", hunks: [{ anchors: [], lines: [del("p"), add("q")], endOfFile: false, oldStart: 3 }] },
    ]);
  });

  it("reads git renames without hunks and new empty files", () => {
    const patch = [
      "diff --git a/old name.txt b/new name.txt",
      "similarity index 100%",
      "rename from old name.txt",
      "rename to new name.txt",
      "diff --git a/empty b/empty",
      "new file mode 100644",
      "index 0000000..e69de29",
    ].join("\n");
    expect(ops(parsePatch(patch))).toEqual([
      { type: "update", path: "old name.txt", moveTo: "new name.txt", hunks: [] },
      { type: "add", path: "empty", content: "" },
    ]);
  });

  it("parses a CRLF unified diff without carriage returns in the lines", () => {
    const patch = "--- a/f\r\n+++ b/f\r\n@@ -1 +1 @@\r\n-x\r\n+y\r\n";
    expect(ops(parsePatch(patch))).toEqual([
      { type: "update", path: "f", hunks: [{ anchors: [], lines: [del("x"), add("y")], endOfFile: false, oldStart: 1 }] },
    ]);
  });

  it("rejects hunks without file headers", () => {
    expect(err(parsePatch("@@ -1 +1 @@\n-x\n+y\n"))).toBe('File 1 of the diff has hunks but no "--- a/path" / "+++ b/path" header.');
  });
});

describe("parseV4AOperation: OpenAI's native apply_patch operations", () => {
  it("converts create_file, update_file and delete_file", () => {
    expect(ops(parseV4AOperation({ type: "create_file", path: "a.txt", diff: "+hello\n+world\n" }))).toEqual([
      { type: "add", path: "a.txt", content: "hello\nworld\n" },
    ]);
    expect(ops(parseV4AOperation({ type: "update_file", path: "b.py", diff: "@@ def f():\n-    return 1\n+    return 2\n" }))).toEqual([
      { type: "update", path: "b.py", hunks: [{ anchors: ["def f():"], lines: [del("    return 1"), add("    return 2")], endOfFile: false }] },
    ]);
    expect(ops(parseV4AOperation({ type: "delete_file", path: "c" }))).toEqual([{ type: "delete", path: "c" }]);
  });

  it("reads an update_file body with *** End of File and a move", () => {
    const diff = "*** Move to: d.txt\n@@\n last\n+more\n*** End of File\n";
    expect(ops(parseV4AOperation({ type: "update_file", path: "c.txt", diff }))).toEqual([
      { type: "update", path: "c.txt", moveTo: "d.txt", hunks: [{ anchors: [], lines: [ctx("last"), add("more")], endOfFile: true }] },
    ]);
  });

  it("rejects malformed operations", () => {
    expect(err(parseV4AOperation({ type: "create_file", path: "a", diff: "no plus" }))).toBe(
      'Add File a: line 1 of the patch must start with "+" (every line of a new file does).',
    );
    expect(err(parseV4AOperation({ type: "update_file", path: "a", diff: "" }))).toBe(
      'Update File a has no hunks: add lines starting with " ", "-" or "+".',
    );
    expect(err(parseV4AOperation({ type: "delete_file", path: " " }))).toBe("delete_file: the path is empty.");
  });
});
