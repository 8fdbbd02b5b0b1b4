/**
 * Resident memory of a process tree, read from /proc: at one moment, once it has settled, and
 * bare Node's own for comparison.
 */
import { spawn } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";

/** The resident set of `pid` and its descendants, in MB (from /proc). */
export function treeRssMb(pid: number): number {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const ppid = Number(readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1]!.split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  let kb = 0;
  const visit = (p: number) => {
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, "utf8"))?.[1] ?? 0);
    } catch {
      return;
    }
    for (const c of children.get(p) ?? []) visit(c);
  };
  visit(pid);
  return kb / 1024;
}

/** The tree's RSS once settled, and whether the cap ran out before it did. */
export interface SettledRss {
  mb: number;
  capped: boolean;
}

/**
 * The tree's RSS once it has settled: sampled every 50 ms until it has stayed within 0.5 MB of
 * one value for 1 s, or for at most 5 s (then `capped`). Throws if the process is gone.
 */
export async function settledRssMb(pid: number): Promise<SettledRss> {
  const sample = () => {
    const mb = treeRssMb(pid);
    if (mb === 0) throw new Error(`process ${pid} exited while its RSS was being watched`);
    return mb;
  };
  const start = performance.now();
  let anchor = sample();
  let anchoredAt = start;
  for (;;) {
    await new Promise((r) => setTimeout(r, 50));
    const mb = sample();
    const now = performance.now();
    if (Math.abs(mb - anchor) > 0.5) {
      anchor = mb;
      anchoredAt = now;
    } else if (now - anchoredAt >= 1000) {
      return { mb, capped: false };
    }
    if (now - start >= 5000) return { mb, capped: true };
  }
}

/** Bare Node's idle RSS in MB: a `node` that reads stdin (as the server does), once settled. */
export async function nodeIdleRssMb(): Promise<number> {
  const child = spawn(process.execPath, ["-e", "process.stdin.resume(); process.stdout.write('ready\\n')"], { stdio: ["pipe", "pipe", "inherit"] });
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout.once("data", () => resolve());
      child.once("exit", (code) => reject(new Error(`bare node exited (${code}) before it was ready`)));
      child.once("error", reject);
    });
    return (await settledRssMb(child.pid!)).mb;
  } finally {
    child.kill("SIGKILL");
  }
}
