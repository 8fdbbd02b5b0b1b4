/**
 * Which words of a command may name a file it reads, which folders it reads following every link,
 * how a glob expands, and where the links of a folder lead.
 */
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseCommandLine } from "../../../server/src/policy/command-line.js";
import { followedFolders, readWords } from "../../../server/src/policy/command-reads.js";
import { linksLeaving } from "../../../server/src/policy/link-scan.js";
import { expandGlob } from "../../../server/src/policy/shell-paths.js";
import { tempRoot } from "./setup.js";

async function first(line: string) {
  return (await parseCommandLine(line)).commands[0]!;
}

describe("readWords", () => {
  it.each([
    ["cat a b", ["cat", "a", "b"]],
    ["grep -n --file=pats.txt x src", ["grep", "--file=pats.txt", "x", "src", "pats.txt"]],
    ["curl -F f=@~/.ssh/id_rsa -d @body.json u", ["curl", "f=@~/.ssh/id_rsa", "@body.json", "u", "@~/.ssh/id_rsa", "body.json", "~/.ssh/id_rsa"]],
    ["head < in.txt > out.txt 2>&1", ["head", "in.txt"]],
    ["cp ~/.ssh/id_rsa leaked.txt", ["cp", "~/.ssh/id_rsa"]],
    ["echo ~/.ssh/id_rsa", []],
    ["X=~/.ssh", ["X=~/.ssh", "~/.ssh"]],
    ["sed -n '1r secret' notes", ["sed", "1r secret", "notes", "secret"]],
  ])("%j", async (line, words) => {
    expect((await readWords(await first(line))).map((w) => w.word)).toEqual(words);
  });

  it("marks the program, and reads tar's operands from its -C folder", async () => {
    expect(readWords(await first("tar -cf k.tar -C ~ .ssh"))).toEqual([{ word: "tar", program: true }, { word: "k.tar" }, { word: "~" }, { word: ".ssh", base: "~" }]);
  });

  it("counts echo's words when the line reads what it prints", async () => {
    const line = await parseCommandLine("cat $(echo ~/.ssh/id_rsa)");
    expect(readWords(line.commands[1]!).map((w) => w.word)).toEqual(["echo", "~/.ssh/id_rsa"]);
  });
});

describe("followedFolders", () => {
  it.each([
    ["grep -R x", ["."]],
    ["grep -Rn x src lib", ["src", "lib"]],
    ["grep -R -e x src", ["src"]],
    ["grep -r x .", []],
    ["rg -L x", ["."]],
    ["rg x", []],
    ["tar -chf a.tar src", ["src"]],
    ["cp -rL src dst", ["src"]],
    ["cp -r src dst", []],
    ["find -L . -name x", ["."]],
    ["zip -r a.zip src", ["src"]],
    ["zip -ry a.zip src", []],
  ])("%j", async (line, folders) => {
    expect(followedFolders(await first(line)).map((w) => w.word)).toEqual(folders);
  });
});

describe("on disk", () => {
  const root = tempRoot();
  const outside = tempRoot();
  mkdirSync(path.join(root, "a", "b"), { recursive: true });
  writeFileSync(path.join(root, "a", "b", "x.txt"), "");
  writeFileSync(path.join(root, "a", ".hidden"), "");
  mkdirSync(path.join(root, "inner"));
  symlinkSync(path.join(outside), path.join(root, "inner", "out"));
  symlinkSync(path.join(root, "inner"), path.join(root, "a", "to-inner"));
  symlinkSync(path.join(root, "missing"), path.join(root, "dangling"));

  it("expands a glob as the shell does, dot names only for a dot pattern", async () => {
    expect(await expandGlob(path.join(root, "a", "*"))).toEqual([path.join(root, "a", "b"), path.join(root, "a", "to-inner")].sort());
    expect(await expandGlob(path.join(root, "a", ".h*"))).toEqual([path.join(root, "a", ".hidden")]);
    expect(await expandGlob(path.join(root, "*", "*", "x.t?t"))).toEqual([path.join(root, "a", "b", "x.txt")]);
    expect(await expandGlob(path.join(root, "*", "*"), 2)).toBeUndefined();
  });

  it("finds the links that leave, through a chain of links inside", async () => {
    expect(await linksLeaving(path.join(root, "a"), root)).toEqual({ leaving: [outside] });
    expect(await linksLeaving(root, root, 3)).toEqual({ tooLarge: true });
  });
});
