/**
 * A new session, as a user's first prompt waits for it: `session/new` (ACP) and `agent/newSession`
 * (LSP) sent the moment initialize is answered, as clients do (so it also waits for what the
 * server still loads after initialize), beside `node -e 0` spawned in the same run (target:
 * ≤ 60 ms), and the resident memory of the server's whole process tree after it (target:
 * ≤ 40 MB). Medians of 5, each on a fresh server and project.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { spawnAcp, userConfigHome } from "../test/helpers/acp-client.js";
import { fakeProviderOptions, tempProject } from "../test/helpers/agent-setup.js";
import { startFakeProvider, type FakeProvider } from "../test/helpers/fake-provider/index.js";
import { initialize, spawnServer } from "../test/helpers/spawn-server.js";
import { median } from "./stats.js";

const RUNS = 5;

/** `node -e 0`, spawned and waited for: the floor of any Node program. */
function bareNode(): number {
  const t0 = performance.now();
  spawnSync(process.execPath, ["-e", "0"]);
  return performance.now() - t0;
}

/** The resident set of `pid` and its descendants, in MB (from /proc). */
export function treeRssMb(pid: number): number {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const ppid = Number(readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1]!.split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  let kb = 0;
  const visit = (p: number) => {
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, "utf8"))?.[1] ?? 0);
    } catch {
      return;
    }
    for (const c of children.get(p) ?? []) visit(c);
  };
  visit(pid);
  return kb / 1024;
}

async function acpOnce(fake: FakeProvider): Promise<{ ms: number; rss: number }> {
  const root = tempProject("agent-lsp-bench-new-");
  const h = spawnAcp(root, userConfigHome(fakeProviderOptions(fake)));
  try {
    await h.initialize({ fs: { readTextFile: true, writeTextFile: true } });
    const t0 = performance.now();
    await h.agent.request("session/new", { cwd: root, mcpServers: [] });
    return { ms: performance.now() - t0, rss: treeRssMb(h.child.pid!) };
  } finally {
    await h.close();
  }
}

async function lspOnce(fake: FakeProvider): Promise<{ ms: number; rss: number }> {
  const root = tempProject("agent-lsp-bench-new-");
  const server = spawnServer(root);
  try {
    await initialize(server, root, fakeProviderOptions(fake));
    const t0 = performance.now();
    await server.request("agent/newSession", {});
    return { ms: performance.now() - t0, rss: treeRssMb(server.child.pid!) };
  } finally {
    server.child.kill("SIGKILL");
  }
}

export async function benchSessionNew(): Promise<string[]> {
  const fake = await startFakeProvider();
  try {
    const base = median(Array.from({ length: RUNS }, bareNode));
    const out = [`session_new_baseline ${base.toFixed(1)} ms (node -e 0, spawned and waited for)`];
    for (const [name, once] of [["acp", acpOnce], ["lsp", lspOnce]] as const) {
      const runs = [];
      for (let i = 0; i < RUNS; i++) runs.push(await once(fake));
      const ms = median(runs.map((r) => r.ms));
      out.push(`session_new_${name} ${ms.toFixed(1)} ms (${(ms / base).toFixed(2)}x node -e 0; target <= 60 ms)`);
      out.push(`session_new_${name}_rss ${median(runs.map((r) => r.rss)).toFixed(1)} MB (the server's process tree after it; target <= 40 MB)`);
    }
    return out;
  } finally {
    await fake.close();
  }
}
