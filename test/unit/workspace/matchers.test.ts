import { describe, expect, it } from "vitest";
import { fileGlobMatcher } from "../../../server/src/workspace/glob.js";
import { isIgnored, parseIgnoreFile } from "../../../server/src/workspace/ignore.js";
import { requiredLiteral } from "../../../server/src/workspace/literal.js";

describe("tool file globs", () => {
  it.each([
    ["*.ts", "a.ts", true],
    ["*.ts", "dir/a.ts", true],
    ["*.ts", "a.tsx", false],
    ["**/*.ts", "a.ts", true],
    ["**/*.ts", "x/y/a.ts", true],
    ["src/**/*.ts", "src/a.ts", true],
    ["src/**/*.ts", "src/x/y/a.ts", true],
    ["src/**/*.ts", "lib/a.ts", false],
    ["src/*.ts", "src/a.ts", true],
    ["src/*.ts", "src/x/a.ts", false],
    ["src/*.ts", "deep/src/a.ts", false],
    ["./src/*.ts", "src/a.ts", true],
    ["*.{js,ts}", "a.js", true],
    ["src/**/*.{js,ts}", "src/x/a.ts", true],
    ["file?.txt", "file1.txt", true],
    ["file?.txt", "file12.txt", false],
    ["[ab].txt", "c.txt", false],
    ["[!ab].txt", "c.txt", true],
    ["a.txt", "a-txt", false],
    ["*.json", ".eslintrc.json", true],
    ["**/*.json", ".config/x.json", true],
    ["\\*.md", "*.md", true],
    ["\\*.md", "a.md", false],
  ])("%s against %s: %s", async (glob, path, expected) => {
    expect((await fileGlobMatcher(glob))(path)).toBe(expected);
  });
});

describe(".gitignore rules", () => {
  const files = [parseIgnoreFile("", "# comment\n*.log\n!keep.log\nbuild/\n/root-only.txt\ndocs/*.tmp\n**/cache\nsecret\\ \n"), parseIgnoreFile("sub", "local.txt\n")];
  it.each([
    ["a.log", false, true],
    ["deep/a.log", false, true],
    ["keep.log", false, false],
    ["build", true, true],
    ["build", false, false],
    ["x/build", true, true],
    ["root-only.txt", false, true],
    ["x/root-only.txt", false, false],
    ["docs/a.tmp", false, true],
    ["docs/x/a.tmp", false, false],
    ["a/b/cache", true, true],
    ["sub/local.txt", false, true],
    ["local.txt", false, false],
    ["secret ", false, true],
    ["main.ts", false, false],
  ])("%s (dir %s) ignored: %s", (rel, isDir, expected) => {
    expect(isIgnored(files, rel, isDir)).toBe(expected);
  });
});

describe("required literal of a regex", () => {
  it.each([
    [/TODO: fix/, "TODO: fix"],
    [/foo\.bar\(/, "foo.bar("],
    [/\w+Error\b/, "Error"],
    [/colou?r/, "colo"],
    [/(abc)+defgh/, "defgh"],
    [/abcd[xyz]ef/, "abcd"],
    [/a|bcdef/, undefined],
    [/todo/i, undefined],
    [/ab/, undefined],
    [/x{2}yyy/, "yyy"],
  ])("%s needs %s", (re, literal) => {
    expect(requiredLiteral(re)).toBe(literal);
  });
});
