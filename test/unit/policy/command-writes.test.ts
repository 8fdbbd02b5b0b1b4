/**
 * Which words of a command name files it writes (the writers' option syntax), and how a glob is
 * matched against a folder; the gate judges these words where they really land.
 */
import { describe, expect, it } from "vitest";
import { parseCommandLine } from "../../../server/src/policy/command-line.js";
import { redirectTargets, writerTargets } from "../../../server/src/policy/command-writes.js";
import { globMayReach } from "../../../server/src/policy/shell-paths.js";

async function written(line: string): Promise<string[]> {
  const [cmd] = (await parseCommandLine(line)).commands;
  return [...redirectTargets(cmd!), ...writerTargets(cmd!)].map((w) => (w.follow ? w.word : `name:${w.word}`));
}

describe("written files", () => {
  it.each([
    ["make > out.log 2>&1 < in.txt", ["out.log"]],
    ["make &> all.log 2>> err.log >&-", ["all.log", "err.log"]],
    ["cat <<EOF", []],
    ["tee -a x y", ["x", "y"]],
    ["cp -r src dst", ["dst"]],
    ["cp -t dir a b", ["dir"]],
    ["cp --target-directory=dir a", ["dir"]],
    ["mv a b dir", ["dir", "name:a", "name:b"]],
    ["ln -s target", [".", "target"]],
    ["ln -sf target name", ["name", "target"]],
    ["install -m 755 tool bin/tool", ["bin/tool"]],
    ["touch -d yesterday stamp", ["stamp"]],
    ["truncate -s 0 log", ["log"]],
    ["rm -rf build dist", ["name:build", "name:dist"]],
    ["mkdir -pm 700 a/b", ["a/b"]],
    ["dd if=a of=b bs=1M", ["b"]],
    ["sed s/a/b/ file", []],
    ["sed -i s/a/b/ file", ["file"]],
    ["sed -ni -e p -e q f1 f2", ["f1", "f2"]],
    ["sed -i.bak 's/a/b/' file", ["file"]],
    ["sed --in-place=.orig -f script.sed file", ["file"]],
    ["sudo tee /etc/hosts", ["/etc/hosts"]],
    ["grep x file", []],
  ])("%j writes %j", async (line, words) => {
    expect(await written(line)).toEqual(words);
  });
});

describe("globMayReach", () => {
  it.each([
    ["/p/.agent-*/config.toml", "/p/.agent-lsp", true],
    ["/p/.agent-l?p", "/p/.agent-lsp", true],
    ["/p/.[a]gent-lsp/x", "/p/.agent-lsp", true],
    ["/p/*", "/p/.agent-lsp", false],
    ["/p/.*", "/p/.agent-lsp", true],
    ["/*", "/p/.agent-lsp", true],
    ["/p/src/*", "/p/.agent-lsp", false],
    ["/h/.config/*/config.toml", "/h/.config/agent-lsp", true],
  ])("%s may reach %s: %s", (pattern, dir, expected) => {
    expect(globMayReach(pattern, dir)).toBe(expected);
  });
});
