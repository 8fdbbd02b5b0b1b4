/**
 * File-tool benchmarks, run through the real tool layer (defineTool, Workspace, atomic writes)
 * with the fake editor and no LSP: edit_file on a 10 MB file, apply_patch of 1,000 hunks over
 * 100 files, and search_files over a 50,000-file tree beside grep -rn (and rg when installed) on
 * the same tree in the same run. Fixtures are generated in a temp folder and removed after.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { applyPatchTool } from "../server/src/tools/files/apply-patch.js";
import { editFileTool } from "../server/src/tools/files/edit-file.js";
import { searchFilesTool } from "../server/src/tools/files/search-files.js";
import type { Capability, ToolContext } from "../server/src/tools/types.js";
import { Workspace } from "../server/src/workspace/workspace.js";
import { FakeEditor } from "../test/helpers/fake-editor.js";
import { median } from "./stats.js";

/** A temp project root and a tool context over it. */
export function project(prefix: string): { root: string; ctx: ToolContext } {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), prefix)));
  const editor = new FakeEditor();
  const ctx: ToolContext = {
    workspace: new Workspace(root, editor),
    editor,
    sessionId: "bench",
    toolCallId: "bench",
    signal: new AbortController().signal,
    outputBudget: 100_000,
    authorize: async () => ({ allowed: true }),
    progress: () => undefined,
    emit: () => undefined,
    services: {},
  };
  return { root, ctx };
}

/** Runs a tool and fails loudly if it reports an error (a fast failure is no benchmark). */
async function timed(tool: Capability, input: unknown, ctx: ToolContext): Promise<number> {
  const t0 = performance.now();
  const result = await tool.execute(input, ctx);
  const ms = performance.now() - t0;
  if (result.isError) throw new Error(`${tool.name} failed: ${JSON.stringify(result.content)}`);
  return ms;
}

/** edit_file on a 10 MB file whose one match is near the end: median of 5. */
async function benchEditFile(): Promise<string[]> {
  const { root, ctx } = project("agent-lsp-bench-edit-");
  try {
    // About 10 MB; the one match is 10 lines before the end.
    const count = 183_000;
    const near = count - 10;
    const lines = Array.from({ length: count }, (_, i) => `const value${i} = compute(${i}); // padding for size`);
    writeFileSync(path.join(root, "big.ts"), `${lines.join("\n")}\n`);
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const from = i % 2 ? `value${near} = compute(-1)` : `value${near} = compute(${near})`;
      const to = i % 2 ? `value${near} = compute(${near})` : `value${near} = compute(-1)`;
      times.push(await timed(editFileTool, { path: "big.ts", target_content: from, replacement_content: to }, ctx));
    }
    const mb = readFileSync(path.join(root, "big.ts")).length / 1e6;
    return [`files.edit_file_10mb ${median(times).toFixed(1)} ms`, `files.edit_file_size ${mb.toFixed(1)} MB`];
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** 100 files of 200 lines, and a unified diff changing 10 separate lines in each. */
function writePatchFixture(root: string): string {
  const parts: string[] = [];
  for (let f = 0; f < 100; f++) {
    const lines = Array.from({ length: 200 }, (_, i) => `file ${f} line ${i} some text`);
    writeFileSync(path.join(root, `f${f}.txt`), `${lines.join("\n")}\n`);
    parts.push(`--- a/f${f}.txt`, `+++ b/f${f}.txt`);
    for (let h = 0; h < 10; h++) {
      const at = 10 + h * 18;
      parts.push(`@@ -${at},3 +${at},3 @@`, ` ${lines[at - 1]}`, `-${lines[at]}`, `+${lines[at]} changed`, ` ${lines[at + 1]}`);
    }
  }
  return `${parts.join("\n")}\n`;
}

/** apply_patch of 1,000 hunks over 100 files: median of 3 fresh fixtures. */
async function benchApplyPatch(): Promise<string[]> {
  const times: number[] = [];
  for (let run = 0; run < 3; run++) {
    const { root, ctx } = project("agent-lsp-bench-patch-");
    try {
      const patch = writePatchFixture(root);
      times.push(await timed(applyPatchTool, { patch }, ctx));
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }
  return [`files.apply_patch_1000_hunks_100_files ${median(times).toFixed(1)} ms`];
}

/** `packages` × 20 folders × 50 source files (50,000 by default); every `every`th holds the needle. */
export function writeSearchTree(root: string, packages = 50, every = 1000): void {
  let n = 0;
  for (let a = 0; a < packages; a++) {
    for (let b = 0; b < 20; b++) {
      const dir = path.join(root, `pkg${a}`, `mod${b}`);
      mkdirSync(dir, { recursive: true });
      for (let c = 0; c < 50; c++) {
        n++;
        const body = Array.from({ length: 30 }, (_, i) => `export function fn${n}_${i}(x: number): number { return x * ${i}; }`);
        if (n % every === 0) body.push("// TODO: needle here");
        writeFileSync(path.join(dir, `file${c}.ts`), `${body.join("\n")}\n`);
      }
    }
  }
}

/** Milliseconds of an external command (median of 3), or undefined when it is not installed. */
function timeCommand(cmd: string, args: string[]): number | undefined {
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    const r = spawnSync(cmd, args, { maxBuffer: 1 << 26 });
    if (r.error) return undefined;
    times.push(performance.now() - t0);
  }
  return median(times);
}

/** search_files beside grep -rn (and rg) on the same 50,000-file tree. */
async function benchSearch(): Promise<string[]> {
  const { root, ctx } = project("agent-lsp-bench-search-");
  try {
    writeSearchTree(root);
    const regex = "TODO: needle";
    // One untimed pass each, so all three read from a warm page cache.
    await timed(searchFilesTool, { regex }, ctx);
    timeCommand("grep", ["-rn", regex, root]);
    const ours: number[] = [];
    for (let i = 0; i < 3; i++) ours.push(await timed(searchFilesTool, { regex }, ctx));
    const grep = timeCommand("grep", ["-rn", regex, root])!;
    const rg = timeCommand("rg", ["-n", regex, root]);
    const ms = median(ours);
    const out = [
      `files.search_files_50k ${ms.toFixed(0)} ms`,
      `files.grep_rn_50k ${grep.toFixed(0)} ms`,
      `files.search_files_vs_grep ${(ms / grep).toFixed(2)} x`,
    ];
    if (rg !== undefined) out.push(`files.rg_50k ${rg.toFixed(0)} ms`);
    return out;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** Every file benchmark, as `name value unit` lines. */
export async function benchFiles(): Promise<string[]> {
  return [...(await benchEditFile()), ...(await benchApplyPatch()), ...(await benchSearch())];
}

// Run directly: `npx tsx bench/files.ts`.
if (import.meta.url === `file://${process.argv[1]}`) {
  for (const line of await benchFiles()) console.log(line);
}
