import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readFileSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { ProcessManager, UnknownProcessError } from "../../../server/src/exec/processes.js";
import { pidsIn, processGone, survivors, tempRoot } from "./fake-context.js";
import { PROMPTLY_MS } from "../../helpers/wait.js";

const A = "session-a";
const B = "session-b";

let root: string;
let processes: ProcessManager;

beforeEach(() => {
  root = tempRoot();
  processes = new ProcessManager({ killGraceMs: 500, shutdownGraceMs: 300 });
});
afterEach(() => {
  processes.stopAll();
  rmSync(root, { recursive: true, force: true });
});

const start = (command: string, sessionId = A) => processes.startBackground(sessionId, { command, cwd: root, root });

/** Waits until the job printed `count` pids (it echoes $$ and $!). */
async function pidsOf(id: string, count: number): Promise<number[]> {
  const { output } = await processes.wait(A, id, { pattern: new RegExp(`^(\\d+\\n){${count}}`), timeoutMs: 5000 });
  const pids = pidsIn(output.text);
  expect(pids).toHaveLength(count);
  return pids;
}

describe.skipIf(process.platform === "win32")("background jobs", () => {
  it("start at once with a bg-NNNN id and an owner-only log under .agent-lsp/processes", async () => {
    const started = Date.now();
    const job = await start("sleep 100");
    expect(Date.now() - started).toBeLessThan(PROMPTLY_MS);
    expect(job.id).toMatch(/^bg-\d{4}$/);
    expect(job.log).toBe(`.agent-lsp/processes/${job.id}.log`);
    expect(job.running).toBe(true);
    const mode = statSync(path.join(root, job.log)).mode & 0o777;
    expect(mode).toBe(0o600);
    expect(statSync(path.join(root, ".agent-lsp/processes")).mode & 0o777).toBe(0o700);
  });

  it("read returns only output written since the last read, and whether it still runs", async () => {
    const job = await start("echo first; sleep 0.4; echo second; sleep 100");
    const first = await processes.wait(A, job.id, { pattern: /first/, timeoutMs: 5000 });
    expect(first.end).toBe("pattern");
    expect(first.output).toEqual({ text: "first\n", skippedBytes: 0, running: true, log: { capBytes: 64 * 1024 * 1024, droppedBytes: 0 } });
    expect((await processes.read(A, job.id)).text).toBe("");
    const second = await processes.wait(A, job.id, { pattern: /second/, timeoutMs: 5000 });
    expect(second.output.text).toBe("second\n");
    // The whole log keeps both, with stderr in it too.
    expect(readFileSync(path.join(root, job.log), "utf8")).toBe("first\nsecond\n");
  });

  it("interleaves stderr into the same log and strips ANSI when reading", async () => {
    const job = await start(String.raw`echo out; echo err >&2; printf '\033[32mgreen\033[0m\n'`);
    const { end, output } = await processes.wait(A, job.id, { timeoutMs: 5000 });
    expect(end).toBe("exited");
    expect(output).toEqual({ text: "out\nerr\ngreen\n", skippedBytes: 0, running: false, log: { capBytes: 64 * 1024 * 1024, droppedBytes: 0 } });
    expect(processes.info(A, job.id).status).toBe("exited with code 0");
  });

  it("read returns at most the newest 32 KiB and says how much it skipped", async () => {
    const job = await start("seq 1 30000; sleep 100");
    // peek, not wait: wait would read (and so consume) the output itself.
    for (let i = 0; i < 250 && !(await processes.peek(A, job.id)).text.endsWith("\n30000\n"); i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    const full = Array.from({ length: 30000 }, (_, i) => `${i + 1}\n`).join("");
    const out = await processes.read(A, job.id);
    expect(Buffer.byteLength(out.text)).toBe(32 * 1024);
    expect(out.skippedBytes).toBe(Buffer.byteLength(full) - 32 * 1024);
    expect(full.endsWith(out.text)).toBe(true);
  });

  it("wait matches a pattern that appears later in new output", async () => {
    const job = await start("echo booting; sleep 0.3; echo 'server ready on port 4321'; sleep 100");
    const started = Date.now();
    const { end, output } = await processes.wait(A, job.id, { pattern: /ready on port \d+/, timeoutMs: 10_000 });
    expect(end).toBe("pattern");
    // Below the 10 s timeout it would wait for without the pattern: a bound, not a speed claim.
    expect(Date.now() - started).toBeLessThan(8000);
    expect(output.text).toContain("server ready on port 4321");
    expect(output.running).toBe(true);
  });

  it("wait ignores a pattern in output already read", async () => {
    const job = await start("echo ready; sleep 100");
    await processes.wait(A, job.id, { pattern: /ready/, timeoutMs: 5000 });
    const again = await processes.wait(A, job.id, { pattern: /ready/, timeoutMs: 300 });
    expect(again.end).toBe("timeout");
  });

  it("wait gives up after its timeout while the job runs on", async () => {
    const job = await start("sleep 100");
    const started = Date.now();
    const { end, output } = await processes.wait(A, job.id, { pattern: /never/, timeoutMs: 300 });
    expect(end).toBe("timeout");
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(Date.now() - started).toBeLessThan(PROMPTLY_MS);
    expect(output.running).toBe(true);
  });

  it("wait ends early when its signal aborts", async () => {
    const job = await start("sleep 100");
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 100);
    const started = Date.now();
    const { end } = await processes.wait(A, job.id, { timeoutMs: 60_000, signal: abort.signal });
    expect(end).toBe("cancelled");
    expect(Date.now() - started).toBeLessThan(PROMPTLY_MS);
  });

  it("stop ends the whole tree, and a second stop says it had ended", async () => {
    const job = await start("echo $$; sleep 100 & echo $!; sleep 100");
    const pids = await pidsOf(job.id, 2);
    expect(pids.every((p) => !processGone(p))).toBe(true);
    const report = await processes.stop(A, job.id, "stopped by the test");
    expect(report).toMatchObject({ counted: true, leftGroup: [], survivors: [] });
    expect(report!.stopped).toEqual(expect.arrayContaining(pids));
    expect(await survivors(pids)).toEqual([]);
    expect(processes.info(A, job.id)).toMatchObject({ running: false });
    expect(processes.info(A, job.id).status).toMatch(/^stopped \(stopped by the test\), ended by SIG(TERM|KILL)$/);
    expect(await processes.stop(A, job.id, "again")).toBeUndefined();
  });

  it("counts a job as running while what its shell started still runs", async () => {
    const job = await start("sleep 100 & echo $!");
    const [child] = await pidsOf(job.id, 1);
    await new Promise((r) => setTimeout(r, 200));
    expect(processes.info(A, job.id).running).toBe(true);
    await processes.stop(A, job.id, "test");
    expect(await survivors([child!])).toEqual([]);
  });

  it("another session can neither see nor touch the job", async () => {
    const job = await start("echo $$; sleep 100");
    const [pid] = await pidsOf(job.id, 1);
    expect(processes.list(B)).toEqual([]);
    expect(processes.list(A).map((j) => j.id)).toEqual([job.id]);
    expect(() => processes.read(B, job.id)).toThrow(UnknownProcessError);
    expect(() => processes.wait(B, job.id, { timeoutMs: 10 })).toThrow(UnknownProcessError);
    expect(() => processes.stop(B, job.id, "x")).toThrow(UnknownProcessError);
    expect(() => processes.peek(B, job.id)).toThrow(UnknownProcessError);
    expect(() => processes.info(B, job.id)).toThrow(UnknownProcessError);
    expect(await processes.stopSession(B, "x")).toEqual([]);
    // The same words as for an id that exists nowhere: nothing leaks across sessions.
    expect(() => processes.info(B, job.id)).toThrow(new UnknownProcessError(job.id).message);
    expect(processGone(pid!)).toBe(false);
  });

  it("peek shows the newest output without moving the read offset", async () => {
    const job = await start("echo hello; sleep 100");
    await new Promise((r) => setTimeout(r, 300));
    expect((await processes.peek(A, job.id)).text).toBe("hello\n");
    expect((await processes.read(A, job.id)).text).toBe("hello\n");
  });

  it("keeps provider keys out of a background job's environment", async () => {
    const manager = new ProcessManager({ baseEnv: { ...process.env, OPENAI_API_KEY: "x", DENIED: "y" }, envDeny: ["DENIED"] });
    const job = await manager.startBackground(A, { command: "env", cwd: root, root });
    const { output } = await manager.wait(A, job.id, { timeoutMs: 5000 });
    expect(output.text).toContain("PATH=");
    expect(output.text).not.toMatch(/^(OPENAI_API_KEY|DENIED)=/m);
  });

  it("reports a job that cannot start", async () => {
    await expect(processes.startBackground(A, { command: "true", cwd: path.join(root, "missing"), root })).rejects.toThrow(/cwd/);
  });
});

describe.skipIf(process.platform === "win32")("foreground commands and shutdown", () => {
  it("kill_command stops only the calling session's foreground command", async () => {
    const running = await processes.startForeground(A, { command: "sleep 100", cwd: root, timeoutMs: 60_000 }, "call-1");
    expect(processes.foregroundOf(A)).toMatchObject([{ id: running.id, toolCallId: "call-1", command: "sleep 100" }]);
    expect(processes.foregroundOf(B)).toEqual([]);
    expect(processes.killForeground(B, "kill_command")).toEqual([]);
    expect(processes.killForeground(A, "kill_command", "fg-999")).toEqual([]);
    const killed = processes.killForeground(A, "kill_command", "call-1");
    expect(killed.map((k) => k.id)).toEqual([running.id]);
    const result = await running.result;
    expect(result.killed?.message).toBe("stopped by kill_command");
    expect(processes.foregroundOf(A)).toEqual([]);
  });

  it("stopSession stops the session's jobs and foreground commands, not another's", async () => {
    const mine = await start("sleep 100");
    const theirs = await start("sleep 100", B);
    const fg = await processes.startForeground(A, { command: "sleep 100", cwd: root, timeoutMs: 60_000 });
    const stopped = await processes.stopSession(A, "stopped by /stop");
    expect(stopped.map((s) => s.id).sort()).toEqual([fg.id, mine.id].sort());
    expect(stopped.every((s) => s.report && s.report.stopped.length > 0 && !s.report.survivors.length)).toBe(true);
    expect((await fg.result).killed?.message).toBe("stopped by /stop");
    expect(processes.info(A, mine.id).running).toBe(false);
    expect(processes.info(B, theirs.id).running).toBe(true);
  });

  it("stopAll stops every tree before it returns and refuses new processes afterwards", async () => {
    const job = await start("echo $$; sleep 100 & echo $!; sleep 100");
    const other = await start("trap '' TERM; echo $$; sleep 100", B);
    const jobPids = await pidsOf(job.id, 2);
    const { output } = await processes.wait(B, other.id, { pattern: /^\d+\n/, timeoutMs: 5000 });
    const fg = await processes.startForeground(A, { command: "echo $$; sleep 100", cwd: root, timeoutMs: 60_000 });
    for (let i = 0; i < 100 && !pidsIn(fg.recentOutput(50)).length; i++) await new Promise((r) => setTimeout(r, 20));
    const pids = [...jobPids, ...pidsIn(output.text), ...pidsIn(fg.recentOutput(50))];
    expect(pids).toHaveLength(4);

    const report = processes.stopAll();
    // Synchronous: checked before yielding to the event loop once.
    expect(pids.filter((p) => !processGone(p))).toEqual([]);
    expect(report).toMatchObject({ escalated: true, survivors: [] });
    expect(report.stopped).toEqual(expect.arrayContaining(pids));
    expect((await fg.result).killed?.message).toBe("the server shut down");
    await expect(start("true")).rejects.toThrow(/shutting down/);
  });
});
