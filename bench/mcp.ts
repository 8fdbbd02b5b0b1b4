/**
 * MCP benchmarks: the editor's start-up is not slowed by configured servers (they start when a
 * session needs them, and the SDK loads only then), a discovery query over 1,000 tools, and the
 * time from a session's first need to all servers ready beyond the slowest server's own start.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { tempProject } from "../test/helpers/agent-setup.js";
import { EVERYTHING, hostile, mcpConfig, MODERN, nodeServer, testManager } from "../test/helpers/mcp/servers.js";
import { timeInitialize } from "./core.js";
import { median } from "./stats.js";

/** initialize against bare node, with and without MCP servers in the project's config (interleaved). */
export async function initializeRatio(): Promise<string[]> {
  const plain = tempProject("agent-lsp-bench-");
  const withMcp = tempProject("agent-lsp-bench-mcp-");
  mkdirSync(path.join(withMcp, ".agent-lsp"), { recursive: true });
  const servers = Array.from({ length: 5 }, (_, i) => `[mcp_servers.s${i}]\ncommand = "${process.execPath}"\nargs = ["${MODERN}"]\n`).join("\n");
  writeFileSync(path.join(withMcp, ".agent-lsp", "config.toml"), servers);
  writeFileSync(path.join(withMcp, ".mcp.json"), JSON.stringify({ mcpServers: { e: nodeServer(EVERYTHING, "stdio") } }));
  const a: number[] = [];
  const b: number[] = [];
  const node: number[] = [];
  for (let i = 0; i < 8; i++) {
    // One server at a time: a server still running would take CPU from the next one's start.
    const ms: number[] = [];
    for (const project of i % 2 ? [plain, withMcp] : [withMcp, plain]) {
      const run = await timeInitialize(project);
      run.kill();
      ms.push(run.ms);
    }
    if (i % 2 === 0) ms.reverse();
    const t0 = performance.now();
    spawnSync(process.execPath, ["-e", "0"]);
    const bare = performance.now() - t0;
    if (i === 0) continue;
    a.push(ms[0]!);
    b.push(ms[1]!);
    node.push(bare);
  }
  const n = median(node);
  return [`mcp_initialize_ratio_without_servers ${(median(a) / n).toFixed(2)} x`, `mcp_initialize_ratio_with_6_servers ${(median(b) / n).toFixed(2)} x`];
}

/** mcp_tools query and tool_search over a server with 1,000 tools (the index is built once per change). */
async function queryOver1000(): Promise<string[]> {
  const manager = testManager(mcpConfig({ big: hostile("many") }));
  try {
    await manager.ensureStarted({ sessionId: "bench" });
    const tools = manager.tools().length;
    const queries = ["create issue", "list pull request", "webhook", "sec", "delete branch workspace 3", "export release filters", "comm", "sync team"];
    let t0 = performance.now();
    manager.catalog();
    const catalogBuild = performance.now() - t0;
    t0 = performance.now();
    manager.searchDeferred("warm", 5);
    const indexBuild = performance.now() - t0;
    const time = (run: (q: string) => unknown) => {
      const samples: number[] = [];
      for (let round = 0; round < 25; round++) {
        for (const q of queries) {
          const s = performance.now();
          run(q);
          samples.push(performance.now() - s);
        }
      }
      return median(samples);
    };
    const query = time((q) => manager.catalog().search(q, { kind: "all", limit: 5 }));
    const search = time((q) => manager.searchDeferred(q, 5));
    return [
      `mcp_catalog_tools ${tools}`,
      `mcp_tools_query_ms ${query.toFixed(3)} ms`,
      `tool_search_query_ms ${search.toFixed(3)} ms`,
      `mcp_catalog_build_ms ${catalogBuild.toFixed(1)} ms`,
      `tool_search_index_build_ms ${indexBuild.toFixed(1)} ms`,
    ];
  } finally {
    await manager.dispose();
  }
}

/** From a session's first need to every server ready, minus the slowest server's own start time. */
async function allReadyOverhead(): Promise<string[]> {
  const overheads: number[] = [];
  for (let run = 0; run < 5; run++) {
    const manager = testManager(
      mcpConfig({ a: nodeServer(MODERN), b: nodeServer(MODERN), everything: nodeServer(EVERYTHING, "stdio"), echo: hostile("echo-only"), many: hostile("many") }),
    );
    try {
      const t0 = performance.now();
      await manager.ensureStarted({ sessionId: "bench" });
      const total = performance.now() - t0;
      const slowest = Math.max(...manager.statuses().map((s) => s.startMs ?? Number.NaN));
      overheads.push(total - slowest);
    } finally {
      await manager.dispose();
    }
  }
  return [`mcp_all_ready_overhead_ms ${median(overheads).toFixed(1)} ms (5 servers, beyond the slowest one's own start)`];
}

/** Every MCP figure. */
export async function benchMcp(): Promise<string[]> {
  return [...(await initializeRatio()), ...(await queryOver1000()), ...(await allReadyOverhead())];
}
