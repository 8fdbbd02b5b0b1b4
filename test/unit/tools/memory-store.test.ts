/**
 * The memory stores' path confinement: what the model may name, and every way out refused.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { memoryIndex, MemoryPathError, resolveMemoryPath } from "../../../server/src/tools/session/memory-store.js";

const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), "agent-lsp-memory-")));
const dirs = { project: path.join(base, "project-store"), user: path.join(base, "user-store") };
mkdirSync(dirs.project, { recursive: true });
mkdirSync(dirs.user, { recursive: true });
const outside = path.join(base, "outside");
mkdirSync(outside);
writeFileSync(path.join(outside, "secret.txt"), "secret");
symlinkSync(outside, path.join(dirs.project, "escape"));
symlinkSync(path.join(outside, "secret.txt"), path.join(dirs.user, "link.md"));
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe("resolveMemoryPath", () => {
  it.each([
    ["project/notes.md", "project", "notes.md"],
    ["/memories/user/prefs.md", "user", "prefs.md"],
    ["memories/project/a/b.md", "project", "a/b.md"],
    ["project", "project", ""],
    ["./user/./x.md", "user", "x.md"],
  ])("%s is %s/%s", (input, store, rel) => {
    expect(resolveMemoryPath(input, dirs)).toMatchObject({ store, rel });
  });

  it("takes /memories (and nothing) as the root of both stores", () => {
    expect(resolveMemoryPath("/memories", dirs)).toBeUndefined();
    expect(resolveMemoryPath("", dirs)).toBeUndefined();
  });

  it.each([
    ["../etc/passwd", /"\.\." is not allowed/],
    ["project/../../outside/secret.txt", /"\.\." is not allowed/],
    ["/etc/passwd", /absolute path/],
    ["C:/Windows/x", /absolute path|project\/ or user\//],
    ["notes.md", /start with project\/ or user\//],
    ["project\\..\\x", /use \//],
    ["project/escape/secret.txt", /leads out of the memory store/],
    ["project/escape/new.md", /leads out of the memory store/],
    ["user/link.md", /leads out of the memory store/],
  ])("refuses %s", (input, message) => {
    expect(() => resolveMemoryPath(input, dirs)).toThrow(MemoryPathError);
    expect(() => resolveMemoryPath(input, dirs)).toThrow(message);
  });
});

describe("memoryIndex", () => {
  it("lists each file with its first line, within the budget", () => {
    const d = { project: path.join(base, "idx-p"), user: path.join(base, "idx-u") };
    mkdirSync(path.join(d.project, "sub"), { recursive: true });
    mkdirSync(d.user, { recursive: true });
    writeFileSync(path.join(d.project, "build.md"), "\n# Build with make -j4\nmore");
    writeFileSync(path.join(d.project, "sub", "api.md"), "API keys live in vault");
    writeFileSync(path.join(d.user, "style.md"), "Prefers tabs");
    expect(memoryIndex(d, 10_000)).toBe(["- project/build.md: # Build with make -j4", "- project/sub/api.md: API keys live in vault", "- user/style.md: Prefers tabs"].join("\n"));
    expect(memoryIndex(d, 60)).toBe(["- project/build.md: # Build with make -j4", "- (2 more file(s); view project or user with the memory tool)"].join("\n"));
    expect(memoryIndex(d, 0)).toBe("");
  });
});
