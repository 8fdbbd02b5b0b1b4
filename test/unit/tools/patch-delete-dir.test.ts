import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { applyPatchTool } from "../../../server/src/tools/files/apply-patch.js";
import { createDirectoryTool } from "../../../server/src/tools/files/create-directory.js";
import { deleteFileTool } from "../../../server/src/tools/files/delete-file.js";
import { makeHarness, type ToolHarness } from "./context.js";

let h: ToolHarness;
afterEach(() => h?.dispose());

describe("apply_patch", () => {
  it("adds, updates, moves and deletes in one envelope, listing A/M/D", async () => {
    h = makeHarness();
    writeFileSync(h.at("keep.txt"), "one\ntwo\nthree\n");
    writeFileSync(h.at("old.txt"), "moving\n");
    writeFileSync(h.at("gone.txt"), "bye\n");
    const patch = [
      "*** Begin Patch",
      "*** Add File: added/new.txt",
      "+hello",
      "*** Update File: keep.txt",
      "@@",
      " one",
      "-two",
      "+TWO",
      " three",
      "*** Update File: old.txt",
      "*** Move to: moved/new-name.txt",
      "@@",
      "-moving",
      "+moved",
      "*** Delete File: gone.txt",
      "*** End Patch",
    ].join("\n");
    const r = await h.run(applyPatchTool, { patch });
    expect(r.isError).toBe(false);
    expect(r.text).toContain("A added/new.txt");
    expect(r.text).toContain("M keep.txt");
    expect(r.text).toContain("M old.txt -> moved/new-name.txt");
    expect(r.text).toContain("D gone.txt");
    expect(readFileSync(h.at("added/new.txt"), "utf8")).toBe("hello\n");
    expect(readFileSync(h.at("keep.txt"), "utf8")).toBe("one\nTWO\nthree\n");
    expect(readFileSync(h.at("moved/new-name.txt"), "utf8")).toBe("moved\n");
    expect(existsSync(h.at("old.txt"))).toBe(false);
    expect(existsSync(h.at("gone.txt"))).toBe(false);
    // One change set: one checkpoint, and /undo reverts all of it.
    expect(await h.ws.listCheckpoints("s1")).toHaveLength(1);
    await h.ws.undo("s1");
    expect(readFileSync(h.at("keep.txt"), "utf8")).toBe("one\ntwo\nthree\n");
    expect(readFileSync(h.at("old.txt"), "utf8")).toBe("moving\n");
    expect(readFileSync(h.at("gone.txt"), "utf8")).toBe("bye\n");
    expect(existsSync(h.at("added"))).toBe(false);
    expect(existsSync(h.at("moved"))).toBe(false);
  });

  it("applies a plain unified diff over two files", async () => {
    h = makeHarness();
    writeFileSync(h.at("a.txt"), "a1\na2\n");
    writeFileSync(h.at("b.txt"), "b1\nb2\n");
    const patch = "--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n a1\n-a2\n+A2\n--- a/b.txt\n+++ b/b.txt\n@@ -1,2 +1,2 @@\n-b1\n+B1\n b2\n";
    const r = await h.run(applyPatchTool, { patch });
    expect(r.isError).toBe(false);
    expect(readFileSync(h.at("a.txt"), "utf8")).toBe("a1\nA2\n");
    expect(readFileSync(h.at("b.txt"), "utf8")).toBe("B1\nb2\n");
  });

  it("changes neither file when the second file's hunk does not match", async () => {
    h = makeHarness();
    writeFileSync(h.at("a.txt"), "a1\na2\n");
    writeFileSync(h.at("b.txt"), "b1\nb2\n");
    const patch = "--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n a1\n-a2\n+A2\n--- a/b.txt\n+++ b/b.txt\n@@ -1,2 +1,2 @@\n-nope\n+B1\n b2\n";
    const r = await h.run(applyPatchTool, { patch });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("Nothing was changed");
    expect(r.text).toContain("b.txt, hunk 1");
    expect(readFileSync(h.at("a.txt"), "utf8")).toBe("a1\na2\n");
    expect(readFileSync(h.at("b.txt"), "utf8")).toBe("b1\nb2\n");
    expect(await h.ws.listCheckpoints("s1")).toEqual([]);
  });

  it("edits an open document in the editor as part of the patch", async () => {
    h = makeHarness();
    writeFileSync(h.at("o.txt"), "disk\n");
    h.editor.open(h.at("o.txt"), "buffer\n");
    const r = await h.run(applyPatchTool, { patch: "*** Begin Patch\n*** Update File: o.txt\n@@\n-buffer\n+edited\n*** End Patch" });
    expect(r.isError).toBe(false);
    expect(h.editor.textOf(h.at("o.txt"))).toBe("edited\n");
    expect(readFileSync(h.at("o.txt"), "utf8")).toBe("disk\n");
  });

  it("rejects a patch that does not parse", async () => {
    h = makeHarness();
    const r = await h.run(applyPatchTool, { patch: "this is not a patch" });
    expect(r.isError).toBe(true);
  });
});

describe("delete_file", () => {
  it("deletes a file, which /undo brings back", async () => {
    h = makeHarness();
    writeFileSync(h.at("a.txt"), "a\n");
    const r = await h.run(deleteFileTool, { path: "a.txt" });
    expect(r.text).toMatch(/^Deleted a.txt\.\nCheckpoint /);
    expect(existsSync(h.at("a.txt"))).toBe(false);
    await h.ws.undo("s1");
    expect(readFileSync(h.at("a.txt"), "utf8")).toBe("a\n");
  });

  it("refuses folders and missing files", async () => {
    h = makeHarness();
    mkdirSync(h.at("dir"));
    expect((await h.run(deleteFileTool, { path: "dir" })).text).toBe("dir is a folder; delete_file deletes files only.");
    expect((await h.run(deleteFileTool, { path: "nope" })).text).toBe("nope does not exist.");
  });
});

describe("create_directory", () => {
  it("creates nested folders, accepts an existing one, refuses a file", async () => {
    h = makeHarness();
    const r = await h.run(createDirectoryTool, { path: "a/b/c" });
    expect(r.text).toMatch(/^Created a\/b\/c\/\. Checkpoint /);
    expect(existsSync(h.at("a/b/c"))).toBe(true);
    expect((await h.run(createDirectoryTool, { path: "a/b" })).text).toBe("a/b/ already exists.");
    writeFileSync(h.at("f"), "");
    expect((await h.run(createDirectoryTool, { path: "f" })).text).toBe("f exists and is a file, not a folder.");
    expect((await h.run(createDirectoryTool, { path: "../outside" })).text).toContain("outside the project root");
  });
});
