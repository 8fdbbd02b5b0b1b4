/**
 * find_references through the editor against the toy language server's own time (issue 17:
 * the round trip through the editor adds under 10 ms). Two legs, each beside its baseline in the
 * same run, interleaved:
 *  - agent-lsp's hop: `agent/languageService` from the server's language service over a real LSP
 *    connection to a client that passes it to the toy server, against asking the toy server
 *    straight from the same process;
 *  - Neovim's share: the plugin's handler in headless Neovim (finding the servers, sending,
 *    waiting, merging), against the same request sent straight to the toy client there.
 * The added time is the sum of the two legs' differences.
 */
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createRuntime } from "../server/src/agent/runtime.js";
import type { Editor } from "../server/src/editor/editor.js";
import { LANGUAGE_SERVICE_METHODS } from "../server/src/protocol/method-names.js";
import { tempProject } from "../test/helpers/agent-setup.js";
import { defaultCapabilities } from "../test/helpers/lsp-client.js";
import { startLspPair } from "../test/helpers/lsp-pair.js";
import { startToyServer } from "../test/helpers/toy-lsp/toy-server.js";
import { median, time } from "./stats.js";

const RUNS = 60;
const WARMUP = 10;
const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const TARGET_MS = 10;

/** A project of a few toy files, the first of which the requests ask about. */
function toyProject(): { root: string; file: string } {
  const root = tempProject("agent-lsp-bench-lang-");
  const defs = Array.from({ length: 40 }, (_, i) => `def name${i} = greet name${(i + 1) % 40}`).join("\n");
  writeFileSync(path.join(root, "main.toy"), `def greet = name0\n${defs}\n`);
  for (let f = 0; f < 5; f++) writeFileSync(path.join(root, `lib${f}.toy`), Array.from({ length: 40 }, (_, i) => `def lib${f}_${i} = greet`).join("\n"));
  return { root, file: path.join(root, "main.toy") };
}

/** agent-lsp's hop: milliseconds via the editor and direct, medians. */
async function agentHop(root: string, file: string): Promise<{ via: number; direct: number }> {
  const toy = await startToyServer(root);
  let editor: Editor | undefined;
  const pair = await startLspPair({
    root,
    capabilities: { ...defaultCapabilities(), experimental: { agent: { languageService: [...LANGUAGE_SERVICE_METHODS] } } },
    createRuntime: (o) => {
      editor = o.editor;
      return createRuntime(o);
    },
  });
  try {
    pair.client.script.languageService = (p) => toy.serve(p.method, p.params);
    const service = editor!.languageService!;
    const params = { textDocument: { uri: pathToFileURL(file).href }, position: { line: 0, character: 4 }, context: { includeDeclaration: true } };
    const signal = new AbortController().signal;
    const via = async () => {
      const answer = await service.request("textDocument/references", params, signal);
      if (!answer.ok || !Array.isArray(answer.result) || !answer.result.length) throw new Error(`no references: ${JSON.stringify(answer)}`);
    };
    const direct = () => toy.serve("textDocument/references", params);
    const viaMs: number[] = [];
    const directMs: number[] = [];
    for (let i = 0; i < WARMUP + RUNS; i++) {
      const v = await time(via);
      const d = await time(direct);
      if (i >= WARMUP) {
        viaMs.push(v);
        directMs.push(d);
      }
    }
    return { via: median(viaMs), direct: median(directMs) };
  } finally {
    await pair.close();
    await toy.close();
  }
}

/** Neovim's share, or undefined when no Neovim is installed. */
function neovimShare(file: string): { plugin: number; direct: number; nvim: string } | undefined {
  for (const nvim of [process.env.AGENT_LSP_NVIM_TRIXIE ?? path.join(REPO, ".cache/nvim-trixie/bin/nvim"), "/usr/bin/nvim"]) {
    const run = spawnSync(nvim, ["--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", `luafile ${path.join(REPO, "bench/nvim-language.lua")}`], {
      env: { ...process.env, BENCH_REPO: REPO, BENCH_NODE: process.execPath, BENCH_FILE: file },
      encoding: "utf8",
      timeout: 120_000,
    });
    if (run.error) continue;
    const m = /plugin_ms ([\d.]+) direct_ms ([\d.]+)/.exec(run.stderr);
    if (!m) throw new Error(`${nvim}: ${run.stderr}`);
    const version = spawnSync(nvim, ["--version"], { encoding: "utf8" }).stdout.split("\n")[0] ?? nvim;
    return { plugin: Number(m[1]), direct: Number(m[2]), nvim: version };
  }
  return undefined;
}

/** Lines `name value unit`. */
export async function benchLanguage(): Promise<string[]> {
  const { root, file } = toyProject();
  const hop = await agentHop(root, file);
  const lines = [
    `language.references_toy_direct ${hop.direct.toFixed(2)} ms`,
    `language.references_via_agent_hop ${hop.via.toFixed(2)} ms`,
  ];
  const nvim = neovimShare(file);
  let added = hop.via - hop.direct;
  if (nvim) {
    lines.push(`language.nvim_toy_direct ${nvim.direct.toFixed(2)} ms (${nvim.nvim})`, `language.nvim_plugin_handler ${nvim.plugin.toFixed(2)} ms`);
    added += nvim.plugin - nvim.direct;
  } else {
    lines.push("language.nvim skipped: no Neovim installed");
  }
  lines.push(`language.references_added_by_editor ${added.toFixed(2)} ms (target < ${TARGET_MS} ms)`);
  return lines;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const line of await benchLanguage()) process.stdout.write(`${line}\n`);
}
