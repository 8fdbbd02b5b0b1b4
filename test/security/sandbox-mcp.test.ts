/**
 * An MCP stdio server the user puts in the sandbox (`[mcp_servers.NAME] sandbox = true`): it
 * starts and answers as before, but in its own PID namespace, unable to write outside the
 * project or read a credential. Without the key it starts as it always did.
 */
import { copyFileSync, existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Sandbox } from "../../server/src/exec/sandbox/sandbox.js";
import type { McpManager } from "../../server/src/mcp/manager.js";
import { HOSTILE, mcpConfig, nodeServer, testManager } from "../helpers/mcp/servers.js";
import { fakeHome, sandboxFor, skipWithoutSandbox, type FakeHome } from "../helpers/sandbox.js";

let manager: McpManager | undefined;
let home: FakeHome | undefined;
let root: string | undefined;
afterEach(async () => {
  await manager?.dispose();
  home?.dispose();
  if (root) rmSync(root, { recursive: true, force: true });
  manager = home = root = undefined;
});

/** Starts the probe server (sandboxed or not); what it noted about itself. */
async function probe(sandboxed: boolean): Promise<{ lines: string[]; planted: string }> {
  home = fakeHome();
  root = realpathSync(mkdtempSync(path.join(os.tmpdir(), "agent-lsp-mcp-sandbox-")));
  const log = path.join(root, "probe.log");
  const planted = path.join(home.home, "planted");
  // The probe (which needs nothing but Node) runs from the project: a clone under /tmp is out of
  // sight inside the sandbox, whose /tmp is private.
  const script = path.join(root, "probe-server.mjs");
  copyFileSync(HOSTILE, script);
  const table = { ...nodeServer(script, "probe"), env: { MCP_TEST_LOG: log, MCP_PROBE_WRITE: planted, MCP_PROBE_READ: home.sshKey }, ...(sandboxed ? { sandbox: true } : {}) };
  manager = testManager(mcpConfig({ probe: table }), { root, sandbox: new Sandbox(sandboxFor(home.home)) });
  await manager.ensureStarted({ sessionId: "s" });
  const status = manager.statuses()[0];
  expect(status, JSON.stringify(status)).toMatchObject({ name: "probe", state: "ready" });
  return { lines: readFileSync(log, "utf8").trim().split("\n"), planted };
}

describe.skipIf(skipWithoutSandbox())("an MCP server with sandbox = true", () => {
  it("starts and answers, in its own PID namespace, without writing outside the project or reading a credential", async () => {
    const { lines, planted } = await probe(true);
    const pid = Number(lines.find((l) => l.startsWith("pid "))!.slice(4));
    expect(pid).toBeLessThan(10);
    expect(lines).toContain("write EROFS");
    expect(lines).toContain("read EACCES");
    expect(existsSync(planted)).toBe(false);
  });

  it("without the key, starts as before: outside the sandbox", async () => {
    const { lines, planted } = await probe(false);
    expect(lines).toContain("write ok");
    expect(lines).toContain("read ok");
    expect(existsSync(planted)).toBe(true);
  });
});
