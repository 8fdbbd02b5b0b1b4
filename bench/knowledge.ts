/**
 * Project knowledge is read afresh at every turn (rule files and skills, so edits count at the
 * next turn): its cost per turn in a project with a large AGENTS.md, nested AGENTS.md files, five
 * rule files and 30 skills of 6 files each, against a baseline measured in the same run that
 * lists the same folders and reads the same .md files with plain fs calls (what any refresh must
 * do). Target: at most 5 ms a turn, and a ratio under 2.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { loadProjectKnowledge } from "../server/src/knowledge/project-knowledge.js";
import { tempProject } from "../test/helpers/agent-setup.js";
import { median } from "./stats.js";

const ROUNDS = 50;

function writeProject(root: string, userDir: string): string {
  const put = (file: string, text: string) => {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  };
  put(path.join(root, "AGENTS.md"), "Use tabs. Write tests first.\n".repeat(300));
  put(path.join(userDir, "AGENTS.md"), "Be brief.\n".repeat(50));
  for (const dir of ["packages", "packages/core", "packages/core/src"]) put(path.join(root, dir, "AGENTS.md"), `Rules of ${dir}.\n`.repeat(40));
  for (let r = 0; r < 5; r++) put(path.join(root, ".agent-lsp", "rules", `rule${r}.md`), `Rule ${r}.\n`.repeat(60));
  for (let s = 0; s < 30; s++) {
    const dir = path.join(root, s % 2 ? ".agents" : ".agent-lsp", "skills", `skill${s}`);
    put(path.join(dir, "SKILL.md"), `---\nname: skill${s}\ndescription: Does thing ${s}\nallowed_tools: [read_file, git_read]\n---\n${"Step.\n".repeat(100)}`);
    for (let f = 0; f < 5; f++) put(path.join(dir, "scripts", `s${f}.sh`), "echo step\n".repeat(50));
  }
  return path.join(root, "packages", "core", "src", "index.ts");
}

/** Every folder under `dir` listed and every .md file read whole: the least a refresh must do. */
function readAll(dir: string): number {
  let bytes = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) bytes += readAll(p);
    else if (e.name.endsWith(".md")) bytes += readFileSync(p).length;
  }
  return bytes;
}

/** Median ms of `fn` over ROUNDS after one warm-up. */
function time(fn: () => unknown): number {
  fn();
  const runs: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const start = process.hrtime.bigint();
    fn();
    runs.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return median(runs);
}

/** The per-turn knowledge refresh against reading the same bytes. */
export async function benchKnowledge(): Promise<string[]> {
  const base = tempProject("agent-lsp-bench-knowledge-");
  const root = path.join(base, "project");
  const userDir = path.join(base, "config");
  try {
    const focusFile = writeProject(root, userDir);
    const refresh = time(() => loadProjectKnowledge({ root, userDir, focusFile, budgetTokens: 8000 }));
    const baseline = time(() => readAll(root) + readAll(userDir));
    return [`knowledge_refresh_per_turn ${refresh.toFixed(2)} ms (target <= 5)`, `knowledge_refresh_ratio ${(refresh / baseline).toFixed(2)} x (target < 2; baseline: listing the folders and reading the .md files, ${baseline.toFixed(2)} ms)`];
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}
