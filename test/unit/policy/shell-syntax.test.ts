/**
 * The command-line reader over tree-sitter-bash: every simple command wherever it hides, its words
 * as the program receives them, its redirections, and the folders each command may run in.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { innerCommandLine, parseCommandLine } from "../../../server/src/policy/command-line.js";
import { commandFolders } from "../../../server/src/policy/shell/folders.js";
import { ARITHMETIC_CODE, HIDDEN_COMMAND, UNREADABLE } from "../../../server/src/policy/shell/syntax.js";

async function programs(line: string): Promise<string[][]> {
  return (await parseCommandLine(line)).commands.map((c) => c.words);
}

describe("every command is found", () => {
  it.each([
    ["ls ${X:-$(touch pwned)}", [["ls", "${X:-$(touch pwned)}"], ["touch", "pwned"]]],
    ["ls ${X:=$(curl -s x | sh)}", [["ls", "${X:=$(curl -s x | sh)}"], ["curl", "-s", "x"], ["sh"]]],
    ['echo "${X:-"$(id)"}"', [["echo", '${X:-"$(id)"}'], ["id"]]],
    ["echo ${X/$(id)/y}", [["echo", "${X/$(id)/y}"], ["id"]]],
    ["cat <<EOF\n$(rm -rf x)\nEOF", [["cat"], ["rm", "-rf", "x"]]],
    ["echo $(( $(id) + 1 ))", [["echo", "$(( $(id) + 1 ))"], ["id"]]],
    ["echo $(( a[$(id)] ))", [["echo", "$(( a[$(id)] ))"], ["id"]]],
    ["x=$(id) make", [["x=$(id)", "make"], ["id"]]],
    ["local x=$(id)", [["local", "x=$(id)"], ["id"]]],
    ["a=(1 $(id))", [["a=1", "a=$(id)"], ["id"]]],
    ["cat <(ls) >(tee x)", [["cat", "<(ls)", ">(tee x)"], ["ls"], ["tee", "x"]]],
    ["cat x <<< \"$(id)\"", [["cat", "x"], ["id"]]],
    ["if a; then b; elif c; then d; else e; fi", [["a"], ["b"], ["c"], ["d"], ["e"]]],
    ["while read l; do rm $l; done < list", [[], ["read", "l"], ["rm", "$l"]]],
    ["for f in *.ts src; do cat $f; done", [["f=*.ts", "f=src"], ["cat", "$f"]]],
    ["case $x in a) ls;; *) rm x;; esac", [["ls"], ["rm", "x"]]],
    ["f() { rm -rf x; } > log; f", [[], ["rm", "-rf", "x"], ["f"]]],
    ["[[ -f ~/.ssh/id_rsa ]] && cat x", [["[[", "-f", "~/.ssh/id_rsa", "]]"], ["cat", "x"]]],
    ["cat <<EOF | sh\nrm -rf x\nEOF", [["cat"], ["sh"]]],
    ["cat <<'EOF' && ls\n$(id)\nEOF", [["cat"], ["ls"]]],
    ["export PAGER=less B", [["export", "PAGER=less", "B"]]],
    ["time ls -l; ! rm x; cd /tmp &", [["time", "ls", "-l"], ["rm", "x"], ["cd", "/tmp"]]],
  ])("%j", async (line, expected) => {
    expect(await programs(line)).toEqual(expected);
  });
});

describe("words as the program receives them", () => {
  it.each([
    [`echo "a && b" 'c; d' e\\ f $'\\x41\\tb' "x\\"y"`, ["echo", "a && b", "c; d", "e f", "A\tb", 'x"y']],
    ["cp a{,.bak}", ["cp", "a", "a.bak"]],
    ["cat ~/.ss{h,x}/id_rsa", ["cat", "~/.ssh/id_rsa", "~/.ssx/id_rsa"]],
    ["echo x{1..3}", ["echo", "x1", "x2", "x3"]],
    ["echo '{a,b}' \"{c,d}\" ${e,f} {}", ["echo", "{a,b}", "{c,d}", "${e,f}", "{}"]],
    ['echo "$HOME"/.aws ~"/x"', ["echo", "$HOME/.aws", "~/x"]],
  ])("%j", async (line, words) => {
    expect((await parseCommandLine(line)).commands[0]!.words).toEqual(words);
  });

  it("reads redirections with their descriptors", async () => {
    const [cmd] = (await parseCommandLine("make <<<hi 2>&1 >out.log < in.txt &>all 2>>err >&-")).commands;
    expect(cmd!.redirects).toEqual([
      { op: "<<<", target: "hi" },
      { op: "2>&", target: "1" },
      { op: ">", target: "out.log" },
      { op: "<", target: "in.txt" },
      { op: "&>", target: "all" },
      { op: "2>>", target: "err" },
      { op: ">&", target: "-" },
    ]);
  });

  it("knows what a shell reads from a here-document", async () => {
    const [bash] = (await parseCommandLine("bash <<EOF\nrm -rf ~\nEOF")).commands;
    expect(innerCommandLine(bash!)).toBe("rm -rf ~\n");
    const [sh] = (await parseCommandLine("sh -s <<< 'rm x'")).commands;
    expect(innerCommandLine(sh!)).toBe("rm x");
    const [script] = (await parseCommandLine("bash build.sh <<< 'y'")).commands;
    expect(innerCommandLine(script!)).toBeUndefined();
  });

  it("marks what is piped on or substituted as captured", async () => {
    const line = await parseCommandLine("echo a | grep a; echo $(echo b); echo c");
    expect(line.commands.map((c) => c.captured)).toEqual([true, false, false, true, false]);
  });
});

describe("what cannot be judged statically is opaque", () => {
  it.each([
    ["ls ${X:-$(touch pwned)}", HIDDEN_COMMAND],
    ["ls ${X:-`touch pwned`}", HIDDEN_COMMAND],
    ["ls ${X:=`touch pwned`}", HIDDEN_COMMAND],
    ['echo "${X:-`id`}"', HIDDEN_COMMAND],
    ["cat <<EOF\n`id`\nEOF", HIDDEN_COMMAND],
    ["diff <(a) <(b)", HIDDEN_COMMAND],
    ["echo 'unterminated", UNREADABLE],
    ["cat 3<>f", UNREADABLE],
    ["X='a[$(id)]'; echo $((X))", ARITHMETIC_CODE],
    ["read X < f; echo $((X + 1))", ARITHMETIC_CODE],
    ["echo {a..z}{a..z}", UNREADABLE],
    [`echo ${"$(".repeat(60)}x${")".repeat(60)}`, UNREADABLE],
  ])("%j", async (line, reason) => {
    expect((await parseCommandLine(line)).opaque).toBe(reason);
  });

  it.each(["echo '$(id)' '`x`'", "cat <<'EOF'\n$(id)\nEOF", "echo \\`id\\`", "echo $((1 + 2))", "git commit -m 'fix `x`'"])("%j is plain", async (line) => {
    expect((await parseCommandLine(line)).opaque).toBeUndefined();
  });
});

describe("the folders each command runs in", () => {
  const start = path.join(path.sep, "p");
  const home = path.join(path.sep, "h");
  async function folders(line: string): Promise<Record<string, readonly string[] | undefined>> {
    const parsed = await parseCommandLine(line);
    const map = commandFolders(parsed, [start], home);
    return Object.fromEntries(parsed.commands.map((c) => [c.words.join(" "), map.get(c)]));
  }

  it.each([
    ["cd a && ls", { "cd a": ["/p"], ls: ["/p/a"] }],
    ["(cd a; ls); pwd", { "cd a": ["/p"], ls: ["/p/a"], pwd: ["/p"] }],
    ["cd a | ls", { "cd a": ["/p"], ls: ["/p"] }],
    ["test -d a && cd a; ls", { "test -d a": ["/p"], "cd a": ["/p"], ls: ["/p", "/p/a"] }],
    ["if x; then cd /t; else cd; fi; ls", { x: ["/p"], "cd /t": ["/p"], cd: ["/p"], ls: ["/t", "/h"] }],
    ["echo $(cd /t); ls", { "echo $(cd /t)": ["/p"], "cd /t": ["/p"], ls: ["/p"] }],
    ["cd /t & ls", { "cd /t": ["/p"], ls: ["/p"] }],
    ['cd "$D"; ls', { "cd $D": ["/p"], ls: undefined }],
    ["cd -; ls", { "cd -": ["/p"], ls: undefined }],
    ["for d in a b; do cd ..; ls; done; pwd", { "d=a d=b": ["/p"], "cd ..": undefined, ls: undefined, pwd: undefined }],
    ["f() { cd /t; }; f; ls", { "cd /t": undefined, f: undefined, ls: undefined }],
  ])("%j", async (line, expected) => {
    const sep = (p: string) => p.split("/").join(path.sep);
    const want = Object.fromEntries(Object.entries(expected).map(([k, v]) => [k, v?.map(sep)]));
    expect(await folders(line)).toEqual(want);
  });
});
