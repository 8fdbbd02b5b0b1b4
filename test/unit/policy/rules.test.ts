/**
 * Rule scoping: what each "don't ask again" remembers and what a rule covers; the command-line
 * reading the program scopes rest on; and approvals.toml round trips.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { approvalsPath, loadApprovals, saveApprovals } from "../../../server/src/policy/approvals-file.js";
import { ensureApprovalKey } from "../../../server/src/policy/approvals-key.js";
import { parseCommandLine, programOf } from "../../../server/src/policy/command-line.js";
import { HIDDEN_COMMAND } from "../../../server/src/policy/shell/syntax.js";
import { ApprovalBook } from "../../../server/src/policy/rule-book.js";
import { commandScopes } from "../../../server/src/policy/command-scopes.js";
import { fileChangeScopes, ruleCovers, type ApprovalRule, type Scope } from "../../../server/src/policy/rules.js";
import { tempRoot } from "./setup.js";

const ROOT = path.join(path.sep, "p");

describe("ruleCovers", () => {
  const file = (tool: string, dir: string): ApprovalRule => ({ kind: "file", tool, dir });
  const ext = (dir: string, access: "read" | "write"): ApprovalRule => ({ kind: "external", dir, access });
  it.each([
    ["same tool, same dir", file("edit_file", "/p/src"), file("edit_file", "/p/src"), true],
    ["same tool, subdir", file("edit_file", "/p/src"), file("edit_file", "/p/src/a/b"), true],
    ["same tool, sibling dir", file("edit_file", "/p/src"), file("edit_file", "/p/srcx"), false],
    ["same tool, parent dir", file("edit_file", "/p/src"), file("edit_file", "/p"), false],
    ["other tool", file("edit_file", "/p/src"), file("write_file", "/p/src"), false],
    ["program", { kind: "program", program: "npm" }, { kind: "program", program: "npm" }, true],
    ["other program", { kind: "program", program: "npm" }, { kind: "program", program: "npx" }, false],
    ["outside write covers read", ext("/o", "write"), ext("/o/x", "read"), true],
    ["outside read does not cover write", ext("/o", "read"), ext("/o", "write"), false],
    ["outside other dir", ext("/o", "write"), ext("/other", "read"), false],
    ["tool", { kind: "tool", tool: "web_fetch" }, { kind: "tool", tool: "web_fetch" }, true],
    ["kinds never mix", { kind: "tool", tool: "edit_file" }, file("edit_file", "/p"), false],
  ] as [string, ApprovalRule, ApprovalRule, boolean][])("%s", (_n, rule, wanted, expected) => {
    expect(ruleCovers(rule, wanted)).toBe(expected);
  });
});

describe("scopes", () => {
  it("a file change is that tool under each file's directory, plus each outside directory", () => {
    const scopes = fileChangeScopes("edit_file", ROOT, ["src/a.ts", "src/b.ts", "lib/c.ts", "/o/d.ts"]);
    expect(scopes.map((s) => s.rule)).toEqual([
      { kind: "file", tool: "edit_file", dir: "/p/src" },
      { kind: "file", tool: "edit_file", dir: "/p/lib" },
      { kind: "file", tool: "edit_file", dir: "/o" },
      { kind: "external", dir: "/o", access: "write" },
    ]);
    expect(scopes.map((s) => s.autoAllowed)).toEqual([true, true, true, false]);
  });

  it("a change that only makes folders is scoped to the project", () => {
    expect(fileChangeScopes("create_directory", ROOT, []).map((s) => s.rule)).toEqual([{ kind: "file", tool: "create_directory", dir: ROOT }]);
  });

  it.each([
    ["npm test", ["npm"]],
    ["npm run build && npm run lint", ["npm"]],
    ["cd app && make -j4", ["cd", "make"]],
    ["FOO=1 cargo test | tee out.txt", ["cargo", "tee"]],
    ["/usr/bin/git status", ["git"]],
    ["bash -c 'make'", [undefined]],
    ["sudo make install", [undefined]],
    ["echo $(whoami)", [undefined, "echo", "whoami"]],
    ["ls `pwd`", [undefined, "ls", "pwd"]],
  ] as [string, (string | undefined)[]][])("command %j is scoped to %j", async (command, programs) => {
    const scopes = await commandScopes(command);
    expect(scopes.map((s) => (s.rule?.kind === "program" ? s.rule.program : undefined))).toEqual(programs);
    expect(scopes.every((s) => !s.autoAllowed)).toBe(true);
  });
});

describe("commandScopes in a project", () => {
  const root = path.join(path.sep, "home", "me", "app");
  const place = { cwd: root, root, home: path.join(path.sep, "home", "me") };
  const outside = (s: Scope) =>
    s.rule?.kind === "external" ? s.rule.dir : s.rule ? undefined : s.unremembered?.split(" ")[0];
  it.each([
    ["npm test > out.log 2>&1", []],
    ["cd sub && make > /dev/null", []],
    ["make >> ~/build.log", [path.join(path.sep, "home", "me")]],
    ["cd .. && make", [path.join(path.sep, "home", "me")]],
    ["cd /tmp; cd -P x && make", [path.join(path.sep, "tmp"), path.join(path.sep, "tmp", "x")]],
    ['cd "$DIR" && make', ["commands"]],
    ["make > $OUT", ["writing"]],
  ] as [string, (string | undefined)[]][])("%j is asked for %j outside", async (command, dirs) => {
    expect((await commandScopes(command, place)).map(outside).filter((d) => d !== undefined)).toEqual(dirs);
  });
});

describe("parseCommandLine", () => {
  it.each([
    ["a && b || c; d | e & f", [["a"], ["b"], ["c"], ["d"], ["e"], ["f"]]],
    [`echo "a && b" 'c; d' e\\ f`, [["echo", "a && b", "c; d", "e f"]]],
    ["x=1 y=2 cmd --flag", [["x=1", "y=2", "cmd", "--flag"]]],
    ["echo ${HOME}/x # a comment; rm -rf /", [["echo", "${HOME}/x"]]],
    ["(cd a && make)", [["cd", "a"], ["make"]]],
    ["echo a\nrm b", [["echo", "a"], ["rm", "b"]]],
  ] as [string, string[][]][])("%j", async (line, words) => {
    expect((await parseCommandLine(line)).commands.map((c) => c.words)).toEqual(words);
  });

  it("keeps redirections apart from words", async () => {
    const [cmd] = (await parseCommandLine("make 2>&1 >out.log < in.txt")).commands;
    expect(cmd!.words).toEqual(["make"]);
    expect(cmd!.redirects).toEqual([
      { op: "2>&", target: "1" },
      { op: ">", target: "out.log" },
      { op: "<", target: "in.txt" },
    ]);
  });

  it("marks substitutions as opaque, even inside double quotes, but not in single quotes", async () => {
    expect((await parseCommandLine('echo "$(id)"')).opaque).toBe(HIDDEN_COMMAND);
    expect((await parseCommandLine("echo '$(id)'")).opaque).toBeUndefined();
    expect((await parseCommandLine("diff <(a) <(b)")).opaque).toBe(HIDDEN_COMMAND);
  });

  it("finds the program behind assignments and wrappers", () => {
    expect(programOf(["A=1", "sudo", "-u", "bob", "env", "B=2", "nice", "-n", "5", "timeout", "10", "rm", "x"])).toBe("rm");
  });
});

/** The user's folders for a book, inside a temp folder of its own. */
function userPlaces(root: string) {
  return { stateDir: path.join(root, "user", "state"), configDir: path.join(root, "user", "config"), home: path.join(root, "user") };
}

describe("approvals.toml", () => {
  it("round-trips every kind of rule, storing project folders relative", async () => {
    const root = tempRoot();
    const rules: ApprovalRule[] = [
      { kind: "file", tool: "edit_file", dir: path.join(root, "src") },
      { kind: "file", tool: "write_file", dir: root },
      { kind: "program", program: "npm" },
      { kind: "external", dir: "/opt/shared", access: "read" },
      { kind: "tool", tool: "web_fetch" },
    ];
    const key = await ensureApprovalKey(path.join(root, "state"));
    await saveApprovals(root, key, rules);
    const text = readFileSync(approvalsPath(root), "utf8");
    expect(text).toContain('dir = "src"');
    expect(text).toContain('dir = "."');
    expect(text.startsWith("# Approvals agent-lsp remembers")).toBe(true);
    expect((await loadApprovals(root, key)).rules).toEqual(rules);
  });

  it("a broken file is reported and never overwritten", async () => {
    const root = tempRoot();
    mkdirSync(path.join(root, ".agent-lsp"), { recursive: true });
    writeFileSync(approvalsPath(root), "[[program]\nname = ");
    const reports: string[] = [];
    const book = new ApprovalBook((m) => reports.push(m), () => userPlaces(root));
    const owner = { sessionId: "s", root };
    await book.remember(owner, [{ kind: "program", program: "npm" }], true);
    expect(readFileSync(approvalsPath(root), "utf8")).toBe("[[program]\nname = ");
    expect(reports[0]).toContain("not a valid approvals file");
    // The rule still holds for the session.
    expect(await book.covers(owner, { kind: "program", program: "npm" }, true)).toBe(true);
    expect(await book.covers({ sessionId: "other", root }, { kind: "program", program: "npm" }, true)).toBe(false);
  });

  it("an entry deleted from the file stops applying at once", async () => {
    const root = tempRoot();
    const book = new ApprovalBook(() => undefined, () => userPlaces(root));
    await book.remember({ sessionId: "a", root }, [{ kind: "program", program: "make" }], true);
    const fresh = { sessionId: "b", root };
    expect(await book.covers(fresh, { kind: "program", program: "make" }, true)).toBe(true);
    expect(await book.covers(fresh, { kind: "program", program: "make" }, false)).toBe(false);
    writeFileSync(approvalsPath(root), "");
    expect(await book.covers(fresh, { kind: "program", program: "make" }, true)).toBe(false);
  });
});
