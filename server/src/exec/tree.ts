/**
 * Which processes belong to a command (or to a whole server): its process group, every process
 * carrying its marker (exec/marker.ts) wherever it went, and every descendant of those still
 * parented to them (which catches children that cleared their environment, `env -i ...`).
 * Linux only: elsewhere the readers return undefined and callers use the process group alone.
 */
import { groupAlive, pidAlive } from "./kill.js";
import { MARKER_VAR } from "./marker.js";
import { allocatedBetween, isDead, lastPidAllocated, readEnvironValue, readPids, readProcStat, readProcTable, type ProcEntry } from "./proc-table.js";

/** What identifies a tree of processes. */
export interface TreeSpec {
  /** Process groups led by the tree's shells (each shell's pid). */
  groups: readonly number[];
  /** Whether an `AGENT_LSP_PROC` value belongs to the tree. */
  marked(value: string): boolean;
}

/** A live process of a tree. */
export interface Member {
  pid: number;
  /** Its process group when it was found. */
  pgrp: number;
  /** It had left the tree's process groups (setsid, setpgid, a daemon's double fork). */
  outsideGroups: boolean;
  /** Its command name (`comm`). */
  name: string;
}

/**
 * Whether a member is the sandbox itself (exec/sandbox/: bwrap outside and as the namespace's
 * first process) rather than something the command started: stopped with the rest, never
 * counted in what a stop says it ended.
 */
export function isSandboxProcess(member: Member): boolean {
  return member.name === "bwrap";
}

/** Whether Linux's /proc shows process `pid` carrying a marker the spec claims. */
function carriesMarker(pid: number, spec: TreeSpec): boolean {
  const value = readEnvironValue(pid, MARKER_VAR);
  return value !== undefined && spec.marked(value);
}

/**
 * The live members of the tree (never this server process itself), or undefined where there is
 * no /proc to look in.
 */
export function findMembers(spec: TreeSpec): Member[] | undefined {
  const table = readProcTable();
  if (!table) return undefined;
  const live = table.filter((p) => !isDead(p.state) && p.pid !== process.pid);
  const inGroups = (p: ProcEntry) => spec.groups.includes(p.pgrp);
  const seeds = live.filter((p) => inGroups(p) || carriesMarker(p.pid, spec));
  const members = withDescendants(seeds, live);
  return members.map((p) => ({ pid: p.pid, pgrp: p.pgrp, outsideGroups: !inGroups(p), name: p.name }));
}

/** `seeds` and every process below them in the parent tree of `live`. */
function withDescendants(seeds: ProcEntry[], live: ProcEntry[]): ProcEntry[] {
  const children = new Map<number, ProcEntry[]>();
  for (const p of live) {
    const siblings = children.get(p.ppid);
    if (siblings) siblings.push(p);
    else children.set(p.ppid, [p]);
  }
  const found = new Map(seeds.map((p) => [p.pid, p]));
  const queue = [...seeds];
  for (let next = queue.pop(); next; next = queue.pop()) {
    for (const child of children.get(next.pid) ?? []) {
      if (found.has(child.pid)) continue;
      found.set(child.pid, child);
      queue.push(child);
    }
  }
  return [...found.values()];
}

/**
 * Whether anything of the tree outlived its shell, cheaply enough for every command's normal
 * end: one signal asks the group; marked processes outside it are looked for only among the
 * pids handed out after the shell's (a handful, not the whole machine), unless the command ran
 * long enough (`ranMs`) that pids might have wrapped all the way around. Without /proc, the
 * group alone answers.
 */
export function leftoversAlive(spec: TreeSpec, shellPid: number, ranMs: number): boolean {
  if (spec.groups.some(groupAlive)) return true;
  const pids = readPids();
  if (!pids) return false;
  const last = ranMs < NARROW_SCAN_MAX_MS ? lastPidAllocated() : undefined;
  const candidates = last === undefined ? pids : pids.filter((pid) => allocatedBetween(pid, shellPid, last));
  return candidates.some((pid) => pid !== process.pid && carriesMarker(pid, spec) && !isDead(readProcStat(pid)?.state));
}

/**
 * Below this run time the leftover check trusts pid order: wrapping through pid_max (32768 at
 * the least) within a second would take a command forking tens of thousands of processes.
 */
const NARROW_SCAN_MAX_MS = 1000;

/**
 * Whether a tree still has live members, cheap enough to ask every 100 ms (background jobs are
 * polled while waited for): the group is asked with one signal, members already found outside
 * it by pid, and /proc is searched again only when those are all gone. Once nothing is found,
 * the answer is final: nothing marked is left to start anything new.
 */
export class TreeWatch {
  private known: number[] = [];
  private gone = false;

  constructor(private readonly spec: TreeSpec) {}

  /** Whether any member is alive. */
  alive(): boolean {
    if (this.gone) return false;
    if (this.spec.groups.some(groupAlive) || this.known.some(pidAlive)) return true;
    this.known = findMembers(this.spec)?.map((m) => m.pid) ?? [];
    this.gone = this.known.length === 0;
    return !this.gone;
  }

  /** Records that the tree was stopped and seen gone. */
  markGone(): void {
    this.gone = true;
  }
}
