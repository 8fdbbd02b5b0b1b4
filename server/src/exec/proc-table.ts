/**
 * Reading Linux's /proc: which processes exist, their parent, group and state, and the
 * containment marker in their environment. Everywhere else (no /proc) the readers say so by
 * returning undefined, and callers fall back to process groups alone.
 */
import { readdirSync, readFileSync } from "node:fs";

/** One process as /proc/<pid>/stat shows it. */
export interface ProcEntry {
  pid: number;
  ppid: number;
  pgrp: number;
  /** One letter: R running, S sleeping, D disk wait, T stopped, Z zombie, X dead... */
  state: string;
  /** The command name the kernel keeps (`comm`, at most 15 characters). */
  name: string;
}

/** Whether this system lists processes in /proc the way these readers expect. */
export function procAvailable(): boolean {
  return process.platform === "linux" && readPids() !== undefined;
}

/** The pids in /proc, or undefined where there is no /proc. */
export function readPids(): number[] | undefined {
  if (process.platform !== "linux") return undefined;
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return undefined;
  }
  const pids: number[] = [];
  for (const entry of entries) {
    const first = entry.charCodeAt(0);
    // Every pid entry starts with a digit; the rest (self, sys, meminfo...) do not.
    if (first >= 48 && first <= 57) pids.push(Number(entry));
  }
  return pids;
}

/** Every process with its stat fields, or undefined where there is no /proc. */
export function readProcTable(): ProcEntry[] | undefined {
  const pids = readPids();
  if (!pids) return undefined;
  const table: ProcEntry[] = [];
  for (const pid of pids) {
    const entry = readProcStat(pid);
    // Undefined: it ended between the listing and the read.
    if (entry) table.push(entry);
  }
  return table;
}

/** One process's stat fields, or undefined when it does not exist (or there is no /proc). */
export function readProcStat(pid: number): ProcEntry | undefined {
  if (process.platform !== "linux") return undefined;
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "latin1");
  } catch {
    return undefined;
  }
  // The command name is in parentheses and may itself contain spaces and parentheses.
  const close = text.lastIndexOf(")");
  const fields = text.slice(close + 2).split(" ");
  return { pid, state: fields[0] ?? "", ppid: Number(fields[1]), pgrp: Number(fields[2]), name: text.slice(text.indexOf("(") + 1, close) };
}

/** Whether a stat state means the process is dead (a zombie only waits to be reaped). */
export function isDead(state: string | undefined): boolean {
  return state === "Z" || state === "X" || state === "x";
}

/**
 * The value of environment variable `name` that process `pid` started with, from
 * /proc/<pid>/environ. Undefined when it has no such variable, or when its environment cannot
 * be read: it ended, it belongs to another user, it made itself undumpable (ssh-agent does), or
 * it is a kernel thread. A process that overwrote its environment block in memory (some daemons
 * do, to change the title ps shows) reads as what it wrote.
 */
export function readEnvironValue(pid: number, name: string): string | undefined {
  let environ: Buffer;
  try {
    environ = readFileSync(`/proc/${pid}/environ`);
  } catch {
    return undefined;
  }
  // Each entry is NAME=value and ends with a NUL; the first one has no NUL before it.
  const key = `${name}=`;
  let start: number;
  if (environ.subarray(0, key.length).toString("latin1") === key) start = key.length;
  else {
    const inner = environ.indexOf(`\0${key}`, 0, "latin1");
    if (inner < 0) return undefined;
    start = inner + 1 + key.length;
  }
  const end = environ.indexOf(0, start);
  return environ.toString("utf8", start, end < 0 ? environ.length : end);
}

/**
 * The pid the kernel handed out last in this pid namespace (the last field of /proc/loadavg),
 * or undefined where it cannot be read. Processes created after a given one have pids after
 * it in this cyclic order, which lets a sweep skip everything older.
 */
export function lastPidAllocated(): number | undefined {
  if (process.platform !== "linux") return undefined;
  try {
    const last = Number(readFileSync("/proc/loadavg", "latin1").trim().split(" ").pop());
    return Number.isInteger(last) && last > 0 ? last : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether `pid` was handed out after `after` and no later than `last`, in the kernel's cyclic
 * pid order (pids wrap around at pid_max).
 */
export function allocatedBetween(pid: number, after: number, last: number): boolean {
  return last >= after ? pid > after && pid <= last : pid > after || pid <= last;
}
