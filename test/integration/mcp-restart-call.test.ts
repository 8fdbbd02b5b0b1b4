/**
 * A call made while a crashed local server is being restarted waits for the restart and goes to
 * the new process; the server's tools stay offered meanwhile (a model calling one gets its answer,
 * not "There is no tool ..." with every other tool listed).
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { McpManager } from "../../server/src/mcp/manager.js";
import { callMcpTool } from "../../server/src/mcp/operations.js";
import { hostile, mcpConfig, testManager } from "../helpers/mcp/servers.js";
import { waitFor } from "../helpers/wait.js";

const readCall = (server: string, uri: string) => `read_mcp_resource(${JSON.stringify({ server, uri })})`;
let m: McpManager | undefined;
let log: string | undefined;
afterEach(async () => {
  await m?.dispose();
  if (log) rmSync(log, { force: true });
});

const tool = (name: string) => m!.tools().find((t) => t.name === name)!;

describe("a call during a restart", () => {
  it("waits for the restarted server and gets its answer; the tools stay offered while it restarts", async () => {
    log = path.join(os.tmpdir(), `mcp-restart-${process.pid}-${Date.now()}`);
    writeFileSync(log, "");
    // A backoff long enough that the call surely comes while the server is down.
    m = testManager(mcpConfig({ crashy: hostile("crash", log) }), { restart: { initialDelayMs: 1500, maxDelayMs: 3000, maxAttempts: 3 } });
    await m.ensureStarted({ sessionId: "s" });
    const startsBefore = readFileSync(log, "utf8").match(/^started/gm)!.length;
    await expect(callMcpTool(m, tool("mcp__crashy__crash"), {}, new AbortController().signal, readCall)).rejects.toThrow(/the call was lost and the server is being restarted/);
    await waitFor(() => m!.status("crashy")?.state === "restarting", 10_000);
    expect(m.tools().map((t) => t.name)).toContain("mcp__crashy__echo");
    const during = callMcpTool(m, tool("mcp__crashy__echo"), { text: "during" }, new AbortController().signal, readCall);
    expect(m.status("crashy")?.state).toBe("restarting");
    const result = await during;
    expect(result.content.map((b) => (b.type === "text" ? b.text : "")).join("\n")).toContain("echo: during");
    expect(m.status("crashy")?.state).toBe("ready");
    expect(readFileSync(log, "utf8").match(/^started/gm)!.length).toBeGreaterThan(startsBefore);
  }, 30_000);

  it("a cancelled call stops waiting at once", async () => {
    log = path.join(os.tmpdir(), `mcp-restart-${process.pid}-${Date.now()}-b`);
    writeFileSync(log, "");
    m = testManager(mcpConfig({ crashy: hostile("crash", log) }), { restart: { initialDelayMs: 20_000, maxDelayMs: 20_000, maxAttempts: 1 } });
    await m.ensureStarted({ sessionId: "s" });
    await expect(callMcpTool(m, tool("mcp__crashy__crash"), {}, new AbortController().signal, readCall)).rejects.toThrow(/being restarted/);
    await waitFor(() => m!.status("crashy")?.state === "restarting", 10_000);
    const controller = new AbortController();
    const waiting = callMcpTool(m, tool("mcp__crashy__echo"), { text: "x" }, controller.signal, readCall);
    const began = Date.now();
    controller.abort();
    await expect(waiting).rejects.toThrow();
    expect(Date.now() - began).toBeLessThan(5_000);
  }, 30_000);
});
