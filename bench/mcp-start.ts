/**
 * MCP start-up beside the server's own: the same real server (server-everything from
 * node_modules) started directly with the SDK's client (spawn until `initialize` is answered, and
 * until its tools, resources, templates and prompts are listed, as agent-lsp lists them before it
 * calls a server ready), and started inside agent-lsp (`agent-lsp mcp list --json`: configured
 * server to ready, the `startMs` it reports, through the containment and discovery agent-lsp
 * adds), interleaved in the same run. Medians of 5 after a first round, whose start inside
 * agent-lsp is reported on its own: the first start of a server finds out its protocol era
 * (mcp/eras.ts).
 */
import { execFile } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { tempProject } from "../test/helpers/agent-setup.js";
import { EVERYTHING } from "../test/helpers/mcp/servers.js";
import { BINARY } from "../test/helpers/spawn-server.js";
import { median } from "./stats.js";

const ROUNDS = Number(process.env.MCP_START_ROUNDS ?? 5);
const DIRECT = fileURLToPath(new URL("./mcp-direct.mjs", import.meta.url));

/**
 * The server started directly by the SDK's client in a fresh node process (bench/mcp-direct.mjs):
 * the process's whole time, and spawn to `initialize` answered and to everything listed inside it.
 */
async function direct(): Promise<{ init: number; listed: number; directWall: number }> {
  const t0 = performance.now();
  const out = await run([DIRECT, process.execPath, EVERYTHING, "stdio"], {});
  const directWall = performance.now() - t0;
  return { ...(JSON.parse(out) as { init: number; listed: number }), directWall };
}

function run(args: string[], env: NodeJS.ProcessEnv, cwd?: string): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(process.execPath, args, { env: { ...process.env, ...env }, ...(cwd ? { cwd } : {}) }, (err, stdout) => (err ? reject(err) : resolve(stdout))),
  );
}

/** A user config home with the server configured, and a project to run in. */
function configured(): { home: string; project: string } {
  const home = tempProject("agent-lsp-bench-mcp-home-");
  mkdirSync(path.join(home, "agent-lsp"), { recursive: true });
  writeFileSync(path.join(home, "agent-lsp", "config.toml"), `[mcp_servers.everything]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(EVERYTHING)}, "stdio"]\n`);
  return { home, project: tempProject("agent-lsp-bench-mcp-") };
}

/** `agent-lsp mcp list --json`: the server's start as agent-lsp reports it, and the command's whole time. */
async function inside(home: string, project: string): Promise<{ startMs: number; wall: number }> {
  const t0 = performance.now();
  const out = await run([BINARY, "mcp", "list", "--json"], { XDG_CONFIG_HOME: home, XDG_STATE_HOME: home }, project);
  const wall = performance.now() - t0;
  const [status] = JSON.parse(out) as { state: string; startMs?: number; error?: string }[];
  if (status?.state !== "ready" || status.startMs === undefined) throw new Error(`server-everything did not start inside agent-lsp: ${out.slice(0, 300)}`);
  return { startMs: status.startMs, wall };
}

/** The medians: direct initialize, direct listed, inside agent-lsp. */
export async function mcpStartFigures(rounds = ROUNDS): Promise<Record<"first" | "init" | "listed" | "directWall" | "inside" | "wall", number>> {
  const { home, project } = configured();
  let first = Number.NaN;
  const runs = { init: [] as number[], listed: [] as number[], directWall: [] as number[], inside: [] as number[], wall: [] as number[] };
  try {
    for (let i = 0; i <= rounds; i++) {
      // Alternating which goes first, so a noisy moment does not always hit the same one.
      const order = i % 2 ? [() => inside(home, project), direct] : [direct, () => inside(home, project)];
      const results: Record<string, number> = {};
      for (const run of order) Object.assign(results, await run());
      // The first start inside agent-lsp finds out the server's protocol era; the later ones know it.
      if (i === 0) first = results.startMs!;
      if (i === 0) continue;
      runs.init.push(results.init!);
      runs.listed.push(results.listed!);
      runs.directWall.push(results.directWall!);
      runs.inside.push(results.startMs!);
      runs.wall.push(results.wall!);
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
    rmSync(project, { recursive: true, force: true });
  }
  return { first, init: median(runs.init), listed: median(runs.listed), directWall: median(runs.directWall), inside: median(runs.inside), wall: median(runs.wall) };
}

/** Every figure of the MCP start-up comparison (medians of `rounds`). */
export async function benchMcpStart(rounds = ROUNDS): Promise<string[]> {
  const f = await mcpStartFigures(rounds);
  return [
    `mcp_start_direct_initialize ${f.init.toFixed(0)} ms (server-everything spawned by the SDK's client until initialize is answered, the SDK loaded)`,
    `mcp_start_direct_listed ${f.listed.toFixed(0)} ms (and its tools, resources, templates and prompts listed; ${f.directWall.toFixed(0)} ms the whole node process)`,
    `mcp_start_inside ${f.inside.toFixed(0)} ms (configured server to ready inside agent-lsp, SDK loading included; ${f.wall.toFixed(0)} ms the whole mcp list --json)`,
    `mcp_start_inside_first ${f.first.toFixed(0)} ms (the same, the first time agent-lsp starts this server: it asks server/discover on a throwaway copy first)`,
    `mcp_start_inside_vs_direct ${(f.wall / f.directWall).toFixed(2)} x (agent-lsp mcp list --json against a node process doing the same start and listing with the SDK alone; target about 1)`,
  ];
}
