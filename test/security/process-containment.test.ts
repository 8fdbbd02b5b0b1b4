/**
 * Containment (issue 22, item 5): a process that a command starts in a session of its own
 * (`setsid`, the way daemons detach) has left the command's process group, so signalling the
 * group never reaches it. On every stop path it must be gone all the same, checked by the pid it
 * wrote to a file, and the stop must say what it ended, that one included.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PROCESSES_SERVICE, ProcessManager, processManagerFrom } from "../../server/src/exec/processes.js";
import { commandTools } from "../../server/src/tools/commands/command-tools.js";
import { startAgentBinary, startBackgroundJobIn, type AgentBinary } from "../helpers/agent-binary.js";
import { startAgentHarness, type AgentHarness } from "../helpers/agent-setup.js";
import { fakeToolSetup, pidFromFile, processGone, survivors, textOf, type FakeToolSetup } from "../unit/exec/fake-context.js";

/**
 * These cases are about containment without the sandbox (`[exec] sandbox = "off"`, or where it
 * cannot run): inside it the grandchild would write the pid its own PID namespace gave it, and
 * the namespace ends it anyway (test/security/sandbox.test.ts).
 */
const UNSANDBOXED = { exec: { sandbox: "off" } };

/** The mechanism reads /proc; elsewhere only the process group is stopped (docs/tools.md). */
const canTest = process.platform === "linux" && spawnSync("setsid", ["true"]).status === 0;

const PIDFILE = "grandchild.pid";
/** Starts a grandchild in a new session, detached from every stream, that writes its pid. */
const GRANDCHILD = `setsid sh -c 'echo $$ > ${PIDFILE}; exec sleep 1000' </dev/null >/dev/null 2>&1 &`;
/** A foreground command that keeps running after starting the grandchild. */
const FOREGROUND = `${GRANDCHILD} sleep 1000`;
/** How a stop that ended the grandchild must say so (it is the one that left the group). */
const TOLD_LEFT_GROUP = /Stopped \d+ processes \(including 1 that had left the command's process group\) with SIGTERM/;

const tool = (name: string) => commandTools.find((t) => t.name === name)!;

/** Grandchildren seen by the current test: whatever happens, they do not outlive it. */
const grandchildren: number[] = [];
afterEach(() => {
  for (const pid of grandchildren.splice(0)) if (!processGone(pid)) process.kill(pid, "SIGKILL");
});

/** The grandchild's pid, once it has written it (and is alive). */
async function grandchildOf(root: string): Promise<number> {
  const pid = await pidFromFile(path.join(root, PIDFILE));
  grandchildren.push(pid);
  expect(processGone(pid), "the grandchild runs before the stop").toBe(false);
  // It really left the command's group and session: the case the group signal misses.
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const [, , pgrp, session] = stat.slice(stat.lastIndexOf(")") + 2).split(" ").map(Number);
  expect(pgrp).toBe(pid);
  expect(session).toBe(pid);
  return pid;
}

/** Fails unless `pid` is gone within a generous deadline (the machine may be loaded). */
async function expectGone(pid: number): Promise<void> {
  expect(await survivors([pid], 5000), `grandchild ${pid} survived the stop`).toEqual([]);
}

describe.skipIf(!canTest)("a setsid grandchild through the server in-process", () => {
  let h: AgentHarness;
  let processes: ProcessManager;

  beforeEach(async () => {
    h = await startAgentHarness({ options: UNSANDBOXED });
    const deadline = Date.now() + 10_000;
    while (!h.server.runtime() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const found = processManagerFrom(h.server.runtime()?.services ?? {});
    expect(found, "the server registers the command tools and their process manager").toBeInstanceOf(ProcessManager);
    processes = found!;
    expect(h.server.runtime()!.services[PROCESSES_SERVICE]).toBe(processes);
  });
  afterEach(async () => {
    processes.stopAll();
    await h.dispose();
  });

  /** Starts a turn in which the model runs FOREGROUND; resolves with the turn's answer. */
  async function turnRunningForeground(): Promise<{ sessionId: string; answer: Promise<any> }> {
    h.fake.enqueue({ toolCalls: [{ name: "execute_command", input: { command: FOREGROUND } }] }, { text: "done" });
    const sessionId = await h.newSession();
    return { sessionId, answer: h.prompt(sessionId, "run it") };
  }

  it("agent/cancel of the turn ends it", async () => {
    const { sessionId, answer } = await turnRunningForeground();
    const pid = await grandchildOf(h.root);
    await h.client.connection.sendNotification("agent/cancel", { sessionId });
    expect(await answer).toMatchObject({ stopReason: "cancelled" });
    await expectGone(pid);
  });

  it("/stop ends it, and says so", async () => {
    const { sessionId, answer } = await turnRunningForeground();
    const pid = await grandchildOf(h.root);
    const stop = h.client.connection.sendRequest("agent/command", { sessionId, command: "stop", args: [] });
    const { message } = (await stop) as { message: string };
    await expectGone(pid);
    expect(message).toMatch(new RegExp(`^fg-\\d+: ${TOLD_LEFT_GROUP.source}\\.$`));
    await answer;
  });
});

describe.skipIf(!canTest)("a setsid grandchild through the command tools", () => {
  let setup: FakeToolSetup;
  beforeEach(() => {
    setup = fakeToolSetup();
  });
  afterEach(() => setup.dispose());

  it("background_process stop ends it, and says so", async () => {
    const started = await tool("execute_command").execute({ command: `${GRANDCHILD} sleep 1000`, mode: "background" }, setup.context());
    const id = /bg-\d+/.exec(textOf(started))![0];
    const pid = await grandchildOf(setup.root);
    const stopped = await tool("background_process").execute({ action: "stop", id }, setup.context());
    await expectGone(pid);
    expect(textOf(stopped)).toMatch(TOLD_LEFT_GROUP);
    expect(textOf(stopped)).not.toMatch(/whole process tree|still running/);
  });

  it("background_process stop ends it after the job's shell has exited", async () => {
    const started = await tool("execute_command").execute({ command: GRANDCHILD, mode: "background" }, setup.context());
    const id = /bg-\d+/.exec(textOf(started))![0];
    const pid = await grandchildOf(setup.root);
    // A job counts as running while anything it started runs, in its group or not.
    const list = async () => textOf(await tool("background_process").execute({ action: "list" }, setup.context()));
    const deadline = Date.now() + 5000;
    while (!(await list()).includes(`${id}  running (the shell exited; processes it started still run)`)) {
      if (Date.now() > deadline) throw new Error(`the job is not listed as running on after its shell exited:\n${await list()}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const stopped = await tool("background_process").execute({ action: "stop", id }, setup.context());
    await expectGone(pid);
    expect(textOf(stopped)).toMatch(/Stopped 1 process \(including 1 that had left the command's process group\) with SIGTERM\./);
  });

  it("kill_command ends it, and says so", async () => {
    const ctx = setup.context();
    const pending = tool("execute_command").execute({ command: FOREGROUND }, ctx);
    const pid = await grandchildOf(setup.root);
    const killed = await tool("kill_command").execute({ id: ctx.toolCallId }, setup.context());
    await expectGone(pid);
    expect(textOf(killed)).toMatch(new RegExp(`^Killed fg-\\d+ \\(\\$ .*\\): ${TOLD_LEFT_GROUP.source}\\.$`));
    expect(textOf(await pending)).toMatch(new RegExp(`^Killed: stopped by kill_command\\. ${TOLD_LEFT_GROUP.source}\\.`));
  });

  it("the command's timeout ends it, and the result says so", async () => {
    const result = tool("execute_command").execute({ command: FOREGROUND, timeout_secs: 3 }, setup.context());
    const pid = await grandchildOf(setup.root);
    const text = textOf(await result);
    await expectGone(pid);
    expect(text).toMatch(new RegExp(`^Killed: timed out after 3 s\\. ${TOLD_LEFT_GROUP.source}\\.`));
  });

  it("a foreground command that exits normally does not leave it running, and says so", async () => {
    // The shell exits as soon as the grandchild has written its pid.
    const command = `${GRANDCHILD} while [ ! -s ${PIDFILE} ]; do sleep 0.05; done`;
    const result = await tool("execute_command").execute({ command }, setup.context());
    const pid = Number(readFileSync(path.join(setup.root, PIDFILE), "utf8"));
    grandchildren.push(pid);
    await expectGone(pid);
    expect(textOf(result)).toMatch(
      /^Exit code: 0 .*\nNote: the command left processes running after it exited\. Stopped 1 process \(including 1 that had left the command's process group\) with SIGTERM\./,
    );
  });
});

describe.skipIf(!canTest)("a setsid grandchild of the built server", () => {
  let r: AgentBinary | undefined;
  afterEach(async () => {
    await r?.dispose();
    r = undefined;
  });

  /** The built server with a background job that started the grandchild; its pid. */
  async function serverWithGrandchild(): Promise<{ server: AgentBinary; pid: number }> {
    r = await startAgentBinary("containment", UNSANDBOXED);
    await startBackgroundJobIn(r, `${GRANDCHILD} sleep 1000`);
    return { server: r, pid: await grandchildOf(r.root) };
  }

  it("LSP shutdown + exit ends it, and the log says what was stopped", async () => {
    const { server, pid } = await serverWithGrandchild();
    await server.connection.sendRequest("shutdown");
    await server.connection.sendNotification("exit");
    await server.exited;
    await expectGone(pid);
    expect(server.stderr()).toMatch(new RegExp(`agent-lsp shutdown: ${TOLD_LEFT_GROUP.source}\\.`));
  });

  it("stdin closing (the editor died) ends it, and the log says what was stopped", async () => {
    const { server, pid } = await serverWithGrandchild();
    server.server.stdin.end();
    await server.exited;
    await expectGone(pid);
    expect(server.stderr()).toMatch(new RegExp(`agent-lsp shutdown: ${TOLD_LEFT_GROUP.source}\\.`));
  });

  it("SIGTERM to the server ends it, and the log says what was stopped", async () => {
    const { server, pid } = await serverWithGrandchild();
    server.server.kill("SIGTERM");
    expect(await server.exited).toBe(143);
    await expectGone(pid);
    expect(server.stderr()).toMatch(new RegExp(`agent-lsp shutdown: ${TOLD_LEFT_GROUP.source}\\.`));
  });
});
