/**
 * Stopping a whole process tree. Every command runs as the leader of its own process group
 * (spawned detached), so signalling `-pgid` reaches the shell and everything it started, not
 * just the shell. Windows has no process groups; `taskkill /T` walks the tree instead.
 */
import { spawn, spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

/** Grace between SIGTERM and SIGKILL when a tree is stopped. */
export const DEFAULT_KILL_GRACE_MS = 2000;

const isWindows = process.platform === "win32";

/**
 * Sends `signal` to the process group led by `pgid`. False when it reached no process: the group
 * is gone (ESRCH), or all that is left belongs to another user (EPERM: `sudo ...` after the shell
 * ended). Never throws: callers run in exit handlers and in results that must settle, where one
 * group we may not signal must not stop the others from being stopped.
 */
export function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  if (isWindows) {
    // /F because console programs ignore the polite close taskkill sends without it.
    const child = spawn("taskkill", ["/pid", String(pgid), "/T", "/F"], { stdio: "ignore", windowsHide: true });
    child.on("error", () => {});
    return true;
  }
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether any live process is left in the group led by `pgid`. A zombie is dead: it only waits to
 * be reaped, and where PID 1 does not reap (some containers) it would otherwise count forever.
 */
export function groupAlive(pgid: number): boolean {
  if (isWindows) return pidAlive(pgid);
  try {
    process.kill(-pgid, 0);
  } catch (err) {
    // EPERM: a member exists but belongs to someone else (setuid): still alive.
    return errnoOf(err) !== "ESRCH";
  }
  const members = linuxGroupMembers(pgid);
  return members === undefined ? true : members.some((m) => m.state !== "Z" && m.state !== "X");
}

/** Whether the process `pid` exists and is not a zombie. */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return errnoOf(err) !== "ESRCH";
  }
  const state = linuxProcessState(pid);
  return state !== "Z" && state !== "X";
}

/** How a tree was stopped. */
export interface TerminateOutcome {
  /** SIGTERM was not enough and SIGKILL was sent. */
  escalated: boolean;
}

/**
 * Stops the group led by `pgid`: SIGTERM, then SIGKILL to whatever is still alive after
 * `graceMs`. Resolves once the group is gone (or shortly after SIGKILL, which cannot be refused).
 */
export async function terminateGroup(pgid: number, graceMs = DEFAULT_KILL_GRACE_MS): Promise<TerminateOutcome> {
  if (!signalGroup(pgid, "SIGTERM")) return { escalated: false };
  if (isWindows) return { escalated: false };
  if (await waitUntilGone(pgid, graceMs)) return { escalated: false };
  signalGroup(pgid, "SIGKILL");
  await waitUntilGone(pgid, 1000);
  return { escalated: true };
}

/**
 * Stops many groups without yielding to the event loop, for `exit` handlers where nothing
 * asynchronous runs any more: SIGTERM to all at once, a short synchronous grace, SIGKILL to
 * the survivors.
 */
export function terminateGroupsSync(pgids: readonly number[], graceMs: number): void {
  if (isWindows) {
    for (const pid of pgids) {
      spawnSync("taskkill", ["/pid", String(pid), "/T", "/F"], { stdio: "ignore", windowsHide: true });
    }
    return;
  }
  let alive = pgids.filter((pgid) => signalGroup(pgid, "SIGTERM"));
  const deadline = Date.now() + graceMs;
  while (alive.length && Date.now() < deadline) {
    sleepSync(25);
    alive = alive.filter(groupAlive);
  }
  for (const pgid of alive) signalGroup(pgid, "SIGKILL");
  // SIGKILL lands asynchronously; a moment more lets the caller (often about to exit) know it did.
  const killDeadline = Date.now() + 500;
  while (alive.length && Date.now() < killDeadline) {
    sleepSync(10);
    alive = alive.filter(groupAlive);
  }
}

async function waitUntilGone(pgid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (let pause = 10; ; pause = Math.min(pause * 2, 100)) {
    if (!groupAlive(pgid)) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}

const sleepCell = new Int32Array(new SharedArrayBuffer(4));

/** Blocks the thread for `ms` (Atomics.wait on a cell nobody notifies). */
function sleepSync(ms: number): void {
  Atomics.wait(sleepCell, 0, 0, ms);
}

interface ProcStat {
  pid: number;
  state: string;
  pgrp: number;
}

/** Members of a process group from /proc, or undefined where /proc is not available. */
function linuxGroupMembers(pgid: number): ProcStat[] | undefined {
  if (process.platform !== "linux") return undefined;
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return undefined;
  }
  const members: ProcStat[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readProcStat(Number(entry));
    if (stat && stat.pgrp === pgid) members.push(stat);
  }
  return members;
}

function linuxProcessState(pid: number): string | undefined {
  return process.platform === "linux" ? readProcStat(pid)?.state : undefined;
}

function readProcStat(pid: number): ProcStat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // The command name is in parentheses and may itself contain spaces and parentheses.
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  return { pid, state: fields[0] ?? "", pgrp: Number(fields[2]) };
}

function errnoOf(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | undefined)?.code;
}
