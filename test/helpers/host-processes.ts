/**
 * Finding a command's processes from outside, as the machine sees them: a command that runs in
 * the sandbox has its own PID namespace, so the pids it could write down (`echo $$`) mean nothing
 * out here. A test gives each process a unique `sleep` duration instead and finds it in /proc.
 */
import { readdirSync, readFileSync } from "node:fs";
import { processGone } from "../unit/exec/fake-context.js";

/** A `sleep` duration no other process on the machine has (long enough for any test). */
export function uniqueSleep(): string {
  return `${1000 + Math.floor(Math.random() * 8000)}.${Math.floor(Math.random() * 1e6)}`;
}

/** The live processes `sleep <duration>` (not the shells whose command lines mention it). */
export function sleepersOf(duration: string): number[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      const argv = argvOf(pid);
      return argv.length === 2 && /(^|\/)sleep$/.test(argv[0]!) && argv[1] === duration;
    })
    .map(Number)
    .filter((pid) => !processGone(pid));
}

/** Waits until `count` processes `sleep <duration>` run; returns their pids. */
export async function waitForSleepers(duration: string, count = 1, ms = 10_000): Promise<number[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = sleepersOf(duration);
    if (found.length >= count) return found;
    if (Date.now() > deadline) throw new Error(`${count} process(es) "sleep ${duration}" never ran (found ${found.length})`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function argvOf(pid: string): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").slice(0, -1);
  } catch {
    return [];
  }
}
