/**
 * Stopping a tree of processes (tree.ts says which) and saying truthfully what happened:
 * SIGTERM to every member, SIGKILL after the grace to whatever is still alive, members looked
 * for again on every round (a process may fork while it is being stopped), and a last look
 * afterwards for survivors. One procedure, driven asynchronously for tools and synchronously for
 * exit handlers, where nothing asynchronous runs any more.
 */
import { spawnSync } from "node:child_process";
import { groupAlive, signalGroup, signalPid, sleepSync } from "./kill.js";
import { procAvailable, readProcStat } from "./proc-table.js";
import { findMembers, isSandboxProcess, type Member, type TreeSpec } from "./tree.js";

/** A process still alive after the stop, and why it could not be stopped. */
export interface Survivor {
  pid: number;
  why: string;
}

/** What a stop ended, and what it could not. */
export interface StopReport {
  /**
   * False where processes cannot be listed (no /proc: macOS, the BSDs, Windows): then only
   * the process groups were signalled, `stopped` and `leftGroup` are empty, and processes that
   * left the groups were not looked for.
   */
  counted: boolean;
  /** Pids that were alive when the stop began (or appeared during it) and are gone now. */
  stopped: number[];
  /** Those of `stopped` that had left the command's process group. */
  leftGroup: number[];
  /** Still alive after SIGKILL: pids (or, uncounted, process groups), each with why. */
  survivors: Survivor[];
  /** SIGTERM was not enough and SIGKILL was sent. */
  escalated: boolean;
}

/** Several stops as one: what any of them ended, what survived any of them. */
export function mergeStopReports(reports: readonly StopReport[]): StopReport {
  return {
    counted: reports.every((r) => r.counted),
    stopped: reports.flatMap((r) => r.stopped),
    leftGroup: reports.flatMap((r) => r.leftGroup),
    survivors: reports.flatMap((r) => r.survivors),
    escalated: reports.some((r) => r.escalated),
  };
}

/** How long SIGKILL rounds go on before what is left counts as a survivor. */
const KILL_ROUNDS_MS = 1000;

/**
 * Stops the tree: SIGTERM, SIGKILL after `graceMs` to what is left. Resolves once every member
 * is gone or has been reported as a survivor. The first round (finding the members, SIGTERM)
 * happens before this returns, so a caller that exits right after has at least sent it.
 */
export async function terminateTree(spec: TreeSpec, graceMs: number): Promise<StopReport> {
  const steps = stopSteps(spec, graceMs, false);
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done) return step.value;
    await new Promise((resolve) => setTimeout(resolve, step.value));
  }
}

/** terminateTree without yielding to the event loop, for `exit` handlers (blocks the thread). */
export function terminateTreeSync(spec: TreeSpec, graceMs: number): StopReport {
  const steps = stopSteps(spec, graceMs, true);
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done) return step.value;
    sleepSync(step.value);
  }
}

/** The stop procedure; it yields the milliseconds to pause between rounds. */
function* stopSteps(spec: TreeSpec, graceMs: number, sync: boolean): Generator<number, StopReport, void> {
  if (process.platform === "win32") return stopWindowsTrees(spec.groups, sync);
  if (!procAvailable()) return yield* stopGroupsOnly(spec.groups, graceMs);
  const census = new Census(spec);
  census.signal("SIGTERM");
  const graceEnd = Date.now() + graceMs;
  for (let pause = 10; census.anyAlive() && Date.now() < graceEnd; pause = Math.min(pause * 2, 100)) {
    yield Math.max(Math.min(pause, graceEnd - Date.now()), 1);
    // Whatever was forked since the last look gets its SIGTERM too.
    census.signal("SIGTERM");
  }
  if (!census.anyAlive()) return census.report(false);
  const killEnd = Date.now() + KILL_ROUNDS_MS;
  do {
    census.signal("SIGKILL", true);
    // SIGKILL cannot be refused, but it lands asynchronously.
    yield 10;
    census.look();
  } while (census.anyAlive() && Date.now() < killEnd);
  return census.report(true);
}

/** The members of a tree seen during one stop, and what signalling them did. */
class Census {
  private readonly seen = new Map<number, Member>();
  private readonly signalled = new Set<number>();
  private alive: Member[] = [];

  constructor(private readonly spec: TreeSpec) {}

  /** Looks for the live members again. */
  look(): void {
    this.alive = findMembers(this.spec) ?? [];
    for (const m of this.alive) if (!this.seen.has(m.pid)) this.seen.set(m.pid, m);
  }

  anyAlive(): boolean {
    return this.alive.length > 0;
  }

  /**
   * Looks again (unless `again`: SIGKILL rounds look after the pause), then sends `signal` to
   * every live member not yet signalled (to all of them with `again`). A group with members is
   * signalled as one, which also reaches a child forked between the look and the signal.
   */
  signal(signal: NodeJS.Signals, again = false): void {
    if (!again) this.look();
    const targets = this.alive.filter((m) => again || !this.signalled.has(m.pid));
    const groups = new Set(this.spec.groups.filter((pgid) => targets.some((m) => m.pgrp === pgid)));
    for (const pgid of groups) signalGroup(pgid, signal);
    for (const m of targets) {
      this.signalled.add(m.pid);
      if (!groups.has(m.pgrp)) signalPid(m.pid, signal);
    }
  }

  report(escalated: boolean): StopReport {
    const alive = new Set(this.alive.map((m) => m.pid));
    const stopped = [...this.seen.values()].filter((m) => !alive.has(m.pid) && !isSandboxProcess(m));
    return {
      counted: true,
      stopped: stopped.map((m) => m.pid),
      leftGroup: stopped.filter((m) => m.outsideGroups).map((m) => m.pid),
      survivors: this.alive.map((m) => ({ pid: m.pid, why: this.whyAlive(m.pid) })),
      escalated,
    };
  }

  private whyAlive(pid: number): string {
    if (signalPid(pid, 0) === "denied") return "not ours to signal (it runs as another user)";
    const state = readProcStat(pid)?.state;
    // D: uninterruptible sleep, where even SIGKILL waits for the kernel call to return.
    if (state === "D") return "alive after SIGKILL, in uninterruptible sleep (state D)";
    return `alive after SIGKILL${state ? ` (state ${state})` : ""}`;
  }
}

/** Without /proc: SIGTERM to each group, SIGKILL after the grace; members cannot be counted. */
function* stopGroupsOnly(groups: readonly number[], graceMs: number): Generator<number, StopReport, void> {
  let alive = groups.filter((pgid) => signalGroup(pgid, "SIGTERM"));
  const graceEnd = Date.now() + graceMs;
  for (let pause = 10; alive.length && Date.now() < graceEnd; pause = Math.min(pause * 2, 100)) {
    yield Math.max(Math.min(pause, graceEnd - Date.now()), 1);
    alive = alive.filter(groupAlive);
  }
  const escalated = alive.length > 0;
  for (const pgid of alive) signalGroup(pgid, "SIGKILL");
  const killEnd = Date.now() + KILL_ROUNDS_MS;
  while (alive.length && Date.now() < killEnd) {
    yield 10;
    alive = alive.filter(groupAlive);
  }
  const survivors = alive.map((pgid) => ({ pid: pgid, why: "its process group is still alive after SIGKILL" }));
  return { counted: false, stopped: [], leftGroup: [], survivors, escalated };
}

/**
 * Windows: `taskkill /T /F` ends each tree at once (console programs ignore a polite close);
 * waited for only in exit handlers, where the process would otherwise end before it ran.
 */
function stopWindowsTrees(roots: readonly number[], sync: boolean): StopReport {
  for (const pid of roots) {
    if (sync) spawnSync("taskkill", ["/pid", String(pid), "/T", "/F"], { stdio: "ignore", windowsHide: true });
    else signalGroup(pid, "SIGKILL");
  }
  return { counted: false, stopped: [], leftGroup: [], survivors: [], escalated: false };
}
