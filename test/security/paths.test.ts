/**
 * Paths the model writes that are not what they look like. A NUL byte is refused with a message
 * that quotes the path (it used to reach the file system, or an editor that reads names only up
 * to the NUL). `~` and `~/…` are the user's home, as in a shell, for every file tool and for the
 * gate alike (they used to be a folder named `~` inside the project, out of the gate's sight).
 */
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { commandOf, inputPaths } from "../../server/src/policy/call-facts.js";
import { applyPatchTool } from "../../server/src/tools/files/apply-patch.js";
import { createDirectoryTool } from "../../server/src/tools/files/create-directory.js";
import { deleteFileTool } from "../../server/src/tools/files/delete-file.js";
import { editFileTool } from "../../server/src/tools/files/edit-file.js";
import { executeCommandTool } from "../../server/src/tools/commands/execute-command.js";
import { listCodeDefinitionNamesTool } from "../../server/src/tools/files/list-code-definition-names.js";
import { listFilesTool } from "../../server/src/tools/files/list-files.js";
import { readFileTool } from "../../server/src/tools/files/read-file.js";
import { replaceInFileTool } from "../../server/src/tools/files/replace-in-file.js";
import { searchFilesTool } from "../../server/src/tools/files/search-files.js";
import type { Capability } from "../../server/src/tools/types.js";
import { writeFileTool } from "../../server/src/tools/files/write-file.js";
import { WorkspaceError } from "../../server/src/workspace/errors.js";
import { resolveAgainstRoot } from "../../server/src/workspace/paths.js";
import { callOf, capability, gateFixture, never } from "../unit/policy/setup.js";
import { fakeToolSetup } from "../unit/exec/fake-context.js";
import { makeHarness, type ToolHarness } from "../unit/tools/context.js";

let h: ToolHarness;
let home: string;
let savedHome: string | undefined;
beforeEach(() => {
  h = makeHarness();
  writeFileSync(h.at("a.txt"), "alpha\n");
  // os.homedir() reads HOME: the tools see this folder as the user's home.
  home = realpathSync(mkdtempSync(path.join(os.tmpdir(), "agent-lsp-home-")));
  savedHome = process.env.HOME;
  process.env.HOME = home;
});
afterEach(() => {
  if (savedHome === undefined) delete process.env.HOME;
  else process.env.HOME = savedHome;
  h.dispose();
  rmSync(home, { recursive: true, force: true });
});

/** Every entry under `dir`, recursively, relative to it. */
const tree = (dir: string) => readdirSync(dir, { recursive: true }).map(String).sort();

/** Runs execute_command in a fresh project (after `prepare`); it must fail. */
async function runCommand(input: Record<string, unknown>, prepare?: (root: string) => void) {
  const setup = fakeToolSetup();
  try {
    prepare?.(setup.root);
    const r = await executeCommandTool.execute(input, setup.context());
    expect(r.isError).toBe(true);
    return { text: r.content.map((c) => (c.type === "text" ? c.text : "")).join(""), authorized: setup.authorized };
  } finally {
    setup.dispose();
  }
}

/** A V4A patch that adds `file`. */
const addPatch = (file: string) => `*** Begin Patch\n*** Add File: ${file}\n+x\n*** End Patch`;

describe("a path with a NUL byte", () => {
  const nul = "a.txt\0.png";
  const cases: [string, Capability, Record<string, unknown>][] = [
    ["read_file", readFileTool, { path: nul }],
    ["write_file", writeFileTool, { path: nul, content: "x\n" }],
    ["edit_file", editFileTool, { path: nul, target_content: "alpha", replacement_content: "beta" }],
    ["replace_in_file", replaceInFileTool, { path: nul, diff: "<<<<<<< SEARCH\nalpha\n=======\nbeta\n>>>>>>> REPLACE" }],
    ["list_files", listFilesTool, { path: "sub\0dir" }],
    ["search_files", searchFilesTool, { regex: "alpha", path: "sub\0dir" }],
    ["list_code_definition_names", listCodeDefinitionNamesTool, { path: nul }],
    ["delete_file", deleteFileTool, { path: nul }],
    ["create_directory", createDirectoryTool, { path: "new\0dir" }],
    ["apply_patch", applyPatchTool, { patch: addPatch("b.txt\0.png") }],
  ];
  it.each(cases)("is refused by %s, quoting the path, and nothing changes", async (_name, tool, input) => {
    const before = tree(h.root);
    const r = await h.run(tool, input);
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/The path "[^"]*\\u0000[^"]*" contains a NUL byte \(\\0\), which no file name can hold; it was refused\./);
    expect(tree(h.root)).toEqual(before);
  });

  it("is refused as execute_command's cwd", async () => {
    const { text, authorized } = await runCommand({ command: "true", cwd: "sub\0dir" });
    expect(text).toContain("contains a NUL byte");
    expect(authorized).toEqual([]);
  });

  it("is refused by the resolver itself, also inside a file URI", async () => {
    await expect(resolveAgainstRoot(h.root, h.root, "x\0y")).rejects.toThrow(WorkspaceError);
    await expect(resolveAgainstRoot(h.root, h.root, `file://${h.root}/x%00y`)).rejects.toThrow(/contains a NUL byte/);
  });
});

describe("~ in a path", () => {
  beforeEach(() => {
    writeFileSync(path.join(home, "notes.txt"), "from home\n");
    // Bait: what the old resolution reached instead of the home folder.
    mkdirSync(h.at("~"));
    writeFileSync(h.at("~/notes.txt"), "project bait\n");
  });

  it("resolves ~ and ~/x to the home folder, outside the project; ./~ and a/~ stay literal", async () => {
    expect(await resolveAgainstRoot(h.root, h.root, "~")).toMatchObject({ abs: home, external: true });
    expect(await resolveAgainstRoot(h.root, h.root, "~/notes.txt")).toMatchObject({ abs: path.join(home, "notes.txt"), external: true });
    expect(await resolveAgainstRoot(h.root, h.root, "./~/notes.txt")).toMatchObject({ rel: "~/notes.txt", external: false });
    expect(await resolveAgainstRoot(h.root, h.root, "a/~")).toMatchObject({ rel: "a/~", external: false });
    expect(await resolveAgainstRoot(h.root, h.root, "~user/x")).toMatchObject({ rel: "~user/x", external: false });
  });

  it("read_file and list_files ask about the home folder and read it, not the project's ~ folder", async () => {
    const read = await h.run(readFileTool, { path: "~/notes.txt" });
    expect(read.text).toContain("from home");
    expect(read.text).not.toContain("project bait");
    const list = await h.run(listFilesTool, { path: "~" });
    expect(list.isError).toBe(false);
    expect(h.asked).toEqual([
      { kind: "external_path", path: path.join(home, "notes.txt"), access: "read" },
      { kind: "external_path", path: home, access: "read" },
    ]);
  });

  const writes: [string, Capability, Record<string, unknown>][] = [
    ["write_file", writeFileTool, { path: "~/notes.txt", content: "changed\n" }],
    ["edit_file", editFileTool, { path: "~/notes.txt", target_content: "from home", replacement_content: "changed" }],
    ["delete_file", deleteFileTool, { path: "~/notes.txt" }],
    ["create_directory", createDirectoryTool, { path: "~/made" }],
    ["apply_patch", applyPatchTool, { patch: addPatch("~/added.txt") }],
  ];
  it.each(writes)("%s treats ~/x as outside the project and leaves the project's ~ folder alone", async (_name, tool, input) => {
    const before = tree(h.root);
    const r = await h.run(tool, input);
    expect(r.isError).toBe(true);
    expect(r.text).toContain(home);
    expect(r.text).toMatch(/outside the project/);
    expect(tree(h.root)).toEqual(before);
    expect(tree(home)).toEqual(["notes.txt"]);
  });

  it("as execute_command's cwd is the home folder, outside the project, not the project's ~ folder", async () => {
    const { text, authorized } = await runCommand({ command: "pwd", cwd: "~" }, (root) => mkdirSync(path.join(root, "~")));
    expect(text).toContain('cwd "~" is outside the project');
    expect(authorized).toEqual([]);
  });

  it("is seen by the gate as the home folder: outside the project, refused in read-only mode", async () => {
    const fx = gateFixture({ home });
    const reader = capability("read_only", { name: "read_file" });
    const decision = await fx.gate.check(fx.session("read_only"), callOf(reader, { path: "~/notes.txt" }), reader, never);
    expect(decision).toMatchObject({ allowed: false });
    expect(JSON.stringify(decision)).toContain(`Reading ${path.join(home, "notes.txt")} is not allowed: it is outside the project`);
    expect(inputPaths({ path: "~", paths: ["~/a", "./~/b"] }, fx.root, home)).toEqual([home, path.join(home, "a"), path.join(fx.root, "~/b")]);
    expect(commandOf(capability("exec"), { command: "ls", cwd: "~" }, fx.root, home)).toEqual({ command: "ls", cwd: home });
  });
});

