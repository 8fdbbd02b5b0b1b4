import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { listFilesTool, MAX_LIST_ENTRIES } from "../../../server/src/tools/files/list-files.js";
import { searchFilesTool } from "../../../server/src/tools/files/search-files.js";
import { makeHarness, type ToolHarness } from "./context.js";

let h: ToolHarness;
afterEach(() => h?.dispose());

/** A small project with ignored files at two levels. */
function tree(h: ToolHarness): void {
  for (const d of ["src/lib", "build", "node_modules/pkg", "docs"]) mkdirSync(h.at(d), { recursive: true });
  writeFileSync(h.at(".gitignore"), "build/\n*.log\n!keep.log\n");
  writeFileSync(h.at("src/.gitignore"), "generated.ts\n");
  writeFileSync(h.at("src/main.ts"), "import { helper } from './lib/util';\n// TODO: wire up\nhelper();\n");
  writeFileSync(h.at("src/lib/util.ts"), "export function helper() {\n  return 42; // TODO later\n}\n");
  writeFileSync(h.at("src/generated.ts"), "// TODO ignored\n");
  writeFileSync(h.at("build/out.js"), "// TODO ignored\n");
  writeFileSync(h.at("node_modules/pkg/index.js"), "// TODO ignored\n");
  writeFileSync(h.at("debug.log"), "TODO ignored\n");
  writeFileSync(h.at("keep.log"), "TODO kept\n");
  writeFileSync(h.at("docs/readme.md"), "# Docs\n");
}

describe("list_files", () => {
  it("lists a folder's own entries, folders marked with /", async () => {
    h = makeHarness();
    tree(h);
    const r = await h.run(listFilesTool, {});
    expect(r.text.split("\n")).toEqual([".gitignore", "docs/", "keep.log", "src/"]);
  });

  it("lists the tree recursively without ignored files", async () => {
    h = makeHarness();
    tree(h);
    const r = await h.run(listFilesTool, { path: "src", recursive: true });
    expect(r.text.split("\n")).toEqual(["src/.gitignore", "src/lib/", "src/lib/util.ts", "src/main.ts"]);
  });

  it("stops at the entry limit with a note", async () => {
    h = makeHarness();
    mkdirSync(h.at("many"));
    for (let i = 0; i < MAX_LIST_ENTRIES + 5; i++) writeFileSync(h.at(`many/f${i}`), "");
    const r = await h.run(listFilesTool, { path: "many" });
    const lines = r.text.split("\n");
    expect(lines).toHaveLength(MAX_LIST_ENTRIES + 1);
    expect(lines.at(-1)).toBe(`[Stopped at ${MAX_LIST_ENTRIES} entries; list a subfolder to see more.]`);
  });

  it("explains a missing folder and a file", async () => {
    h = makeHarness();
    writeFileSync(h.at("f.txt"), "");
    expect((await h.run(listFilesTool, { path: "nope" })).text).toBe("nope does not exist.");
    expect((await h.run(listFilesTool, { path: "f.txt" })).text).toContain("is a file, not a folder");
  });
});

describe("search_files", () => {
  it("finds matches with line numbers and context, skipping ignored files", async () => {
    h = makeHarness();
    tree(h);
    const r = await h.run(searchFilesTool, { regex: "TODO" });
    expect(r.text).toBe(
      [
        "Found 3 matches in 3 files.",
        "",
        "keep.log\n1: TODO kept",
        "",
        "src/main.ts\n1- import { helper } from './lib/util';\n2: // TODO: wire up\n3- helper();",
        "",
        "src/lib/util.ts\n1- export function helper() {\n2:   return 42; // TODO later\n3- }",
      ].join("\n"),
    );
  });

  it("filters by file_pattern and folder, and ignores case with (?i)", async () => {
    h = makeHarness();
    tree(h);
    expect((await h.run(searchFilesTool, { regex: "todo", path: "src" })).text).toMatch(/^No matches in \d+ files\.$/);
    const r = await h.run(searchFilesTool, { regex: "(?i)todo", path: "src", file_pattern: "util.*" });
    expect(r.text).toMatch(/^Found 1 matches in 1 files\.\n\nsrc\/lib\/util.ts/);
    const glob = await h.run(searchFilesTool, { regex: "TODO", file_pattern: "src/**/*.ts" });
    expect(glob.text).toContain("Found 2 matches in 2 files.");
  });

  it("searches open buffers as the editor has them", async () => {
    h = makeHarness();
    tree(h);
    h.editor.open(h.at("docs/readme.md"), "# Docs\nunsaved needle\n");
    h.editor.open(h.at("docs/new.md"), "needle in a new buffer\n");
    const r = await h.run(searchFilesTool, { regex: "needle" });
    expect(r.text).toContain("docs/readme.md\n1- # Docs\n2: unsaved needle");
    expect(r.text).toContain("docs/new.md\n1: needle in a new buffer");
  });

  it("does not read a symlinked file whose target is outside the project", async () => {
    h = makeHarness();
    tree(h);
    const outside = mkdtempSync(path.join(tmpdir(), "agent-lsp-outside-"));
    writeFileSync(path.join(outside, "secret.txt"), "needle: a private key\n");
    symlinkSync(path.join(outside, "secret.txt"), h.at("docs/linked.txt"));
    writeFileSync(h.at("docs/inside.txt"), "needle inside\n");
    const r = await h.run(searchFilesTool, { regex: "needle" });
    expect(r.text).toContain("docs/inside.txt");
    expect(r.text).not.toContain("private key");
  });

  it("searches an unsaved new buffer only inside the folder asked for (src, not src2)", async () => {
    h = makeHarness();
    tree(h);
    mkdirSync(h.at("src2"));
    h.editor.open(h.at("src2/new.ts"), "needle next door\n");
    h.editor.open(h.at("src/new.ts"), "needle at home\n");
    const r = await h.run(searchFilesTool, { regex: "needle", path: "src" });
    expect(r.text).toContain("src/new.ts");
    expect(r.text).not.toContain("src2/new.ts");
  });

  it("separates distant runs with -- and stops at 300 matches", async () => {
    h = makeHarness();
    writeFileSync(h.at("a.txt"), "hit\nx\nx\nx\nhit\n");
    expect((await h.run(searchFilesTool, { regex: "hit" })).text).toContain("1: hit\n2- x\n--\n4- x\n5: hit");
    writeFileSync(h.at("b.txt"), "hit\n".repeat(400));
    const r = await h.run(searchFilesTool, { regex: "hit", file_pattern: "b.txt" });
    expect(r.text.split("\n")[0]).toBe("Found 300 matches in 1 files (stopped at 300; narrow the search).");
  });

  it("stops a runaway pattern with a clear error instead of freezing the server", async () => {
    h = makeHarness();
    writeFileSync(h.at("a.txt"), `${"a".repeat(40)}!\n`);
    const t0 = Date.now();
    const r = await h.run(searchFilesTool, { regex: "^(a+)+$" });
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(r.isError).toBe(true);
    expect(r.text).toContain("ran longer than");
  });

  it("explains an invalid regex", async () => {
    h = makeHarness();
    const r = await h.run(searchFilesTool, { regex: "foo(" });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("Invalid regular expression /foo(/");
  });
});
