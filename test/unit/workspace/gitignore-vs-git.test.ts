/**
 * The walk behind list_files and search_files leaves out exactly what git ignores. Each row is a
 * real temporary git repository: its .gitignore files (and .git/info/exclude) and a set of files;
 * the paths `git check-ignore` calls ignored must be the ones the walk does not visit, and every
 * other path must be visited.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { walk } from "../../../server/src/workspace/walk.js";

const hasGit = spawnSync("git", ["--version"]).status === 0;

let root: string | undefined;
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

interface Row {
  name: string;
  /** Ignore files by path (`.gitignore`, `sub/.gitignore`, `.git/info/exclude`). */
  rules: Record<string, string>;
  /** Files to create; their folders are created and checked too. */
  files: string[];
}

/** A git repository holding `rules` and `files`. */
function makeRepo(row: Row): string {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), "agent-lsp-gitignore-")));
  execFileSync("git", ["init", "-q", dir]);
  for (const [file, text] of Object.entries(row.rules)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  for (const file of row.files) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), "x\n");
  }
  return dir;
}

/** Every file and folder of the row (folders with a trailing `/`), ignore files excluded. */
function pathsOf(row: Row): string[] {
  const all = new Set<string>();
  for (const file of row.files) {
    const parts = file.split("/");
    for (let i = 1; i < parts.length; i++) all.add(`${parts.slice(0, i).join("/")}/`);
    all.add(file);
  }
  return [...all].sort();
}

/** The paths git ignores, asked in one `git check-ignore` call. */
function gitIgnored(dir: string, paths: string[]): string[] {
  // Exit status 1 means "none ignored", which is an answer too.
  const r = spawnSync("git", ["-C", dir, "check-ignore", "--no-index", "--stdin", "-z"], { input: paths.map((p) => p.replace(/\/$/, "")).join("\0") });
  if (r.status !== 0 && r.status !== 1) throw new Error(`git check-ignore failed: ${r.stderr}`);
  const ignored = new Set(r.stdout.toString().split("\0").filter(Boolean));
  return paths.filter((p) => ignored.has(p.replace(/\/$/, "")));
}

/** The paths the walk does not visit. */
async function walkIgnored(dir: string, paths: string[]): Promise<string[]> {
  const seen = new Set<string>();
  await walk({ base: dir, start: dir, recursive: true }, (e) => void seen.add(e.isDir ? `${e.rel}/` : e.rel));
  return paths.filter((p) => !seen.has(p));
}

const rows: Row[] = [
  {
    name: "a file re-included under an excluded folder stays ignored; under folder/* it comes back",
    rules: { ".gitignore": "build/\n!build/keep.txt\nlogs/*\n!logs/keep.log\n" },
    files: ["build/keep.txt", "build/out.js", "logs/keep.log", "logs/a.log", "src/build/x.txt"],
  },
  {
    name: "** at the start, in the middle and at the end",
    rules: { ".gitignore": "**/cache\na/**/b\ndocs/**\n**/gen/*.js\n" },
    files: ["cache/x", "p/q/cache/y", "a/b", "a/x/b", "a/x/y/b", "ab/b", "docs/one.md", "docs/deep/two.md", "gen/a.js", "m/gen/b.js", "m/gen/c.ts"],
  },
  {
    name: "trailing spaces are dropped unless escaped",
    rules: { ".gitignore": "secret   \nspace\\ \n" },
    files: ["secret", "space ", "space"],
  },
  {
    name: "escaped # and ! are literal, a # line is a comment",
    rules: { ".gitignore": "#comment\n\\#notes\n\\!bang\n" },
    files: ["#comment", "#notes", "!bang", "bang"],
  },
  {
    name: "character classes, negated classes and ranges",
    rules: { ".gitignore": "*.py[co]\n[Tt]emp/\nfile[0-9].txt\n[!a]x.txt\nlog[^s].txt\n" },
    files: ["m.pyc", "m.pyo", "m.py", "Temp/a", "temp/b", "TEMP/c", "file1.txt", "filex.txt", "ax.txt", "bx.txt", "logs.txt", "logx.txt"],
  },
  {
    name: "nested .gitignore files: local rules, anchoring to their folder, and re-including what the root ignores",
    rules: {
      ".gitignore": "*.tmp\n/top.txt\n",
      "sub/.gitignore": "!important.tmp\n/local.txt\nonly-here/\n",
      "sub/deeper/.gitignore": "*.md\n!keep.md\n",
    },
    files: ["a.tmp", "sub/a.tmp", "sub/important.tmp", "important.tmp", "top.txt", "sub/top.txt", "sub/local.txt", "sub/x/local.txt", "sub/only-here/f", "only-here/f", "sub/deeper/a.md", "sub/deeper/keep.md", "sub/b.md"],
  },
  {
    name: "a folder-only pattern skips a file of that name; a slash in the middle anchors",
    rules: { ".gitignore": "out/\ndoc/frotz\n" },
    files: ["out/a", "x/out/b", "y/out", "doc/frotz", "a/doc/frotz"],
  },
  {
    name: "ignore everything but folders and .ts files",
    rules: { ".gitignore": "*\n!*/\n!*.ts\n!.gitignore\n" },
    files: ["a.ts", "a.js", "src/b.ts", "src/b.md", "src/deep/c.ts", "src/deep/c.json"],
  },
  {
    name: "case matters, ? is one character, * stays within a folder",
    rules: { ".gitignore": "*.LOG\nfile?.c\nfoo/*.txt\n" },
    files: ["a.log", "b.LOG", "file1.c", "file12.c", "foo/a.txt", "foo/bar/b.txt"],
  },
  {
    name: ".git/info/exclude, overridden by a .gitignore negation",
    rules: { ".git/info/exclude": "*.bak\nsecret/\n", ".gitignore": "!keep.bak\n" },
    files: ["a.bak", "keep.bak", "secret/key", "plain.txt"],
  },
  {
    name: "the last matching rule wins within a file, and a folder excluded by a later rule hides re-included files",
    rules: { ".gitignore": "*.txt\n!*.txt\nnot-this.txt\ndata/\n!data/a.txt\n" },
    files: ["a.txt", "not-this.txt", "data/a.txt", "data/b.txt"],
  },
  {
    name: "leading spaces are part of the pattern, and so is a # after them",
    rules: { ".gitignore": " lead\n #hash\n" },
    files: [" lead", "lead", " #hash", "#hash"],
  },
  {
    name: "CRLF .gitignore files",
    rules: { ".gitignore": "*.log\r\n!keep.log\r\nbin/\r\n" },
    files: ["a.log", "keep.log", "bin/x", "bin.txt"],
  },
  {
    name: "** next to other characters is one *, and dot files match *",
    rules: { ".gitignore": "a**z\n**.cfg\n.*\n!.keep\n" },
    files: ["abcz", "a/b/z", "x.cfg", "d/y.cfg", ".env", "d/.hidden", ".keep"],
  },
  {
    name: "classes with ] and - inside, and escapes in patterns",
    rules: { ".gitignore": "[]]x\n[a-]y\n\\z\nq\\*\n" },
    files: ["]x", "ax", "ay", "-y", "by", "z", "q*", "qq"],
  },
  {
    name: "a folder pattern ending in /** and one with **/ inside a folder's own .gitignore",
    rules: { ".gitignore": "vendor/**\n", "pkg/.gitignore": "**/tmp/\n/**/*.o\n" },
    files: ["vendor/a", "vendor/b/c", "pkg/tmp/a", "pkg/x/tmp/b", "tmp/c", "pkg/a.o", "pkg/x/b.o", "c.o"],
  },
];

describe.skipIf(!hasGit)("the walk's .gitignore handling against git check-ignore", () => {
  it.each(rows)("$name", async (row) => {
    root = makeRepo(row);
    const paths = pathsOf(row);
    const git = gitIgnored(root, paths);
    // A row in which git ignores nothing, or everything, would not tell two matchers apart.
    expect(git.length).toBeGreaterThan(0);
    expect(git.length).toBeLessThan(paths.length);
    expect(await walkIgnored(root, paths)).toEqual(git);
  });
});
