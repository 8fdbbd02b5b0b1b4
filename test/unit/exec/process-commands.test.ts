import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { rmSync } from "node:fs";
import { logsCommand, stopCommand } from "../../../server/src/agent/commands/process-commands.js";
import { ProcessManager } from "../../../server/src/exec/processes.js";
import { tempRoot } from "./fake-context.js";

let root: string;
let processes: ProcessManager;
const a = () => ({ sessionId: "session-a", processes });
const b = () => ({ sessionId: "session-b", processes });

beforeEach(() => {
  root = tempRoot();
  processes = new ProcessManager({ killGraceMs: 500, shutdownGraceMs: 300 });
});
afterEach(() => {
  processes.stopAll();
  rmSync(root, { recursive: true, force: true });
});

const start = (command: string, sessionId = "session-a") => processes.startBackground(sessionId, { command, cwd: root, root });

describe.skipIf(process.platform === "win32")("/logs and /stop", () => {
  it("/logs lists the session's processes, foreground ones too", async () => {
    expect(await logsCommand([], a())).toBe("No background processes in this session.");
    const job = await start("sleep 100");
    const fg = await processes.startForeground("session-a", { command: "sleep 100", cwd: root, timeoutMs: 60_000 });
    const listed = await logsCommand([], a());
    expect(listed).toMatch(new RegExp(`^${fg.id}  running for \\d+ s \\(foreground\\)\\n    \\$ sleep 100\\n${job.id}  running  started`));
    expect(await logsCommand([], b())).toBe("No background processes in this session.");
  });

  it("/logs <id> shows the output without consuming what the agent reads next", async () => {
    const job = await start("echo hello from the job; sleep 100");
    await new Promise((r) => setTimeout(r, 300));
    expect(await logsCommand([job.id], a())).toBe(`${job.id}: running\n$ echo hello from the job; sleep 100\nhello from the job\n`);
    expect((await processes.read("session-a", job.id)).text).toBe("hello from the job\n");
    await expect(logsCommand([job.id], b())).rejects.toThrow(`No process "${job.id}" in this session. /logs lists them.`);
  });

  it("/stop <id> stops one process; /stop stops all of the session's and no other's", async () => {
    const one = await start("sleep 100");
    const two = await start("sleep 100");
    const theirs = await start("sleep 100", "session-b");
    await expect(stopCommand([theirs.id], a())).rejects.toThrow(/No process/);
    expect(await stopCommand([one.id], a())).toMatch(new RegExp(`^${one.id}: Stopped [12] process(es)? with SIGTERM\\.$`));
    expect(await stopCommand([one.id], a())).toMatch(new RegExp(`^${one.id} had already ended \\(stopped \\(stopped by /stop\\)`));
    const fg = await processes.startForeground("session-a", { command: "sleep 100", cwd: root, timeoutMs: 60_000 });
    expect(await stopCommand([], a())).toMatch(new RegExp(`^${fg.id}: Stopped [12] process(es)? with SIGTERM\\.\\n${two.id}: Stopped [12] process(es)? with SIGTERM\\.$`));
    expect((await fg.result).killed?.message).toBe("stopped by /stop");
    expect(await stopCommand([], a())).toBe("Nothing was running in this session.");
    expect(processes.info("session-b", theirs.id).running).toBe(true);
  });

  it("/stop fg-N stops a foreground command", async () => {
    const fg = await processes.startForeground("session-a", { command: "sleep 100", cwd: root, timeoutMs: 60_000 });
    expect(await stopCommand([fg.id], a())).toMatch(new RegExp(`^${fg.id}: Stopped [12] process(es)? with SIGTERM\\.$`));
    expect((await fg.result).killed?.reason).toBe("stop");
  });
});
