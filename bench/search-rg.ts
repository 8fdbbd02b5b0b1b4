/**
 * search_files beside ripgrep: the tool (rg finding the candidate files) on a 10,000-file tree,
 * beside `rg -n` alone on the same tree and beside the tool's in-process engine (rg taken off
 * PATH), interleaved in the same run. Ratios are what to compare across runs; the load average is
 * printed because the machine is shared.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { searchFilesTool } from "../server/src/tools/files/search-files.js";
import { findRipgrep } from "../server/src/workspace/ripgrep.js";
import { project, writeSearchTree } from "./files.js";
import { median, time } from "./stats.js";

/** search_files with rg, rg alone, and search_files in process: medians of 7, interleaved. */
export async function benchSearchRg(): Promise<string[]> {
  const rg = findRipgrep();
  if (!rg) return ["search_rg.skipped 1 (rg not on PATH)"];
  const { root, ctx } = project("agent-lsp-bench-rg-");
  const savedPath = process.env.PATH;
  const noRg = mkdtempSync(path.join(tmpdir(), "agent-lsp-bench-no-rg-"));
  try {
    // 10 packages × 20 modules × 50 files of 30 lines; every 250th file holds the needle.
    writeSearchTree(root, 10, 250);
    const regex = "TODO: needle";
    const tool = async () => {
      const r = await searchFilesTool.execute({ regex }, ctx);
      if (r.isError || !JSON.stringify(r.content).includes("Found 40 matches")) throw new Error(`search_files: ${JSON.stringify(r.content)}`);
    };
    const rgAlone = () => {
      const r = spawnSync(rg, ["-n", regex, root], { maxBuffer: 1 << 26 });
      if (r.status !== 0) throw new Error(`rg exited ${r.status}`);
    };
    const inProcess = async () => {
      process.env.PATH = noRg;
      try {
        await tool();
      } finally {
        process.env.PATH = savedPath;
      }
    };
    // One untimed pass each, so all read from a warm page cache.
    await tool();
    rgAlone();
    await inProcess();
    const withRg: number[] = [];
    const alone: number[] = [];
    const builtin: number[] = [];
    for (let i = 0; i < 7; i++) {
      withRg.push(await time(tool));
      alone.push(await time(rgAlone));
      builtin.push(await time(inProcess));
    }
    const [ours, rgMs, inMs] = [median(withRg), median(alone), median(builtin)];
    return [
      `search_rg.search_files_10k ${ours.toFixed(1)} ms`,
      `search_rg.rg_alone_10k ${rgMs.toFixed(1)} ms`,
      `search_rg.in_process_10k ${inMs.toFixed(1)} ms`,
      `search_rg.search_files_vs_rg ${(ours / rgMs).toFixed(2)} x`,
      `search_rg.search_files_vs_in_process ${(ours / inMs).toFixed(2)} x`,
      `search_rg.load_average ${loadavg()[0]!.toFixed(2)}`,
    ];
  } finally {
    process.env.PATH = savedPath;
    rmSync(root, { recursive: true, force: true });
    rmSync(noRg, { recursive: true, force: true });
  }
}

// Run directly: `npx tsx bench/search-rg.ts`.
if (import.meta.url === `file://${process.argv[1]}`) {
  for (const line of await benchSearchRg()) console.log(line);
}
