/**
 * MCP start-up beside the server's own: the same real server (server-everything from
 * node_modules) started directly with the SDK's client (spawn until `initialize` is answered, and
 * until its tools, resources, templates and prompts are listed, as agent-lsp lists them before it
 * calls a server ready), and started inside agent-lsp (`agent-lsp mcp list --json`: configured
 * server to ready, the `startMs` it reports, through the containment and discovery agent-lsp
 * adds), interleaved in the same run. Medians of 5 after a warm-up round.
 */
import { execFile } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { tempProject } from "../test/helpers/agent-setup.js";
import { EVERYTHING } from "../test/helpers/mcp/servers.js";
import { BINARY } from "../test/helpers/spawn-server.js";
import { median } from "./stats.js";

const ROUNDS = Number(process.env.MCP_START_ROUNDS ?? 5);

/** Spawn to `initialize` answered, and to everything listed, with the SDK's client alone. */
async function direct(): Promise<{ init: number; listed: number }> {
  const t0 = performance.now();
  const client = new Client({ name: "bench", version: "0" });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [EVERYTHING, "stdio"], stderr: "ignore" }));
  const init = performance.now() - t0;
  await Promise.all([client.listTools(), client.listResources(), client.listResourceTemplates(), client.listPrompts()]);
  const listed = performance.now() - t0;
  await client.close();
  return { init, listed };
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
  const out = await new Promise<string>((resolve, reject) =>
    execFile(process.execPath, [BINARY, "mcp", "list", "--json"], { cwd: project, env: { ...process.env, XDG_CONFIG_HOME: home, XDG_STATE_HOME: home } }, (err, stdout) => (err ? reject(err) : resolve(stdout))),
  );
  const wall = performance.now() - t0;
  const [status] = JSON.parse(out) as { state: string; startMs?: number; error?: string }[];
  if (status?.state !== "ready" || status.startMs === undefined) throw new Error(`server-everything did not start inside agent-lsp: ${out.slice(0, 300)}`);
  return { startMs: status.startMs, wall };
}

/** The medians: direct initialize, direct listed, inside agent-lsp. */
export async function mcpStartFigures(rounds = ROUNDS): Promise<{ init: number; listed: number; inside: number; wall: number }> {
  const { home, project } = configured();
  const runs = { init: [] as number[], listed: [] as number[], inside: [] as number[], wall: [] as number[] };
  try {
    for (let i = 0; i <= rounds; i++) {
      // Alternating which goes first, so a noisy moment does not always hit the same one.
      const order = i % 2 ? [() => inside(home, project), direct] : [direct, () => inside(home, project)];
      const results: Record<string, number> = {};
      for (const run of order) Object.assign(results, await run());
      if (i === 0) continue;
      runs.init.push(results.init!);
      runs.listed.push(results.listed!);
      runs.inside.push(results.startMs!);
      runs.wall.push(results.wall!);
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
    rmSync(project, { recursive: true, force: true });
  }
  return { init: median(runs.init), listed: median(runs.listed), inside: median(runs.inside), wall: median(runs.wall) };
}

/** Every figure of the MCP start-up comparison (medians of `rounds`). */
export async function benchMcpStart(rounds = ROUNDS): Promise<string[]> {
  const f = await mcpStartFigures(rounds);
  return [
    `mcp_start_direct_initialize ${f.init.toFixed(0)} ms (server-everything spawned by the SDK's client until initialize is answered)`,
    `mcp_start_direct_listed ${f.listed.toFixed(0)} ms (and its tools, resources, templates and prompts listed)`,
    `mcp_start_inside ${f.inside.toFixed(0)} ms (configured server to ready inside agent-lsp, mcp list --json; ${(f.wall / 1000).toFixed(2)} s the whole command)`,
    `mcp_start_inside_vs_direct ${(f.inside / f.listed).toFixed(2)} x (inside agent-lsp against the same start and listing done directly; target about 1)`,
  ];
}
