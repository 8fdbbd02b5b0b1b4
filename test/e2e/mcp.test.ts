/**
 * MCP through the built binary over stdio, as an editor runs it: a whole turn of deferred
 * discovery (mcp_tools query -> activate -> the model calls the tool -> the result reaches the
 * model), and no MCP server process left behind however the server ends.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startAgentBinary, type AgentBinary } from "../helpers/agent-binary.js";
import { hostile, MODERN, nodeServer } from "../helpers/mcp/servers.js";
import { waitFor } from "../helpers/wait.js";
import { survivors } from "../unit/exec/fake-context.js";

let running: AgentBinary | undefined;
afterEach(async () => {
  await running?.dispose();
  running = undefined;
});

async function prompt(r: AgentBinary, text: string): Promise<{ stopReason: string }> {
  const { sessionId } = (await r.connection.sendRequest("agent/newSession", {})) as { sessionId: string };
  return r.connection.sendRequest("agent/prompt", { sessionId, prompt: text });
}

describe("MCP on the built server", () => {
  it("a turn: mcp_tools query -> activate -> the activated tool is called -> its result reaches the model", async () => {
    running = await startAgentBinary("mcp", { mcp_servers: { notes: nodeServer(MODERN) } });
    running.fake.enqueue(
      { toolCalls: [{ name: "mcp_tools", input: { query: "weather city" } }] },
      { toolCalls: [{ name: "mcp_tools", input: { activate: ["notes.weather"] } }] },
      { toolCalls: [{ name: "mcp__notes__weather", input: { city: "Lisbon" } }] },
      { text: "Sunny in Lisbon, 21 °C." },
    );
    expect((await prompt(running, "weather in Lisbon?")).stopReason).toBe("end_turn");
    const requests = running.fake.requests;
    expect(requests).toHaveLength(4);
    const names = (i: number) => (requests[i]!.body.tools as { name: string }[]).map((t) => t.name);
    expect(names(0)).not.toContain("mcp__notes__weather");
    expect(JSON.stringify(requests[1]!.body.messages.at(-1))).toContain("tool notes.weather");
    expect(names(2)).toContain("mcp__notes__weather");
    const last = JSON.stringify(requests[3]!.body.messages.at(-1));
    expect(last).toContain("Sunny in Lisbon");
    expect(last).toContain('\\"celsius\\": 21');
    expect(running.fake.violations).toEqual([]);
  }, 60_000);
});

describe.skipIf(process.platform !== "linux")("no MCP server process outlives the server", () => {
  /** Starts the built server with a server that forks a detached grandchild; returns every pid it wrote. */
  async function serverWithOrphan(): Promise<{ r: AgentBinary; pids: number[] }> {
    const log = path.join(process.env.TMPDIR ?? "/tmp", `mcp-orphan-${process.pid}-${Date.now()}`);
    writeFileSync(log, "");
    const r = (running = await startAgentBinary("mcp-orphans", { mcp_servers: { parent: hostile("orphan", log) }, mcp: { discover_timeout_s: 2 } }));
    r.fake.enqueue({ text: "hello" });
    await prompt(r, "start the servers");
    await waitFor(() => (readFileSync(log, "utf8").match(/grandchild/g) ?? []).length >= 2, 10_000);
    const pids = [...readFileSync(log, "utf8").matchAll(/server (\d+) grandchild (\d+)/g)].flatMap((m) => [Number(m[1]), Number(m[2])]);
    // The first server line is the SDK's discover probe, ended already; its grandchild is not.
    return { r, pids: pids.slice(1) };
  }

  it("stdin closing (the editor died)", async () => {
    const { r, pids } = await serverWithOrphan();
    expect(await survivors(pids)).toEqual(pids);
    r.server.stdin.end();
    await r.exited;
    expect(await survivors(pids, 3000)).toEqual([]);
  }, 60_000);

  it("SIGTERM", async () => {
    const { r, pids } = await serverWithOrphan();
    r.server.kill("SIGTERM");
    await r.exited;
    expect(await survivors(pids, 3000)).toEqual([]);
  }, 60_000);

  it("shutdown + exit", async () => {
    const { r, pids } = await serverWithOrphan();
    await r.connection.sendRequest("shutdown");
    await r.connection.sendNotification("exit");
    await r.exited;
    expect(await survivors(pids, 3000)).toEqual([]);
  }, 60_000);
});
