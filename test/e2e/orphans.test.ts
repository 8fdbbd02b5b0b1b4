/**
 * No orphans: the built server, started over stdio as an editor starts it, runs a background job
 * for the model; when the editor goes away (stdin closes) or says shutdown + exit, the job's
 * whole tree is gone with the server.
 */
import { afterEach, describe, expect, it } from "vitest";
import { startAgentBinary, startBackgroundJobIn, type AgentBinary } from "../helpers/agent-binary.js";
import { uniqueSleep, waitForSleepers } from "../helpers/host-processes.js";
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

/**
 * Has the model start a background job with two processes (found from outside: in the sandbox
 * the job's own pids belong to its namespace); returns their pids.
 */
async function startBackgroundJob(r: AgentBinary): Promise<number[]> {
  const duration = uniqueSleep();
  await startBackgroundJobIn(r, `sleep ${duration} & sleep ${duration}; wait`);
  const pids = await waitForSleepers(duration, 2);
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
