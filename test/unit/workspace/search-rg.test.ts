/**
 * search_files beside ripgrep: the same searches through both engines on one tree give the same
 * result (ignored, hidden, binary and linked files, unsaved buffers, case, context, limits), and
 * the in-process engine runs when rg is missing, fails or cannot take the pattern.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { searchFilesTool } from "../../../server/src/tools/files/search-files.js";
import { findRipgrep } from "../../../server/src/workspace/ripgrep.js";
import { searchFiles, searchInProcess, type SearchOptions, type SearchOutcome } from "../../../server/src/workspace/search.js";
import { searchWithRipgrep } from "../../../server/src/workspace/search-rg.js";
import { makeHarness, type ToolHarness } from "../tools/context.js";

let root: string;
let outside: string;

/** Writes `files` (relative path → content) below `dir`. */
function write(dir: string, files: Record<string, string | Buffer>): void {
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), content);
  }
}

/** A project with every kind of file the two engines could disagree on. */
function makeTree(dir: string): void {
  write(dir, {
    ".git/info/exclude": "excluded.txt\n",
    ".gitignore": "ignored.txt\nbuild/\n*.log\n!keep.log\n",
    ".ignore": "dotignored.txt\n",
    "needle.txt": "one needle\ntwo\nthree needle\nfour\nfive\nsix needle\n",
    "Upper.txt": "A NEEDLE shouting\n",
    "_under.txt": "needle under\n",
    "ignored.txt": "needle ignored\n",
    "excluded.txt": "needle excluded\n",
    "dotignored.txt": "needle in a file only .ignore names\n",
    "build/out.js": "needle built\n",
    "debug.log": "needle log\n",
    "keep.log": "needle kept\n",
    ".hidden/h.txt": "needle hidden\n",
    "node_modules/pkg/i.js": "needle module\n",
    "bin.dat": Buffer.from("needle\0binary\n"),
    "late-nul.txt": Buffer.concat([Buffer.from("needle early\n"), Buffer.alloc(9000, 0x61), Buffer.from("\0\n")]),
    "crlf.txt": "needle\r\nneedle end\r\n",
    "sub/.gitignore": "local.txt\n",
    "sub/local.txt": "needle local\n",
    "sub/a.ts": "const needle = 1;\nlet x = needle + needle;\n",
    "sub/deep/b/c.ts": "// needle deep\n",
    "sub/B.ts": "needle capital\n",
    "open.txt": "nothing on disk\n",
    "many.txt": Array.from({ length: 250 }, (_, i) => `needle ${i}`).join("\n"),
    "digits.txt": "abc 123 def\n",
  });
  symlinkSync("needle.txt", path.join(dir, "link.txt"));
  symlinkSync("sub", path.join(dir, "linkdir"));
  symlinkSync(path.join(outside, "secret.txt"), path.join(dir, "out.txt"));
}

/** The buffers the editor has: over a file, new, and in places the walk does not go. */
function overlay(): Map<string, string> {
  return new Map([
    [path.join(root, "open.txt"), "unsaved needle\n"],
    [path.join(root, "sub/new.ts"), "needle not saved yet\n"],
    [path.join(root, "ignored.txt"), "needle in an ignored buffer\n"],
    [path.join(root, "node_modules/pkg/i.js"), "needle in an open module\n"],
    [path.join(root, "linkdir/a.ts"), "needle through a linked folder\n"],
    [path.join(root, ".hidden/h.txt"), "needle hidden and open\n"],
  ]);
}

/** Options for one search. */
function opts(regex: string, extra: Partial<SearchOptions> = {}): SearchOptions {
  const insensitive = regex.startsWith("(?i)");
  return {
    base: root,
    start: root,
    regex: new RegExp(insensitive ? regex.slice(4) : regex, insensitive ? "iu" : "u"),
    overlay: overlay(),
    maxMatches: 300,
    context: 1,
    ...extra,
  };
}

/** The outcome as the tool shows it (the files-searched count is shown only without matches). */
function shown(out: SearchOutcome): unknown {
  return out.matches ? { ...out, filesSearched: undefined } : out;
}

beforeAll(() => {
  expect(findRipgrep(), "rg must be installed (apt-get install ripgrep)").toBeDefined();
  outside = realpathSync(mkdtempSync(path.join(tmpdir(), "agent-lsp-rg-out-")));
  writeFileSync(path.join(outside, "secret.txt"), "needle secret\n");
  root = realpathSync(mkdtempSync(path.join(tmpdir(), "agent-lsp-rg-")));
  makeTree(root);
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

const cases: [string, () => SearchOptions][] = [
  ["a literal over the whole tree", () => opts("needle")],
  ["case-insensitive", () => opts("(?i)needle")],
  ["a line end before CRLF", () => opts("needle$")],
  ["a regex around a literal", () => opts("ne+dle \\d+")],
  ["no match: the count of files searched", () => opts("zebra-unicorn")],
  ["past the limit of a larger one", () => opts("needle", { maxMatches: 10_000 })],
  ["the match limit", () => opts("needle", { maxMatches: 7 })],
  ["no context lines", () => opts("needle", { context: 0 })],
  ["two lines of context", () => opts("needle", { context: 2 })],
  ["a subfolder under the root's .gitignore", () => opts("needle", { start: path.join(root, "sub") })],
  ["a file filter", () => opts("needle", { filter: (rel) => rel.endsWith(".ts") })],
  ["no open buffers", () => opts("needle", { overlay: new Map() })],
];

describe("search_files beside ripgrep", () => {
  it.each(cases)("%s: both engines agree", async (_name, make) => {
    const viaRg = await searchWithRipgrep(make());
    expect(viaRg, "rg took the search").toBeDefined();
    const inProcess = await searchInProcess(make());
    expect(shown(viaRg!)).toEqual(shown(inProcess));
  });

  it("the tree exercises what it should (so agreement means something)", async () => {
    const out = await searchInProcess(opts("needle", { maxMatches: 10_000 }));
    const rels = out.files.map((f) => f.rel);
    expect(rels).toEqual(expect.arrayContaining(["open.txt", "sub/new.ts", "link.txt", ".hidden/h.txt", "keep.log", "late-nul.txt", "dotignored.txt"]));
    for (const gone of ["ignored.txt", "excluded.txt", "debug.log", "build/out.js", "node_modules/pkg/i.js", "bin.dat", "out.txt", "sub/local.txt", "linkdir/a.ts"]) {
      expect(rels).not.toContain(gone);
    }
  });

  it("falls back for a pattern with no literal text rg could look for", async () => {
    expect(await searchWithRipgrep(opts("\\d{3}\\s\\w"))).toBeUndefined();
    expect((await searchFiles(opts("\\d{3}\\s\\w"))).files.map((f) => f.rel)).toEqual(["digits.txt"]);
  });
});

describe("a project root below a folder with its own .gitignore (not the project's)", () => {
  let parent: string;
  beforeAll(() => {
    parent = realpathSync(mkdtempSync(path.join(tmpdir(), "agent-lsp-rg-parent-")));
    write(parent, { ".gitignore": "*.md\n", "proj/notes.md": "needle in markdown\n", "proj/sub/more.md": "needle\n" });
  });
  afterAll(() => rmSync(parent, { recursive: true, force: true }));

  it("searches the root the same way (rg reads no .gitignore above it)", async () => {
    const base = path.join(parent, "proj");
    const o = (): SearchOptions => ({ ...opts("needle"), base, start: base, overlay: new Map() });
    const viaRg = await searchWithRipgrep(o());
    expect(viaRg?.files.map((f) => f.rel)).toEqual(["notes.md", "sub/more.md"]);
    expect(viaRg).toEqual(await searchInProcess(o()));
  });

  it("leaves a subfolder to the in-process engine (rg would read the folder's .gitignore above the root)", async () => {
    const base = path.join(parent, "proj");
    const o = (): SearchOptions => ({ ...opts("needle"), base, start: path.join(base, "sub"), overlay: new Map() });
    expect(await searchWithRipgrep(o())).toBeUndefined();
    expect((await searchFiles(o())).files.map((f) => f.rel)).toEqual(["sub/more.md"]);
  });
});

describe("the in-process engine when rg is not there or fails", () => {
  const savedPath = process.env.PATH;
  let h: ToolHarness | undefined;
  afterEach(() => {
    process.env.PATH = savedPath;
    h?.dispose();
  });

  it("runs without rg on PATH and gives the same tool result", async () => {
    h = makeHarness();
    makeTreeWithoutOutsideLink(h.root);
    h.editor.open(path.join(h.root, "open.txt"), "unsaved needle\n");
    const withRg = await h.run(searchFilesTool, { regex: "needle" });
    process.env.PATH = mkdtempSync(path.join(tmpdir(), "agent-lsp-no-rg-"));
    expect(findRipgrep()).toBeUndefined();
    expect(await searchWithRipgrep({ ...opts("needle"), base: h.root, start: h.root })).toBeUndefined();
    const without = await h.run(searchFilesTool, { regex: "needle" });
    expect(without.text).toBe(withRg.text);
    expect(without.text).toContain("unsaved needle");
  });

  it("falls back when rg fails (a link loop it refuses)", async () => {
    const loop = realpathSync(mkdtempSync(path.join(tmpdir(), "agent-lsp-rg-loop-")));
    try {
      write(loop, { "a/x.txt": "needle\n" });
      symlinkSync("..", path.join(loop, "a/up"));
      const o = { ...opts("needle"), base: loop, start: loop, overlay: new Map<string, string>() };
      expect(await searchWithRipgrep(o)).toBeUndefined();
      expect((await searchFiles(o)).files.map((f) => f.rel)).toEqual(["a/x.txt"]);
    } finally {
      rmSync(loop, { recursive: true, force: true });
    }
  });
});

/** The tree for a harness project (its own temp folder). */
function makeTreeWithoutOutsideLink(dir: string): void {
  write(dir, { ".gitignore": "ignored.txt\n", "ignored.txt": "needle\n", "a/b.txt": "x needle\n", "open.txt": "on disk\n" });
}
