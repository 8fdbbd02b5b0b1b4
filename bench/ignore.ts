/**
 * .gitignore and glob benchmarks: the cost of ignore rules and file globs when walking a tree.
 * A 20,000-file tree with a root .gitignore of common rules (negation, `**`, classes, anchored
 * and folder-only patterns) and one .gitignore per package is walked (every file, as
 * list_files and search_files walk), and searched with a file glob; a plain recursive readdir of
 * the same tree, measured in the same run, is the baseline.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { searchFilesTool } from "../server/src/tools/files/search-files.js";
import { fileGlobMatcher } from "../server/src/workspace/glob.js";
import { walk } from "../server/src/workspace/walk.js";
import { project } from "./files.js";
import { median } from "./stats.js";

const ROOT_GITIGNORE = [
  "# build output",
  "dist/",
  "build/",
  "/coverage",
  "*.log",
  "!important.log",
  "*.tmp",
  "*.min.js",
  "**/generated/**",
  ".env*",
  "!.env.example",
  "[Tt]emp/",
  "*~",
  "\\#*#",
  "docs/_build/",
  "*.py[cod]",
  "__pycache__/",
  ".DS_Store",
  "*.swp",
  "npm-debug.log*",
].join("\n");

const PACKAGE_GITIGNORE = ["*.snap", "!keep.snap", "fixtures/big-*", "/local/"].join("\n");

/** 40 packages x 10 modules x 50 files, plus folders the rules exclude (never entered). */
function writeTree(root: string): number {
  writeFileSync(path.join(root, ".gitignore"), `${ROOT_GITIGNORE}\n`);
  let files = 0;
  for (let p = 0; p < 40; p++) {
    const pkg = path.join(root, `pkg${p}`);
    mkdirSync(path.join(pkg, "dist"), { recursive: true });
    writeFileSync(path.join(pkg, ".gitignore"), `${PACKAGE_GITIGNORE}\n`);
    for (let d = 0; d < 20; d++) writeFileSync(path.join(pkg, "dist", `out${d}.js`), "x\n");
    for (let m = 0; m < 10; m++) {
      const dir = path.join(pkg, "src", `mod${m}`);
      mkdirSync(dir, { recursive: true });
      for (let c = 0; c < 50; c++) {
        const name = c < 40 ? `file${c}.ts` : c < 44 ? `trace${c}.log` : c < 46 ? `lib${c}.min.js` : c < 48 ? `case${c}.snap` : c === 48 ? "important.log" : "keep.snap";
        writeFileSync(path.join(dir, name), c === 7 && m === 3 ? "// needle\n" : "export {};\n");
        files++;
      }
    }
  }
  return files;
}

/** Every file below `dir` by plain readdir: what a walk costs without any rule. */
function readdirAll(dir: string): number {
  let n = 0;
  for (const d of readdirSync(dir, { withFileTypes: true })) {
    n += d.isDirectory() ? readdirAll(path.join(dir, d.name)) : 1;
  }
  return n;
}

async function timeIt(run: () => unknown | Promise<unknown>, times: number): Promise<number> {
  const ms: number[] = [];
  for (let i = 0; i < times; i++) {
    const t0 = performance.now();
    await run();
    ms.push(performance.now() - t0);
  }
  return median(ms);
}

/** Paths like the tree's, made once so that only the matching is timed. */
const GLOB_PATHS = Array.from({ length: 100_000 }, (_, i) => `pkg${i % 40}/src/mod${i % 10}/file${i}.${i % 3 ? "ts" : "js"}`);

/** Compiling two tool globs and matching 100,000 paths against each (the walk's own cost aside). */
async function globMatching(): Promise<number> {
  let hits = 0;
  for (const glob of ["src/**/*.{ts,tsx}", "*.ts"]) {
    const match = await fileGlobMatcher(glob);
    for (const p of GLOB_PATHS) if (match(p)) hits++;
  }
  return hits;
}

/** The walk with .gitignore rules, search_files with a glob, glob matching, and the readdir baseline. */
export async function benchIgnore(): Promise<string[]> {
  const { root, ctx } = project("agent-lsp-bench-ignore-");
  try {
    writeTree(root);
    let kept = 0;
    const walkAll = () => walk({ base: root, start: root, recursive: true }, () => void kept++);
    const search = async () => {
      const r = await searchFilesTool.execute({ regex: "needle", file_pattern: "src/**/*.{ts,tsx}", path: "pkg3" }, ctx);
      if (r.isError) throw new Error(`search_files failed: ${JSON.stringify(r.content)}`);
    };
    // Warm the page cache and the JIT once each.
    readdirAll(root);
    await walkAll();
    await search();
    const base = await timeIt(() => readdirAll(root), 5);
    kept = 0;
    const walked = await timeIt(walkAll, 5);
    const entries = kept / 5;
    const searched = await timeIt(search, 5);
    await globMatching();
    const globbed = await timeIt(globMatching, 5);
    return [
      `ignore.walk_gitignore_20k ${walked.toFixed(1)} ms`,
      `ignore.walk_entries ${entries} entries`,
      `ignore.readdir_baseline_20k ${base.toFixed(1)} ms`,
      `ignore.walk_vs_readdir ${(walked / base).toFixed(2)} x`,
      `ignore.search_files_glob_pkg ${searched.toFixed(1)} ms`,
      `ignore.glob_match_2x100k ${globbed.toFixed(1)} ms`,
    ];
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

// Run directly: `npx tsx bench/ignore.ts`.
if (import.meta.url === `file://${process.argv[1]}`) {
  for (const line of await benchIgnore()) console.log(line);
}
