/**
 * No orphans: whatever way the server ends (LSP exit, a signal, the editor dying without a word),
 * every process the agent started is stopped with it, including those that left their
 * command's process group (the manager finds them by their marker). Only SIGKILL to the server
 * itself leaves no chance to do so.
 */
import { constants } from "node:os";
import { describeShutdownStop } from "./format.js";
import { pidAlive } from "./kill.js";
import type { StopReport } from "./stop-tree.js";

/** What the hooks need from the process manager. */
export interface StopsAll {
  /** Stops everything, synchronously; what it says it ended goes to the log. */
  stopAll(): StopReport | void;
}

/** Options of installShutdownHooks. */
export interface ShutdownHookOptions {
  /**
   * Pid to watch (the editor: `initialize.processId`). Defaults to the server's parent. When it
   * is gone, the server stops everything and exits.
   */
  parentPid?: number;
  /** How often the parent is checked. */
  pollMs?: number;
  /** How the server exits; `process.exit` by default (tests pass their own). */
  exit?: (code: number) => void;
  /** Where the line saying what shutdown stopped goes; stderr by default (stdout is protocol). */
  log?: (line: string) => void;
}

/** Handle of the installed hooks. */
export interface ShutdownHooks {
  /** Watches another pid from now on (when `initialize` names the editor's process). */
  watchParent(pid: number): void;
  /** Removes every handler and the watchdog. */
  dispose(): void;
}

const SIGNALS = ["SIGTERM", "SIGINT", "SIGHUP"] as const;

/**
 * Stops `processes` when the server exits (`exit` event), on SIGTERM/SIGINT/SIGHUP (then exits
 * with 128 + the signal number), and when the parent process disappears (then exits 0).
 */
export function installShutdownHooks(processes: StopsAll, options: ShutdownHookOptions = {}): ShutdownHooks {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const log = options.log ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const originalPpid = process.ppid;
  let watched = options.parentPid ?? originalPpid;

  const stopAll = () => {
    const line = describeShutdownStop(processes.stopAll());
    if (line) log(line);
  };
  const onExit = () => stopAll();
  process.on("exit", onExit);

  const onSignal = (signal: NodeJS.Signals) => {
    stopAll();
    exit(128 + (constants.signals[signal] ?? 15));
  };
  for (const signal of SIGNALS) process.on(signal, onSignal);

  const parentGone = () => {
    // Reparenting is certain proof the parent died, even if its pid was reused since.
    if (watched === originalPpid && process.ppid !== originalPpid) return true;
    return !pidAlive(watched);
  };
  const watchdog = setInterval(() => {
    if (!parentGone()) return;
    clearInterval(watchdog);
    stopAll();
    exit(0);
  }, options.pollMs ?? 1000);
  // The watchdog alone must not keep the server alive.
  watchdog.unref();

  return {
    watchParent(pid) {
      if (Number.isInteger(pid) && pid > 0) watched = pid;
    },
    dispose() {
      clearInterval(watchdog);
      process.off("exit", onExit);
      for (const signal of SIGNALS) process.off(signal, onSignal);
    },
  };
}
