import { afterAll, describe, expect, it } from "vitest";
import { rmSync } from "node:fs";
import { runCommand, startCommand } from "../../../server/src/exec/runner.js";
import { pidsIn, processGone, survivors, tempRoot } from "./fake-context.js";
import { PROMPTLY_MS } from "../../helpers/wait.js";

const cwd = tempRoot();
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

const run = (command: string, extra: Partial<Parameters<typeof runCommand>[0]> = {}) =>
  runCommand({ command, cwd, timeoutMs: 10_000, ...extra });

describe.skipIf(process.platform === "win32")("runCommand", () => {
  it("reports exit codes and the signal that ended the shell", async () => {
    expect((await run("true")).exitCode).toBe(0);
    const failed = await run("echo oops; exit 3");
    expect(failed).toMatchObject({ exitCode: 3, signal: null, output: "oops\n" });
    expect(failed.killed).toBeUndefined();
    const signalled = await run("kill -TERM $$");
    expect(signalled).toMatchObject({ exitCode: null, signal: "SIGTERM" });
  });

  it("runs in the given cwd with stdin closed (a prompt gets EOF instead of hanging)", async () => {
    expect((await run("pwd")).output.trim()).toBe(cwd);
    const read = await run("cat; echo after-cat", { timeoutMs: 3000 });
    expect(read.killed).toBeUndefined();
    expect(read.output).toBe("after-cat\n");
  });

  it("interleaves stdout and stderr in the order they were written", async () => {
    // No pauses between the writes: two pipes read by the server could not keep this order.
    const fast = await run("echo out1; echo err1 >&2; echo out2; echo err2 >&2; echo out3");
    expect(fast.output).toBe("out1\nerr1\nout2\nerr2\nout3\n");
    const slow = await run("for i in 1 2 3; do echo out$i; sleep 0.05; echo err$i >&2; sleep 0.05; done");
    expect(slow.output.split("\n").filter(Boolean)).toEqual(["out1", "err1", "out2", "err2", "out3", "err3"]);
  });

  it("caps long output, keeping the head and the tail, and says how many bytes it cut", async () => {
    const full = Array.from({ length: 100_000 }, (_, i) => `${i + 1}\n`).join("");
    const result = await run("seq 1 100000", { maxOutputBytes: 4000 });
    const match = /\n\[\.\.\. (\d+) bytes of output cut from the middle \.\.\.\]\n/.exec(result.output);
    expect(match).not.toBeNull();
    const [head, tail] = result.output.split(match![0]);
    expect(full.startsWith(head!)).toBe(true);
    expect(full.endsWith(tail!)).toBe(true);
    expect(tail!.endsWith("99999\n100000\n")).toBe(true);
    expect(Buffer.byteLength(head!) + Buffer.byteLength(tail!)).toBe(4000);
    expect(Number(match![1])).toBe(Buffer.byteLength(full) - 4000);
    expect(result.droppedBytes).toBe(Number(match![1]));
  });

  it("strips ANSI colours, cursor moves, titles and hyperlinks", async () => {
    const result = await run(
      String.raw`printf '\033[1;31mred\033[0m plain\n\033]0;window title\007\033[2K\033[1Gline\n\033]8;;https://x.test\033\\link\033]8;;\033\\ end\n'`,
    );
    expect(result.output).toBe("red plain\nline\nlink end\n");
  });

  it("leaves the provider keys and the denied variables out of the environment", async () => {
    const baseEnv = {
      ...process.env,
      ANTHROPIC_API_KEY: "a",
      OPENAI_API_KEY: "o",
      GEMINI_API_KEY: "g",
      GOOGLE_API_KEY: "go",
      CUSTOM_PROVIDER_API_KEY: "c",
      MY_TOKEN: "t",
      AWS_SECRET_ACCESS_KEY: "s",
      KEEP_ME: "kept",
    };
    const result = await run("env", { baseEnv, envDeny: ["CUSTOM_PROVIDER_API_KEY", "MY_TOKEN", "AWS_*"] });
    const names = result.output.split("\n").map((l) => l.split("=")[0]);
    for (const gone of ["ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY", "CUSTOM_PROVIDER_API_KEY", "MY_TOKEN", "AWS_SECRET_ACCESS_KEY"]) {
      expect(names).not.toContain(gone);
    }
    expect(result.output).toContain("KEEP_ME=kept");
    expect(names).toContain("PATH");
  });

  it("on timeout kills the whole process tree and says so", async () => {
    const started = Date.now();
    const result = await run("echo $$; sleep 100 & echo $!; sleep 100 & echo $!; wait", { timeoutMs: 500 });
    expect(Date.now() - started).toBeLessThan(PROMPTLY_MS);
    expect(result.killed).toMatchObject({ reason: "timeout", message: "timed out after 0.5 s", stop: { escalated: false, survivors: [] } });
    const pids = pidsIn(result.output);
    expect(pids).toHaveLength(3);
    expect(await survivors(pids)).toEqual([]);
  });

  it("sends SIGKILL after the grace when the tree ignores SIGTERM", async () => {
    const started = Date.now();
    const result = await run("trap '' TERM; echo $$; sleep 100 & echo $!; wait", { timeoutMs: 300, killGraceMs: 400 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(650);
    expect(result.killed).toMatchObject({ reason: "timeout", stop: { escalated: true, survivors: [] } });
    expect(result.signal).toBe("SIGKILL");
    expect(await survivors(pidsIn(result.output))).toEqual([]);
  });

  it("on cancel kills the tree promptly and says it was cancelled", async () => {
    const abort = new AbortController();
    const running = await startCommand({ command: "echo $$; sleep 100 & echo $!; wait", cwd, timeoutMs: 60_000, signal: abort.signal });
    // Let it print its pids first.
    for (let i = 0; i < 100 && pidsIn(running.recentOutput(100)).length < 2; i++) await new Promise((r) => setTimeout(r, 20));
    const pids = pidsIn(running.recentOutput(100));
    expect(pids).toHaveLength(2);
    expect(pids.every((p) => !processGone(p))).toBe(true);
    const abortedAt = Date.now();
    abort.abort();
    const result = await running.result;
    expect(Date.now() - abortedAt).toBeLessThan(PROMPTLY_MS);
    expect(result.killed).toMatchObject({ reason: "cancelled", message: "cancelled by the user" });
    expect(await survivors(pids)).toEqual([]);
  });

  it("does not start at all when the signal is already aborted", async () => {
    const abort = new AbortController();
    abort.abort();
    const result = await run("touch should-not-exist", { signal: abort.signal });
    expect(result.killed?.reason).toBe("cancelled");
    expect((await run("ls")).output).not.toContain("should-not-exist");
  });

  it("stops processes the command left behind when it exited", async () => {
    const started = Date.now();
    const result = await run("sleep 100 >/dev/null 2>&1 & echo $!");
    expect(Date.now() - started).toBeLessThan(PROMPTLY_MS);
    expect(result.exitCode).toBe(0);
    expect(result.strays).toMatchObject({ stopped: pidsIn(result.output), survivors: [] });
    expect(await survivors(pidsIn(result.output))).toEqual([]);
  });

  it("does not hang when a leftover process holds the output pipe", async () => {
    const started = Date.now();
    const result = await run("sleep 100 & echo $!");
    expect(Date.now() - started).toBeLessThan(PROMPTLY_MS);
    expect(result.strays).toMatchObject({ stopped: pidsIn(result.output), survivors: [] });
    expect(await survivors(pidsIn(result.output))).toEqual([]);
  });

  it("reports a command that cannot start", async () => {
    const result = await run("true", { cwd: `${cwd}/missing-folder` });
    expect(result.spawnError).toMatch(/cwd/);
    expect(result.exitCode).toBeNull();
  });

  it("shows recent output while running", async () => {
    const running = await startCommand({ command: "echo first; echo second; sleep 100", cwd, timeoutMs: 60_000 });
    for (let i = 0; i < 100 && !running.recentOutput(100).includes("second"); i++) await new Promise((r) => setTimeout(r, 20));
    expect(running.recentOutput(100)).toBe("first\nsecond\n");
    running.kill("kill_command");
    expect((await running.result).killed?.message).toBe("stopped by kill_command");
  });
});
