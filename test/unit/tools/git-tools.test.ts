/**
 * git_read and git_write on a real temporary repository: status, diff, log, commit with the
 * user's identity, a refused switch in a dirty tree, detached and conflicted states said
 * plainly, and no push (nor any history rewrite) on offer.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { gitReadTool } from "../../../server/src/tools/git/git-read.js";
import { gitWriteTool } from "../../../server/src/tools/git/git-write.js";
import { makeHarness, type ToolHarness } from "./context.js";

let h: ToolHarness;
const git = (...args: string[]) => execFileSync("git", args, { cwd: h.root, encoding: "utf8", env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1" } });
const write = (file: string, text: string) => writeFileSync(path.join(h.root, file), text);

beforeEach(() => {
  h = makeHarness();
  git("init", "-q", "-b", "main");
  git("config", "user.name", "Ada Example");
  git("config", "user.email", "ada@example.com");
  git("config", "commit.gpgsign", "false");
  write("a.txt", "one\n");
  git("add", "a.txt");
  git("commit", "-q", "-m", "first");
});
afterEach(() => h.dispose());

describe("git_read", () => {
  it("status names the branch and each kind of change", async () => {
    write("a.txt", "two\n");
    write("new.txt", "x\n");
    const r = await h.run(gitReadTool, { action: "status" });
    expect(r.isError).toBe(false);
    expect(r.text).toMatch(/^On branch main at [0-9a-f]+, no upstream\./);
    expect(r.text).toContain("Not staged (1):\n  .M a.txt");
    expect(r.text).toContain("Untracked (1):\n  new.txt");
  });

  it("diff shows unstaged and staged changes separately", async () => {
    write("a.txt", "two\n");
    expect((await h.run(gitReadTool, { action: "diff" })).text).toContain("+two");
    expect((await h.run(gitReadTool, { action: "diff", staged: true })).text).toBe("No staged changes.");
    git("add", "a.txt");
    expect((await h.run(gitReadTool, { action: "diff", staged: true })).text).toContain("-one\n+two");
  });

  it("log lists commits; a ref that looks like an option is refused before git runs", async () => {
    expect((await h.run(gitReadTool, { action: "log" })).text).toMatch(/[0-9a-f]+ \S+ Ada Example\n {4}first/);
    const bad = await h.run(gitReadTool, { action: "log", ref: "--output=/tmp/x" });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain('"--output=/tmp/x" is not usable');
  });

  it("show, blame (with a line range) and branch", async () => {
    write("a.txt", "one\ntwo\nthree\n");
    git("commit", "-q", "-am", "three lines");
    git("branch", "topic");
    const show = await h.run(gitReadTool, { action: "show" });
    expect(show.text).toContain("three lines");
    expect(show.text).toContain("+three");
    const blame = await h.run(gitReadTool, { action: "blame", paths: ["a.txt"], start_line: 2, end_line: 3 });
    expect(blame.text.trim().split("\n")).toHaveLength(2);
    expect(blame.text).toMatch(/Ada Example .*\) two/);
    expect((await h.run(gitReadTool, { action: "blame", paths: [] })).text).toBe("blame needs exactly one file in paths.");
    const branches = await h.run(gitReadTool, { action: "branch" });
    expect(branches.text).toMatch(/^\* main [0-9a-f]+/m);
    expect(branches.text).toMatch(/^ {2}topic [0-9a-f]+/m);
  });

  it("says plainly when HEAD is detached", async () => {
    git("checkout", "-q", "--detach");
    expect((await h.run(gitReadTool, { action: "status" })).text).toMatch(/HEAD is detached at [0-9a-f]+/);
  });

  it("says plainly when a merge left conflicts", async () => {
    git("checkout", "-q", "-b", "other");
    write("a.txt", "theirs\n");
    git("commit", "-q", "-am", "theirs");
    git("checkout", "-q", "main");
    write("a.txt", "ours\n");
    git("commit", "-q", "-am", "ours");
    try {
      git("merge", "-q", "other");
    } catch {
      /* the conflict is the point */
    }
    const r = await h.run(gitReadTool, { action: "status" });
    expect(r.text).toContain("A merge is in progress");
    expect(r.text).toContain("Conflicted (1), resolve these first:\n  UU a.txt");
    const commit = await h.run(gitWriteTool, { action: "commit", message: "try" });
    expect(commit.isError).toBe(true);
    expect(commit.text).toContain("1 file(s) are conflicted (a.txt)");
  });

  it("outside a repository the error says so", async () => {
    const plain = makeHarness();
    try {
      const r = await plain.run(gitReadTool, { action: "status" });
      expect(r.isError).toBe(true);
      expect(r.text).toContain("is not inside a git repository");
    } finally {
      plain.dispose();
    }
  });
});

describe("git_write", () => {
  it("adds and commits with the user's git identity", async () => {
    write("a.txt", "two\n");
    expect((await h.run(gitWriteTool, { action: "add", paths: ["a.txt"] })).isError).toBe(false);
    const r = await h.run(gitWriteTool, { action: "commit", message: "second" });
    expect(r.isError).toBe(false);
    expect(r.text).toMatch(/Committed [0-9a-f]+ by Ada Example <ada@example.com>: second/);
    expect(git("log", "-1", "--format=%an %s").trim()).toBe("Ada Example second");
  });

  it("refuses to commit when nothing is staged", async () => {
    const r = await h.run(gitWriteTool, { action: "commit", message: "empty" });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("nothing is staged");
  });

  it("refuses a switch in a dirty tree and leaves the changes", async () => {
    git("branch", "other");
    write("a.txt", "unsaved work\n");
    const r = await h.run(gitWriteTool, { action: "checkout", branch: "other" });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("uncommitted changes (a.txt)");
    expect(git("rev-parse", "--abbrev-ref", "HEAD").trim()).toBe("main");
    expect(git("diff").toString()).toContain("+unsaved work");
  });

  it("switches, creating a branch, in a clean tree; stash and stash_pop round-trip", async () => {
    expect((await h.run(gitWriteTool, { action: "switch", branch: "feature", create: true })).text).toContain("On branch feature");
    write("a.txt", "wip\n");
    expect((await h.run(gitWriteTool, { action: "stash", message: "wip" })).text).toContain("The working tree is clean.");
    expect((await h.run(gitWriteTool, { action: "stash_pop" })).text).toContain(".M a.txt");
  });

  it("says in its title exactly what it will run, and what restore discards", () => {
    expect(gitWriteTool.title({ action: "commit", message: "fix the thing" })).toBe('git commit -m "fix the thing"');
    expect(gitWriteTool.title({ action: "restore", paths: ["a.txt"] })).toBe("git restore -- a.txt (discards the uncommitted changes of these files)");
  });

  it("offers no push, and nothing that rewrites history", () => {
    const actions = (gitWriteTool.inputSchema as any).properties.action.enum as string[];
    expect(actions).toEqual(["add", "commit", "switch", "checkout", "stash", "stash_pop", "restore"]);
    for (const bad of ["push", "reset", "rebase", "amend"]) expect(actions).not.toContain(bad);
  });
});
