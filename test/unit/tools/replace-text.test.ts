import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { fileTools } from "../../../server/src/tools/files/file-tools.js";
import { replaceTextTool } from "../../../server/src/tools/files/replace-text.js";
import { makeHarness, type ToolHarness } from "./context.js";

let h: ToolHarness;
afterEach(() => h?.dispose());

function files(h: ToolHarness): void {
  mkdirSync(h.at("src/deep"), { recursive: true });
  writeFileSync(h.at("src/a.ts"), "oldName();\noldName();\n");
  writeFileSync(h.at("src/deep/b.ts"), "import { oldName } from '../a';\n");
  writeFileSync(h.at("src/c.md"), "oldName in docs\n");
}

describe("replace_text", () => {
  it("neither previews nor changes a symlinked file whose target is outside the project", async () => {
    h = makeHarness();
    files(h);
    const outside = mkdtempSync(path.join(tmpdir(), "agent-lsp-outside-"));
    writeFileSync(path.join(outside, "x.ts"), "oldName(secretToken);\n");
    symlinkSync(path.join(outside, "x.ts"), h.at("src/linked.ts"));
    const r = await h.run(replaceTextTool, { glob: "src/**/*.ts", find: "oldName", replace: "newName" });
    expect(r.text).not.toContain("secretToken");
    expect(r.text).toMatch(/3 replacements in 2 files/);
  });

  it("previews by default and changes nothing", async () => {
    h = makeHarness();
    files(h);
    const r = await h.run(replaceTextTool, { glob: "src/**/*.ts", find: "oldName", replace: "newName" });
    expect(r.text).toMatch(/^Dry run: 3 replacements in 2 files would be made\. Call again with apply: true/);
    expect(r.text).toContain("-oldName();\n+newName();");
    expect(readFileSync(h.at("src/a.ts"), "utf8")).toBe("oldName();\noldName();\n");
    expect(h.asked).toEqual([]);
  });

  it("applies as one change set with apply: true", async () => {
    h = makeHarness();
    files(h);
    const r = await h.run(replaceTextTool, { glob: "*.ts", find: "oldName", replace: "newName", apply: true });
    expect(r.text).toContain("Replaced 3 occurrences in 2 files:");
    expect(readFileSync(h.at("src/a.ts"), "utf8")).toBe("newName();\nnewName();\n");
    expect(readFileSync(h.at("src/deep/b.ts"), "utf8")).toBe("import { newName } from '../a';\n");
    expect(readFileSync(h.at("src/c.md"), "utf8")).toBe("oldName in docs\n");
    expect(h.asked.filter((a) => a.kind === "file_change")).toHaveLength(1);
    expect(await h.ws.listCheckpoints("s1")).toHaveLength(1);
  });

  it("changes no file when one changed between the tool's read and its change set", async () => {
    h = makeHarness();
    files(h);
    const apply = h.ws.apply.bind(h.ws);
    h.ws.apply = (set, opts) => {
      writeFileSync(h.at("src/a.ts"), "oldName(); // typed meanwhile\n");
      return apply(set, opts);
    };
    const r = await h.run(replaceTextTool, { glob: "*.ts", find: "oldName", replace: "newName", apply: true });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/^src\/a\.ts changed on disk while this change was being made from it; nothing was changed\./);
    expect(readFileSync(h.at("src/a.ts"), "utf8")).toBe("oldName(); // typed meanwhile\n");
    expect(readFileSync(h.at("src/deep/b.ts"), "utf8")).toBe("import { oldName } from '../a';\n");
  });

  it("replaces with regex groups, and reports no matches and bad regexes", async () => {
    h = makeHarness();
    files(h);
    await h.run(replaceTextTool, { glob: "*.md", find: "(\\w+)Name", replace: "$1_name", regex: true, apply: true });
    expect(readFileSync(h.at("src/c.md"), "utf8")).toBe("old_name in docs\n");
    expect((await h.run(replaceTextTool, { glob: "*.ts", find: "absent", replace: "x" })).text).toBe('No file matching *.ts contains "absent".');
    expect((await h.run(replaceTextTool, { glob: "*.ts", find: "(", replace: "x", regex: true })).isError).toBe(true);
  });
});

describe("fileTools", () => {
  it("lists every file tool with the issue's parameter names, reads read_only and the rest read_write", () => {
    const byName = Object.fromEntries(fileTools.map((t) => [t.name, t]));
    const params = (name: string) => Object.keys((byName[name]!.inputSchema as { properties: object }).properties).sort();
    expect(params("read_file")).toEqual(["line_count", "path", "start_line", "view_range"]);
    expect(params("write_file")).toEqual(["content", "path"]);
    expect(params("edit_file")).toEqual(["allow_multiple", "insert_line", "path", "replacement_content", "target_content"]);
    expect(params("replace_in_file")).toEqual(["diff", "path"]);
    expect(params("apply_patch")).toEqual(["patch"]);
    expect(params("delete_file")).toEqual(["path"]);
    expect(params("create_directory")).toEqual(["path"]);
    expect(params("list_files")).toEqual(["hidden", "max_depth", "path", "recursive"]);
    expect(params("search_files")).toEqual(["file_pattern", "path", "regex"]);
    expect(params("list_code_definition_names")).toEqual(["path"]);
    expect(params("replace_text")).toEqual(["apply", "find", "glob", "regex", "replace"]);
    const readOnly = fileTools.filter((t) => t.policyClass === "read_only").map((t) => t.name).sort();
    expect(readOnly).toEqual(["list_code_definition_names", "list_files", "read_file", "search_files"]);
    expect(fileTools.every((t) => t.category === "file" && t.isMutating === (t.policyClass !== "read_only"))).toBe(true);
  });
});
