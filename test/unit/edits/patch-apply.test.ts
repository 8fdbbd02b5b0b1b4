import { describe, expect, it } from "vitest";
import { applyPatchOps, patchPaths, type ApplyPatchResult } from "../../../server/src/edits/patch-apply.js";
import { parsePatch, parseV4AOperation } from "../../../server/src/edits/patch-parse.js";

/** Parses and applies a patch against the given files. */
function run(patch: string, files: Record<string, string>): ApplyPatchResult {
  const parsed = parsePatch(patch);
  if (!parsed.ok) return parsed;
  return applyPatchOps(parsed.ops, new Map(Object.entries(files)));
}

function ok(result: ApplyPatchResult) {
  if (!result.ok) throw new Error(`expected success, got: ${result.error}`);
  return result.results;
}

function err(result: ApplyPatchResult): string {
  if (result.ok) throw new Error(`expected an error, got ${JSON.stringify(result.results)}`);
  return result.error;
}

/** Wraps file sections in the envelope. */
const env = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch"].join("\n");

describe("applyPatchOps: add, delete, update, move", () => {
  it("applies every operation of an envelope and reports A/M/D per path", () => {
    const files = { "keep.txt": "a\nb\nc\n", "old.txt": "bye\n", "src/m.py": "x = 1\ny = 2\n" };
    const patch = env(
      "*** Add File: new.txt",
      "+hello",
      "*** Delete File: old.txt",
      "*** Update File: keep.txt",
      "@@",
      " a",
      "-b",
      "+B",
      " c",
      "*** Update File: src/m.py",
      "*** Move to: src/n.py",
      "-y = 2",
      "+y = 3",
    );
    expect(ok(run(patch, files))).toEqual([
      { path: "new.txt", action: "A", newText: "hello\n", fuzzy: [] },
      { path: "old.txt", action: "D", oldText: "bye\n", fuzzy: [] },
      { path: "keep.txt", action: "M", oldText: "a\nb\nc\n", newText: "a\nB\nc\n", fuzzy: [] },
      { path: "src/m.py", action: "M", moveTo: "src/n.py", oldText: "x = 1\ny = 2\n", newText: "x = 1\ny = 3\n", fuzzy: [] },
    ]);
  });

  it("applies several hunks in order, each after the previous one", () => {
    const text = "a\nx\nb\nx\nc\nx\n";
    const patch = env("*** Update File: f", "@@", " b", "-x", "+X1", "@@", "-x", "+X2");
    expect(ok(run(patch, { f: text }))[0]!.newText).toBe("a\nx\nb\nX1\nc\nX2\n");
  });

  it("lets a patch add a file and then update it, and update one file in two sections", () => {
    const patch = env(
      "*** Add File: n",
      "+one",
      "+two",
      "*** Update File: n",
      "-two",
      "+2",
      "*** Update File: f",
      "-a",
      "+A",
      "*** Update File: f",
      "-b",
      "+B",
    );
    expect(ok(run(patch, { f: "a\nb\n" }))).toEqual([
      { path: "n", action: "A", newText: "one\n2\n", fuzzy: [] },
      { path: "f", action: "M", oldText: "a\nb\n", newText: "A\nB\n", fuzzy: [] },
    ]);
  });

  it("appends with an *** End of File hunk and with a context-free hunk", () => {
    expect(ok(run(env("*** Update File: f", "@@", "+z", "*** End of File"), { f: "x\ny\n" }))[0]!.newText).toBe("x\ny\nz\n");
    expect(ok(run(env("*** Update File: f", "+z"), { f: "x\ny\n" }))[0]!.newText).toBe("x\ny\nz\n");
  });

  it.each([
    ["with no context", ["@@", "+z"], ["hunk 1 has no context lines, so it was appended at the end of the file"]],
    ["marked as the end of the file", ["@@", "+z", "*** End of File"], []],
  ])("appends a pure-addition hunk %s and still finds the hunks after it", (_name, first, fuzzy) => {
    const patch = env("*** Update File: f", ...first, "@@", " a", "-b", "+B", "@@", "-c", "+C");
    expect(ok(run(patch, { f: "a\nb\nc\n" }))).toEqual([{ path: "f", action: "M", oldText: "a\nb\nc\n", newText: "a\nB\nC\nz\n", fuzzy }]);
  });

  it("anchors an End of File hunk at the end even when its context also appears earlier", () => {
    const text = "}\nmid\n}\n";
    const patch = env("*** Update File: f", "@@", " }", "+// end", "*** End of File");
    expect(ok(run(patch, { f: text }))[0]!.newText).toBe("}\nmid\n}\n// end\n");
  });

  it("inserts right after an anchor in a context-free hunk", () => {
    const patch = env("*** Update File: f", "@@ section two", "+inserted");
    expect(ok(run(patch, { f: "section one\nsection two\nbody\n" }))[0]!.newText).toBe("section one\nsection two\ninserted\nbody\n");
  });
});

describe("applyPatchOps: anchors pick the right one of identical blocks", () => {
  const py = [
    "class A:",
    "    def run(self):",
    "        return 1",
    "",
    "class B:",
    "    def run(self):",
    "        return 1",
    "",
  ].join("\n");

  it("uses stacked @@ anchors in order", () => {
    const patch = env("*** Update File: m.py", "@@ class B", "@@     def run(self):", "-        return 1", "+        return 2");
    expect(ok(run(patch, { "m.py": py }))[0]!.newText).toBe(py.replace("class B:\n    def run(self):\n        return 1", "class B:\n    def run(self):\n        return 2"));
  });

  it("without an anchor changes the first block", () => {
    const patch = env("*** Update File: m.py", "-        return 1", "+        return 2");
    expect(ok(run(patch, { "m.py": py }))[0]!.newText).toBe(py.replace("        return 1", "        return 2"));
  });

  it("accepts context that repeats the anchor line", () => {
    const patch = env("*** Update File: m.py", "@@ class B:", " class B:", "     def run(self):", "-        return 1", "+        return 3");
    expect(ok(run(patch, { "m.py": py }))[0]!.newText).toContain("class B:\n    def run(self):\n        return 3\n");
  });

  it("fails when an anchor is missing", () => {
    const patch = env("*** Update File: m.py", "@@ class C", "-        return 1", "+        return 2");
    expect(err(run(patch, { "m.py": py }))).toBe('m.py, hunk 1: the anchor line "@@ class C" was not found.\nNothing was changed: a patch applies as a whole or not at all.');
  });
});

describe("applyPatchOps: all or nothing", () => {
  it("fails the whole patch when one hunk's context is missing, naming the file and hunk and showing the expected lines", () => {
    const files = { "a.txt": "one\ntwo\n", "b.txt": "alpha\nbeta\ngamma\n" };
    const patch = env("*** Update File: a.txt", "-one", "+ONE", "*** Update File: b.txt", "@@", " alpha", "-delta", "+DELTA");
    const e = err(run(patch, files));
    expect(e).toBe(
      "b.txt, hunk 1: the expected lines (context and removed lines) were not found, not even ignoring whitespace and Unicode " +
        "look-alikes. Expected:\nalpha\ndelta\nClosest region in the file (lines 1-2):\n1 | alpha\n2 | beta\nNothing was changed: a patch applies as a whole or not at all.",
    );
  });

  it.each([
    ["Add of an existing file", env("*** Add File: a", "+x"), "Add File a: the file already exists, and Add File never overwrites one. Change it with \"*** Update File: a\" and hunks, or replace all of its content with write_file.\nNothing was changed: a patch applies as a whole or not at all."],
    ["Delete of a missing file", env("*** Delete File: nope"), "Delete File nope: no such file.\nNothing was changed: a patch applies as a whole or not at all."],
    ["Update of a missing file", env("*** Update File: nope", "-x", "+y"), "Update File nope: no such file. To create it, use \"*** Add File: nope\" with every line starting with \"+\".\nNothing was changed: a patch applies as a whole or not at all."],
    ["a move onto an existing file", env("*** Update File: a", "*** Move to: b", "-x", "+y"), "Update File a: cannot move to b, a file already exists there and a move never overwrites one. Move it elsewhere, or delete b first (\"*** Delete File: b\" before this section).\nNothing was changed: a patch applies as a whole or not at all."],
  ])("rejects %s", (_name, patch, message) => {
    expect(err(run(patch, { a: "x\n", b: "y\n" }))).toBe(message);
  });

  it("moves onto a file the same patch deleted first, as the move refusal suggests", () => {
    const patch = env("*** Delete File: b", "*** Update File: a", "*** Move to: b", "-x", "+z");
    expect(ok(run(patch, { a: "x\n", b: "y\n" }))).toEqual([
      { path: "b", action: "M", oldText: "y\n", newText: "z\n", fuzzy: [] },
      { path: "a", action: "D", oldText: "x\n", fuzzy: [] },
    ]);
  });

  it("rejects an empty list of operations", () => {
    expect(applyPatchOps([], new Map())).toEqual({ ok: false, error: "The patch is empty: it contains no file operations." });
  });

  it("lists every path a caller must load", () => {
    const parsed = parsePatch(env("*** Update File: a", "*** Move to: b", "-x", "+y", "*** Delete File: c", "*** Update File: a2", "-p", "+q"));
    expect(parsed.ok && patchPaths(parsed.ops)).toEqual(["a", "b", "c", "a2"]);
  });
});

describe("applyPatchOps: line endings, final newline, unicode", () => {
  it("keeps CRLF line endings, new lines included", () => {
    const patch = env("*** Update File: f", " a", "-b", "+B", "+B2", " c");
    expect(ok(run(patch, { f: "a\r\nb\r\nc\r\n" }))[0]!.newText).toBe("a\r\nB\r\nB2\r\nc\r\n");
  });

  it("keeps mixed line endings line by line", () => {
    const patch = env("*** Update File: f", " a", "-b", "+B", " c", "@@", " e", "+E");
    expect(ok(run(patch, { f: "a\nb\r\nc\nd\r\ne\r\nf\n" }))[0]!.newText).toBe("a\nB\r\nc\nd\r\ne\r\nE\r\nf\n");
  });

  it("keeps a missing final newline, and a present one", () => {
    expect(ok(run(env("*** Update File: f", " a", "-b", "+c"), { f: "a\nb" }))[0]!.newText).toBe("a\nc");
    expect(ok(run(env("*** Update File: f", " a", "-b", "+c"), { f: "a\nb\n" }))[0]!.newText).toBe("a\nc\n");
    expect(ok(run(env("*** Update File: f", " b", "+c", "*** End of File"), { f: "a\nb" }))[0]!.newText).toBe("a\nb\nc");
  });

  it("follows unified no-newline markers", () => {
    const add = ["--- a/f", "+++ b/f", "@@ -1 +1 @@", "-a", "\\ No newline at end of file", "+a"].join("\n");
    expect(ok(run(add, { f: "a" }))[0]!.newText).toBe("a\n");
    const remove = ["--- a/f", "+++ b/f", "@@ -1 +1 @@", "-a", "+a", "\\ No newline at end of file"].join("\n");
    expect(ok(run(remove, { f: "a\n" }))[0]!.newText).toBe("a");
  });

  it("keeps unicode text and a BOM intact", () => {
    const patch = env("*** Update File: f", " 名前 = “値”", "-🙂 old", "+🙂 new — ok");
    expect(ok(run(patch, { f: "\uFEFF名前 = “値”\n🙂 old\n" }))[0]!.newText).toBe("\uFEFF名前 = “値”\n🙂 new — ok\n");
  });
});

describe("applyPatchOps: degrading context matching", () => {
  it.each([
    {
      name: "trailing whitespace",
      file: "a  \nb\t\nc\n",
      hunk: [" a", "-b", "+B"],
      out: "a  \nB\nc\n",
      note: "hunk 1 matched ignoring trailing whitespace",
    },
    {
      name: "indentation",
      file: "  a\n  b\n",
      hunk: [" a", "-b", "+  B"],
      out: "  a\n  B\n",
      note: "hunk 1 matched ignoring leading and trailing whitespace",
    },
    {
      name: "unicode look-alikes (context lines keep the file's text)",
      file: "s = “x”\nt = 1\n",
      hunk: [' s = "x"', "-t = 1", "+t = 2"],
      out: "s = “x”\nt = 2\n",
      note: "hunk 1 matched after Unicode normalisation (quotes, dashes, spaces) and ignoring surrounding whitespace",
    },
  ])("matches ignoring $name and says so", ({ file, hunk, out, note }) => {
    const [result] = ok(run(env("*** Update File: f", ...hunk), { f: file }));
    expect(result!.newText).toBe(out);
    expect(result!.fuzzy).toEqual([note]);
  });

  it("locates unified hunks by context when the line numbers are wrong", () => {
    const patch = ["--- a/f", "+++ b/f", "@@ -1,2 +1,2 @@", " c", "-d", "+D"].join("\n");
    const [result] = ok(run(patch, { f: "a\nb\nc\nd\n" }));
    expect(result!.newText).toBe("a\nb\nc\nD\n");
    expect(result!.fuzzy).toEqual(["hunk 1 applied at line 3 (its header said line 1)"]);
  });

  it("prefers the identical block nearest to the stated line", () => {
    const text = "x\nend\nx\nend\nx\nend\n";
    const patch = ["--- a/f", "+++ b/f", "@@ -4,2 +4,2 @@", " x", "-end", "+END"].join("\n");
    const [result] = ok(run(patch, { f: text }));
    expect(result!.newText).toBe("x\nend\nx\nEND\nx\nend\n");
  });

  it("tracks the shift of earlier hunks when using stated lines", () => {
    const text = "k\nv\nk\nv\n";
    const patch = ["--- a/f", "+++ b/f", "@@ -1,1 +1,3 @@", " k", "+n1", "+n2", "@@ -3,2 +5,2 @@", " k", "-v", "+V"].join("\n");
    const [result] = ok(run(patch, { f: text }));
    expect(result!.newText).toBe("k\nn1\nn2\nv\nk\nV\n");
    expect(result!.fuzzy).toEqual([]);
  });

  it("applies a multi-file unified diff with create, delete and rename", () => {
    const patch = [
      "diff --git a/a.txt b/a.txt",
      "--- a/a.txt",
      "+++ b/a.txt",
      "@@ -1,2 +1,2 @@",
      " 1",
      "-2",
      "+two",
      "--- /dev/null",
      "+++ b/new.txt",
      "@@ -0,0 +1 @@",
      "+fresh",
      "--- a/del.txt",
      "+++ /dev/null",
      "@@ -1 +0,0 @@",
      "-gone",
      "diff --git a/r1 b/r2",
      "similarity index 100%",
      "rename from r1",
      "rename to r2",
    ].join("\n");
    expect(ok(run(patch, { "a.txt": "1\n2\n", "del.txt": "gone\n", r1: "same\n" }))).toEqual([
      { path: "a.txt", action: "M", oldText: "1\n2\n", newText: "1\ntwo\n", fuzzy: [] },
      { path: "new.txt", action: "A", newText: "fresh\n", fuzzy: [] },
      { path: "del.txt", action: "D", oldText: "gone\n", fuzzy: [] },
      { path: "r1", action: "M", moveTo: "r2", oldText: "same\n", newText: "same\n", fuzzy: [] },
    ]);
  });
});

describe("applyPatchOps with OpenAI's native operations", () => {
  it("applies V4A create, update and delete operations", () => {
    const ops = [
      { type: "create_file" as const, path: "n.txt", diff: "+new\n" },
      { type: "update_file" as const, path: "u.py", diff: "@@ def g():\n-    return 0\n+    return 9\n" },
      { type: "delete_file" as const, path: "d.txt" },
    ].flatMap((op) => {
      const parsed = parseV4AOperation(op);
      if (!parsed.ok) throw new Error(parsed.error);
      return parsed.ops;
    });
    const files = new Map([
      ["u.py", "def f():\n    return 0\n\ndef g():\n    return 0\n"],
      ["d.txt", "x\n"],
    ]);
    expect(ok(applyPatchOps(ops, files))).toEqual([
      { path: "n.txt", action: "A", newText: "new\n", fuzzy: [] },
      {
        path: "u.py",
        action: "M",
        oldText: "def f():\n    return 0\n\ndef g():\n    return 0\n",
        newText: "def f():\n    return 0\n\ndef g():\n    return 9\n",
        fuzzy: [],
      },
      { path: "d.txt", action: "D", oldText: "x\n", fuzzy: [] },
    ]);
  });
});
