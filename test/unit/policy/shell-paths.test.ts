/**
 * Where a command-line word lands: `~` expanded, symlinks followed (or not, for what acts on the
 * name), `..` taken after the link as the kernel does, variables left to the shell.
 */
import { mkdirSync, symlinkSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { resolveShellPath } from "../../../server/src/policy/shell-paths.js";
import { tempRoot } from "./setup.js";

describe("resolveShellPath", () => {
  const root = tempRoot();
  const elsewhere = tempRoot();
  mkdirSync(path.join(elsewhere, "deep"));
  symlinkSync(path.join(elsewhere, "deep"), path.join(root, "link"));

  it("follows a link, and `..` climbs from its target", async () => {
    expect(await resolveShellPath("link/x", root, "/h")).toEqual({ kind: "path", abs: path.join(root, "link", "x"), real: path.join(elsewhere, "deep", "x") });
    expect(await resolveShellPath("link/../x", root, "/h")).toMatchObject({ abs: path.join(root, "x"), real: path.join(elsewhere, "x") });
  });

  it("takes the last segment as a name when told not to follow it", async () => {
    expect(await resolveShellPath("link", root, "/h", false)).toMatchObject({ real: path.join(root, "link") });
    expect(await resolveShellPath("link", root, "/h", true)).toMatchObject({ real: path.join(elsewhere, "deep") });
  });

  it("expands the home folder and $PWD, and leaves other variables to the shell", async () => {
    expect(await resolveShellPath("~/x", root, "/h")).toMatchObject({ abs: "/h/x" });
    expect(await resolveShellPath("$PWD/x", root, "/h")).toMatchObject({ abs: path.join(root, "x") });
    for (const word of ["$OUT", "~bob/x", "${DIR}/x", "*/../x"]) expect(await resolveShellPath(word, root, "/h")).toEqual({ kind: "unknown" });
  });

  it("keeps a glob as a pattern under the real folder it names", async () => {
    expect(await resolveShellPath("link/*.txt", root, "/h")).toEqual({
      kind: "glob",
      pattern: path.join(root, "link", "*.txt"),
      realPattern: path.join(elsewhere, "deep", "*.txt"),
      dir: path.join(root, "link"),
      realDir: path.join(elsewhere, "deep"),
    });
  });
});
