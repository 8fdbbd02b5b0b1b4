/**
 * Signals, and whether their targets are alive. Every command runs as the leader of its own
 * process group (spawned detached), so signalling `-pgid` reaches the shell and everything it
 * started that stayed in the group; stop-tree.ts adds what left it. Windows has no process
 * groups; `taskkill /T` walks the tree instead.
 */
import { spawn } from "node:child_process";
import { isDead, readProcStat, readProcTable, type ProcEntry } from "./proc-table.js";

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
  return members === undefined ? true : members.some((m) => !isDead(m.state));
}

/** Whether the process `pid` exists and is not a zombie. */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return errnoOf(err) !== "ESRCH";
  }
  return !isDead(readProcStat(pid)?.state);
}

const sleepCell = new Int32Array(new SharedArrayBuffer(4));

/** Blocks the thread for `ms` (Atomics.wait on a cell nobody notifies), for exit handlers. */
export function sleepSync(ms: number): void {
  Atomics.wait(sleepCell, 0, 0, ms);
}

/** Members of a process group from /proc, or undefined where /proc is not available. */
function linuxGroupMembers(pgid: number): ProcEntry[] | undefined {
  return readProcTable()?.filter((p) => p.pgrp === pgid);
}

/** Why a signal did not reach a process. */
export type SignalFailure = "gone" | "denied";

/**
 * Sends `signal` to the one process `pid` (0 only asks whether it could). Undefined when it was sent; "gone" when there is no
 * such process (it ended meanwhile), "denied" when it belongs to someone else (EPERM). Never
 * throws, like signalGroup.
 */
export function signalPid(pid: number, signal: NodeJS.Signals | 0): SignalFailure | undefined {
  // Never this server, and never "every process" (0 and negative pids mean groups to kill(2)).
  if (pid <= 1 || pid === process.pid) return "denied";
  try {
    process.kill(pid, signal);
    return undefined;
  } catch (err) {
    return errnoOf(err) === "ESRCH" ? "gone" : "denied";
  }
}

function errnoOf(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | undefined)?.code;
}
