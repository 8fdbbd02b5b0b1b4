import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { editFileTool } from "../../../server/src/tools/files/edit-file.js";
import { readFileTool } from "../../../server/src/tools/files/read-file.js";
import { replaceInFileTool } from "../../../server/src/tools/files/replace-in-file.js";
import { writeFileTool } from "../../../server/src/tools/files/write-file.js";
import { makeHarness, type ToolHarness } from "./context.js";

let h: ToolHarness;
afterEach(() => h?.dispose());

describe("write_file", () => {
  it("creates a file and its folders, and attaches the diff", async () => {
    h = makeHarness();
    const r = await h.run(writeFileTool, { path: "src/new/a.ts", content: "export const a = 1;\n" });
    expect(r.isError).toBe(false);
    expect(r.text).toMatch(/^Created src\/new\/a.ts \(1 lines\)\.\nCheckpoint \S+ \(the user can \/undo this change\)\.$/);
    expect(r.diff).toContain("+++ b/src/new/a.ts");
    expect(readFileSync(h.at("src/new/a.ts"), "utf8")).toBe("export const a = 1;\n");
  });

  it("refuses to overwrite a file the model has not read, then overwrites after a read", async () => {
    h = makeHarness();
    writeFileSync(h.at("a.txt"), "old\n");
    const refused = await h.run(writeFileTool, { path: "a.txt", content: "new\n" });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain("a.txt already exists and you have not read it in this session");
    await h.run(readFileTool, { path: "a.txt" });
    const ok = await h.run(writeFileTool, { path: "a.txt", content: "new\n" });
    expect(ok.text).toContain("Wrote a.txt (1 lines, +1 -1).");
    expect(ok.text).toContain("-old\n+new");
    expect(readFileSync(h.at("a.txt"), "utf8")).toBe("new\n");
  });

  it("reports a gate denial as the tool's error and writes nothing", async () => {
    h = makeHarness();
    h.answer = () => ({ allowed: false, reason: "the user rejected it" });
    const r = await h.run(writeFileTool, { path: "x.txt", content: "x" });
    expect(r).toMatchObject({ isError: true, text: "The change was not applied: the user rejected it" });
    expect(existsSync(h.at("x.txt"))).toBe(false);
  });

  it("rejects an input without content as invalid input", async () => {
    h = makeHarness();
    const r = await h.run(writeFileTool, { path: "x.txt" });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("content");
  });
});

describe("edit_file", () => {
  it("replaces one exact match, saying where and how it matched", async () => {
    h = makeHarness();
    writeFileSync(h.at("a.ts"), "const a = 1;\nconst b = 2;\n");
    const r = await h.run(editFileTool, { path: "a.ts", target_content: "b = 2", replacement_content: "b = 3" });
    expect(r.text).toMatch(/^Edited a.ts: replaced 1 match at line 2, matched exactly \(\+1 -1\)\./);
    expect(readFileSync(h.at("a.ts"), "utf8")).toBe("const a = 1;\nconst b = 3;\n");
  });

  it("says which forgiving step matched", async () => {
    h = makeHarness();
    writeFileSync(h.at("a.py"), "def f():\n    return “quoted”\n");
    const r = await h.run(editFileTool, { path: "a.py", target_content: 'return "quoted"', replacement_content: "return 'plain'" });
    expect(r.text).toContain("after Unicode normalisation");
    expect(readFileSync(h.at("a.py"), "utf8")).toBe("def f():\n    return 'plain'\n");
  });

  it("refuses several matches without allow_multiple, and changes all with it", async () => {
    h = makeHarness();
    writeFileSync(h.at("a.txt"), "x\ny\nx\n");
    const refused = await h.run(editFileTool, { path: "a.txt", target_content: "x", replacement_content: "z" });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain("a.txt: target_content matches 2 locations, starting at lines 1, 3");
    const all = await h.run(editFileTool, { path: "a.txt", target_content: "x", replacement_content: "z", allow_multiple: true });
    expect(all.text).toContain("replaced 2 matches at lines 1, 3");
    expect(readFileSync(h.at("a.txt"), "utf8")).toBe("z\ny\nz\n");
  });

  it("shows the closest region when nothing matches, and changes nothing", async () => {
    h = makeHarness();
    writeFileSync(h.at("a.ts"), "function total(items) {\n  return items.length;\n}\n");
    const r = await h.run(editFileTool, { path: "a.ts", target_content: "return item.size;", replacement_content: "x" });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("target_content was not found");
    expect(r.text).toContain("return items.length;");
    expect(readFileSync(h.at("a.ts"), "utf8")).toBe("function total(items) {\n  return items.length;\n}\n");
  });

  it("inserts after a line", async () => {
    h = makeHarness();
    writeFileSync(h.at("a.txt"), "one\ntwo\n");
    const r = await h.run(editFileTool, { path: "a.txt", target_content: "", replacement_content: "one and a half", insert_line: 1 });
    expect(r.text).toMatch(/^Inserted into a.txt after line 1 \(\+1 -0\)\./);
    expect(readFileSync(h.at("a.txt"), "utf8")).toBe("one\none and a half\ntwo\n");
  });

  it("edits the open buffer through the editor and leaves the disk alone", async () => {
    h = makeHarness();
    writeFileSync(h.at("o.ts"), "let x = 1;\n");
    h.editor.open(h.at("o.ts"), "let x = 1;\nlet unsaved = 2;\n");
    const r = await h.run(editFileTool, { path: "o.ts", target_content: "unsaved = 2", replacement_content: "unsaved = 3" });
    expect(r.text).toContain("Changed in the editor's buffer (not saved to disk yet): o.ts.");
    expect(h.editor.textOf(h.at("o.ts"))).toBe("let x = 1;\nlet unsaved = 3;\n");
    expect(readFileSync(h.at("o.ts"), "utf8")).toBe("let x = 1;\n");
  });

  it("says an edit the editor saved as it applied it is saved, not 'not saved yet'", async () => {
    h = makeHarness();
    writeFileSync(h.at("o.ts"), "let x = 1;\n");
    h.editor.open(h.at("o.ts"), "let x = 1;\n");
    const editor = h.editor;
    const apply = editor.applyEdit.bind(editor);
    // An editor that writes the buffer as it applies the edit (an autosave, a BufWritePost hook).
    editor.applyEdit = async (label, changes, options) => {
      const result = await apply(label, changes, options);
      writeFileSync(h.at("o.ts"), editor.textOf(h.at("o.ts"))!);
      return result;
    };
    const r = await h.run(editFileTool, { path: "o.ts", target_content: "x = 1", replacement_content: "x = 2" });
    expect(r.text).toContain("Changed in the editor, which saved it to disk: o.ts.");
    expect(r.text).not.toContain("not saved");
  });

  it("caps what a result lists: an edit of 40,000 matches names 20 lines and counts the rest", async () => {
    h = makeHarness();
    writeFileSync(h.at("big.txt"), "x\n".repeat(40_000));
    const r = await h.run(editFileTool, { path: "big.txt", target_content: "x", replacement_content: "y", allow_multiple: true });
    expect(r.isError).toBe(false);
    expect(r.text).toContain("replaced 40000 matches at lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20 and 39980 more");
    expect(r.text.length).toBeLessThan(10_000);
    const refused = await h.run(editFileTool, { path: "big.txt", target_content: "y", replacement_content: "z" });
    expect(refused.text).toContain("and 39980 more");
    expect(refused.text.length).toBeLessThan(2_000);
  });

  it("keeps CRLF in a CRLF file", async () => {
    h = makeHarness();
    writeFileSync(h.at("w.txt"), "a\r\nb\r\n");
    await h.run(editFileTool, { path: "w.txt", target_content: "b\n", replacement_content: "b\nc\n" });
    expect(readFileSync(h.at("w.txt"), "utf8")).toBe("a\r\nb\r\nc\r\n");
  });

  it("fails on a stale read and on a missing or binary file", async () => {
    h = makeHarness();
    writeFileSync(h.at("a.txt"), "v1\n");
    writeFileSync(h.at("b.bin"), Buffer.from([0, 1, 2]));
    await h.run(readFileTool, { path: "a.txt" });
    writeFileSync(h.at("a.txt"), "v2\n");
    const stale = await h.run(editFileTool, { path: "a.txt", target_content: "v2", replacement_content: "v3" });
    expect(stale.text).toBe("a.txt changed on disk since you last read it; read it again before changing it.");
    expect((await h.run(editFileTool, { path: "no.txt", target_content: "a", replacement_content: "b" })).text).toBe("no.txt does not exist.");
    expect((await h.run(editFileTool, { path: "b.bin", target_content: "a", replacement_content: "b" })).text).toContain("binary file");
  });
});

describe("replace_in_file", () => {
  it("applies SEARCH/REPLACE blocks and reports the lines each replaced", async () => {
    h = makeHarness();
    writeFileSync(h.at("a.py"), "def a():\n    return 1\n\ndef b():\n    x = 1\n    y = 2\n    return x + y\n");
    const diff = [
      "------- SEARCH",
      "def a():",
      "    return 1",
      "=======",
      "def a():",
      "    return 10",
      "+++++++ REPLACE",
      "------- SEARCH",
      "def b():",
      "....... SKIP",
      "    return x + y",
      "=======",
      "def b():",
      "    return 3",
      "+++++++ REPLACE",
    ].join("\n");
    const r = await h.run(replaceInFileTool, { path: "a.py", diff });
    expect(r.isError).toBe(false);
    expect(r.text).toContain("block 1: replaced lines 1-2 with 2 lines");
    expect(r.text).toContain("block 2: replaced lines 4-7 (SKIP covered 2 lines) with 2 lines");
    expect(readFileSync(h.at("a.py"), "utf8")).toBe("def a():\n    return 10\n\ndef b():\n    return 3\n");
  });

  it("says when REPLACE was re-indented or mapped, and refuses, writing nothing, when it cannot be fitted", async () => {
    h = makeHarness();
    writeFileSync(h.at("a.py"), "class A:\n    def f(self):\n        return 1\n");
    const fixed = await h.run(replaceInFileTool, { path: "a.py", diff: "------- SEARCH\nreturn 1\n=======\nreturn 2\n+++++++ REPLACE" });
    expect(fixed.text).toContain("block 1: replaced lines 3-3 with 1 lines; REPLACE was indented by 8 spaces, the indentation SEARCH left out of the matched lines");
    expect(readFileSync(h.at("a.py"), "utf8")).toBe("class A:\n    def f(self):\n        return 2\n");
    const diff = "------- SEARCH\ndef f(self):\nreturn 2\n=======\ndef f(self):\nreturn 3\n+++++++ REPLACE";
    const mapped = await h.run(replaceInFileTool, { path: "a.py", diff });
    expect(mapped.isError).toBe(false);
    expect(mapped.text).toContain("each REPLACE line was given the indentation of the file line it stands for");
    expect(readFileSync(h.at("a.py"), "utf8")).toBe("class A:\n    def f(self):\n        return 3\n");
    const odd = "------- SEARCH\ndef f(self):\nreturn 3\n=======\ndef f(self):\n  return 4\n  pass\n+++++++ REPLACE";
    const refused = await h.run(replaceInFileTool, { path: "a.py", diff: odd });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain("Block 1: not applied: SEARCH matched lines 2-3");
    expect(readFileSync(h.at("a.py"), "utf8")).toBe("class A:\n    def f(self):\n        return 3\n");
  });

  it("says when SEARCH matched only without its blank edge lines", async () => {
    h = makeHarness();
    writeFileSync(h.at("a.txt"), "one\ntwo\n");
    const r = await h.run(replaceInFileTool, { path: "a.txt", diff: "------- SEARCH\n\ntwo\n=======\n\nTWO\n+++++++ REPLACE" });
    expect(r.text).toContain(
      "block 1: replaced lines 2-2 with 1 lines; SEARCH matched only without its blank lines (1 at the start), " +
        "so REPLACE's matching blank lines were dropped too (1 at the start)",
    );
    expect(readFileSync(h.at("a.txt"), "utf8")).toBe("one\nTWO\n");
  });

  it("points to write_file for a file that does not exist", async () => {
    h = makeHarness();
    const r = await h.run(replaceInFileTool, { path: "new.py", diff: "------- SEARCH\n=======\nx = 1\n+++++++ REPLACE" });
    expect(r).toMatchObject({
      isError: true,
      text: "new.py does not exist. replace_in_file changes an existing file; to create one, use write_file.",
    });
    expect(existsSync(h.at("new.py"))).toBe(false);
  });

  it("passes the engine's error on and changes nothing", async () => {
    h = makeHarness();
    writeFileSync(h.at("a.txt"), "same\nsame\n");
    const r = await h.run(replaceInFileTool, { path: "a.txt", diff: "------- SEARCH\nsame\n=======\nother\n+++++++ REPLACE" });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/^a.txt: .*1.*2/s);
    expect(readFileSync(h.at("a.txt"), "utf8")).toBe("same\nsame\n");
  });
});
