/**
 * A local MCP server's protocol era is found out once (mcp/eras.ts): its first start asks
 * `server/discover` on a throwaway copy of the server, later starts connect as 2025 at once, and
 * a server that no longer speaks 2025 is negotiated again. Counted by the starts the server notes.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { EraMemory } from "../../server/src/mcp/eras.js";
import { serverSpecs } from "../../server/src/mcp/specs.js";
import { hostile, mcpConfig, MODERN, nodeServer, testManager } from "../helpers/mcp/servers.js";

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "agent-lsp-eras-"));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Starts the config's servers once with `eras`; the statuses, after stopping them. */
async function startOnce(config: ReturnType<typeof mcpConfig>, eras?: EraMemory) {
  const manager = testManager(config, eras ? { eras } : {});
  try {
    await manager.ensureStarted({ sessionId: "s" });
    return manager.statuses();
  } finally {
    await manager.dispose();
  }
}

const starts = (log: string) => readFileSync(log, "utf8").split("\n").filter((l) => l.startsWith("started")).length;

describe("MCP protocol eras", () => {
  it("starts a 2025 server once, not twice, after its first start", async () => {
    const log = path.join(tempDir(), "starts.log");
    const config = mcpConfig({ c: hostile("crash", log) });
    const eras = new EraMemory(path.join(tempDir(), "mcp-eras.json"));
    expect((await startOnce(config, eras))[0]).toMatchObject({ state: "ready", protocolVersion: "2025-11-25" });
    // The first start: the throwaway copy the probe ran on, then the server.
    expect(starts(log)).toBe(2);
    expect((await startOnce(config, eras))[0]).toMatchObject({ state: "ready", protocolVersion: "2025-11-25" });
    expect(starts(log)).toBe(3);
    // Without the memory every start pays for the probe.
    await startOnce(config);
    expect(starts(log)).toBe(5);
  }, 60_000);

  it("keeps what it learnt in its file, without the server's command line", async () => {
    const log = path.join(tempDir(), "starts.log");
    const file = path.join(tempDir(), "state", "mcp-eras.json");
    const config = mcpConfig({ c: hostile("crash", log) });
    await startOnce(config, new EraMemory(file));
    await startOnce(config, new EraMemory(file));
    expect(starts(log)).toBe(3);
    expect(readFileSync(file, "utf8")).not.toContain("crash");
  }, 60_000);

  it("negotiates again when a server remembered as 2025 no longer speaks it", async () => {
    const config = mcpConfig({ m: nodeServer(MODERN) });
    const spec = serverSpecs(config, os.tmpdir()).specs[0]!;
    const eras = new EraMemory();
    eras.remember(spec, "2025-11-25");
    const [status] = await startOnce(config, eras);
    expect(status).toMatchObject({ state: "ready" });
    expect(status!.protocolVersion! >= "2026-07-28").toBe(true);
    expect(eras.isLegacy(spec)).toBe(false);
  }, 60_000);
});
