import { afterAll, describe, expect, it } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { installShutdownHooks } from "../../../server/src/exec/shutdown.js";
import { processGone, survivors, tempRoot } from "./fake-context.js";

const root = tempRoot();
afterAll(() => rmSync(root, { recursive: true, force: true }));
const child = fileURLToPath(new URL("./fixtures/shutdown-child.ts", import.meta.url));

/** Starts the stand-in server; resolves with it and the pids of its background job's tree. */
async function startChild(mode: "exit" | "idle", parentPid?: number): Promise<{ proc: ChildProcess; pids: number[]; exited: Promise<{ code: number | null; signal: string | null }> }> {
  const args = ["--import", "tsx", child, root, mode, ...(parentPid ? [String(parentPid)] : [])];
  const proc = spawn(process.execPath, args, { stdio: ["pipe", "pipe", "inherit"] });
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => proc.once("exit", (code, signal) => resolve({ code, signal })));
  const pids = await new Promise<number[]>((resolve, reject) => {
    let out = "";
    proc.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const line = out.split("\n").find((l) => l.startsWith("{"));
      if (line) resolve((JSON.parse(line) as { pids: number[] }).pids);
    });
    proc.once("exit", () => reject(new Error(`child exited before reporting pids: ${out}`)));
  });
  expect(pids).toHaveLength(2);
  expect(pids.every((p) => !processGone(p))).toBe(true);
  return { proc, pids, exited };
}

describe.skipIf(process.platform === "win32")("installShutdownHooks", () => {
  it("stops every process when the server exits", async () => {
    const { proc, pids, exited } = await startChild("exit");
    proc.stdin!.write("exit now\n");
    expect((await exited).code).toBe(0);
    expect(await survivors(pids, 500)).toEqual([]);
  });

  it("stops every process on SIGTERM and exits 143", async () => {
    const { proc, pids, exited } = await startChild("idle");
    proc.kill("SIGTERM");
    expect((await exited).code).toBe(143);
    expect(await survivors(pids, 500)).toEqual([]);
  });

  it("stops every process and exits when the watched parent disappears", async () => {
    const parent = spawn("sleep", ["30"], { stdio: "ignore" });
    const parentExited = new Promise((r) => parent.once("exit", r));
    const { pids, exited } = await startChild("idle", parent.pid);
    await new Promise((r) => setTimeout(r, 300));
    expect(processGone(pids[0]!)).toBe(false);
    parent.kill("SIGKILL");
    await parentExited;
    const killedAt = Date.now();
    expect((await exited).code).toBe(0);
    expect(Date.now() - killedAt).toBeLessThan(3000);
    expect(await survivors(pids, 500)).toEqual([]);
  });

  it("dispose removes the handlers it added", () => {
    const before = { exit: process.listenerCount("exit"), term: process.listenerCount("SIGTERM") };
    const hooks = installShutdownHooks({ stopAll: () => undefined }, { exit: () => undefined });
    expect(process.listenerCount("exit")).toBe(before.exit + 1);
    expect(process.listenerCount("SIGTERM")).toBe(before.term + 1);
    hooks.dispose();
    expect(process.listenerCount("exit")).toBe(before.exit);
    expect(process.listenerCount("SIGTERM")).toBe(before.term);
  });

  it("watchParent switches the watchdog to another pid", async () => {
    let stopped = 0;
    const codes: number[] = [];
    const hooks = installShutdownHooks({ stopAll: () => void stopped++ }, { pollMs: 20, exit: (c) => void codes.push(c) });
    await new Promise((r) => setTimeout(r, 80));
    expect(stopped).toBe(0);
    const gone = spawn("true");
    await new Promise((r) => gone.once("exit", r));
    hooks.watchParent(gone.pid!);
    await new Promise((r) => setTimeout(r, 100));
    hooks.dispose();
    expect(stopped).toBe(1);
    expect(codes).toEqual([0]);
  });
});
