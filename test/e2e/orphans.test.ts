/**
 * No orphans: the built server, started over stdio as an editor starts it, runs a background job
 * for the model; when the editor goes away (stdin closes) or says shutdown + exit, the job's
 * whole tree is gone with the server.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startAgentBinary, startBackgroundJobIn, type AgentBinary } from "../helpers/agent-binary.js";
import { processGone, survivors } from "../unit/exec/fake-context.js";

let running: AgentBinary | undefined;
afterEach(async () => {
  await running?.dispose();
  running = undefined;
});

async function startServer(): Promise<AgentBinary> {
  running = await startAgentBinary("orphans");
  return running;
}

/** Has the model start a background job whose tree writes its pids to `pids`; returns them. */
async function startBackgroundJob(r: AgentBinary): Promise<number[]> {
  await startBackgroundJobIn(r, "echo $$ > pids; sleep 100 & echo $! >> pids; wait");
  const pidFile = path.join(r.root, "pids");
  const deadline = Date.now() + 5000;
  while (!(existsSync(pidFile) && readFileSync(pidFile, "utf8").trim().split("\n").length === 2)) {
    if (Date.now() > deadline) throw new Error("the background job never wrote its pids");
    await new Promise((res) => setTimeout(res, 20));
  }
  const pids = readFileSync(pidFile, "utf8").trim().split("\n").map(Number);
  expect(pids.every((p) => !processGone(p))).toBe(true);
  return pids;
}

describe.skipIf(process.platform === "win32")("no orphan processes after the server ends", () => {
  it("stdin closing (the editor died) stops the background job's whole tree", async () => {
    const r = await startServer();
    const pids = await startBackgroundJob(r);
    r.server.stdin.end();
    await r.exited;
    expect(await survivors(pids, 1000)).toEqual([]);
  });

  it("shutdown + exit stops the background job's whole tree", async () => {
    const r = await startServer();
    const pids = await startBackgroundJob(r);
    await r.connection.sendRequest("shutdown");
    await r.connection.sendNotification("exit");
    await r.exited;
    expect(await survivors(pids, 1000)).toEqual([]);
  });
});
