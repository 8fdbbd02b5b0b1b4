/**
 * The foreground command runner: one shell command, its output interleaved and capped, and
 * every process it started (its group, and what left the group: tree.ts) stopped on timeout or
 * cancel, or when the shell exits and leaves them behind. Background jobs live in
 * background-job.ts.
 */
import { loadExeca } from "./load-execa.js";
import type { Readable } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import { AnsiStreamStripper } from "./ansi.js";
import { commandEnv } from "./env.js";
import { DEFAULT_KILL_GRACE_MS } from "./kill.js";
import { carriesToken, markEnv, MarkerOwner } from "./marker.js";
import { OutputBuffer } from "./output-buffer.js";
import { shellLine, type LaunchLine } from "./shell.js";
import { terminateTree, type StopReport } from "./stop-tree.js";
import { leftoversAlive, type TreeSpec } from "./tree.js";

/** Why a command was killed before it ended by itself. */
export type KillReason = "timeout" | "cancelled" | "kill_command" | "stop" | "shutdown";

/** What to run and how. */
export interface RunOptions {
  command: string;
  /** Absolute working directory (the caller checks it lies inside the project). */
  cwd: string;
  timeoutMs: number;
  /** Aborting it kills the tree (agent/cancel). */
  signal?: AbortSignal;
  /** Variable names (or `*` patterns) removed from the environment besides the provider keys. */
  envDeny?: readonly string[];
  /** The environment to start from; the server's own by default. */
  baseEnv?: NodeJS.ProcessEnv;
  /** Cap of the kept output (head + tail) in bytes. */
  maxOutputBytes?: number;
  /** Grace between SIGTERM and SIGKILL. */
  killGraceMs?: number;
  /**
   * The command's containment token (exec/marker.ts), which every process it starts inherits.
   * The process manager passes one; a command run on its own gets one of its own.
   */
  marker?: string;
  /**
   * The program line that runs the shell, when not the shell itself: the sandbox's
   * (exec/sandbox/), with variables it adds.
   */
  program?: LaunchLine;
}


/** How a command ended. */
export interface CommandResult {
  /** Exit code, or null when a signal ended it (or it never started). */
  exitCode: number | null;
  /** The signal that ended the shell, such as `SIGTERM`. */
  signal: NodeJS.Signals | null;
  /** stdout and stderr interleaved, ANSI stripped, the middle cut when it was too long. */
  output: string;
  /** Bytes cut from the middle of `output`. */
  droppedBytes: number;
  durationMs: number;
  /** Set when the tree was killed: why, in words, and what the stop ended (and did not). */
  killed?: { reason: KillReason; message: string; stop: StopReport };
  /** The shell exited but left processes running (in its group or outside it); they were stopped. */
  strays?: StopReport;
  /** The command could not be started at all (bad cwd, no shell). */
  spawnError?: string;
}

/** A command that is running. */
export interface RunningCommand {
  /** Pid of the shell, which is also the process group id of the whole tree. */
  readonly pid: number | undefined;
  readonly startedAt: number;
  /** Settles once the command ended and its tree is gone. Never rejects. */
  readonly result: Promise<CommandResult>;
  /** The newest output so far (ANSI stripped), at most `maxChars` characters. */
  recentOutput(maxChars: number): string;
  /**
   * Stops every process of the command (SIGTERM, SIGKILL after the grace); the result says why.
   * `stoppedBy` is the outcome of a stop someone else already made that covered this command
   * (the manager's shutdown sweep): the result then reports that instead of stopping again.
   */
  kill(reason: KillReason, stoppedBy?: StopReport): void;
}

/** Starts `options.command` in its own process group. */
export async function startCommand(options: RunOptions): Promise<RunningCommand> {
  const startedAt = Date.now();
  const output = new OutputBuffer(options.maxOutputBytes);
  if (options.signal?.aborted) {
    const stop: StopReport = { counted: true, stopped: [], leftGroup: [], survivors: [], escalated: false };
    const result = notStarted(startedAt, output, { reason: "cancelled", message: killMessage("cancelled", options), stop });
    return { pid: undefined, startedAt, result: Promise.resolve(result), recentOutput: () => "", kill: () => {} };
  }

  // Loaded here, not at module top: server start-up should not pay for execa.
  const { execa } = await loadExeca();
  const program = options.program ?? shellLine(options.command);
  const token = options.marker ?? standaloneToken();
  const child = execa(program.file, program.args, {
    cwd: options.cwd,
    env: markEnv({ ...commandEnv(options.baseEnv ?? process.env, options.envDeny), ...program.env }, token),
    extendEnv: false,
    // No stdin: a command that prompts gets EOF instead of hanging the turn.
    stdin: "ignore",
    buffer: false,
    reject: false,
    stripFinalNewline: false,
    // Own process group on Unix, so the tree can be signalled as one (Windows uses taskkill /T).
    detached: process.platform !== "win32",
    cleanup: false,
    windowsHide: true,
  });
  // With reject: false the promise resolves even when spawning fails; it carries the reason.
  const settled: Promise<{ originalMessage?: string; message?: string }> = child.then(
    (r) => r,
    (err: unknown) => err as { message?: string },
  );

  const streams = [child.stdout, child.stderr].filter((s): s is Readable => s != null);
  const streamsClosed = Promise.all(streams.map(collectInto(output)));

  let shellExited = false;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null } | { error: true }>((resolve) => {
    child.once("exit", (code, signal) => {
      shellExited = true;
      resolve({ code, signal });
    });
    child.once("error", () => resolve({ error: true }));
  });

  const tree: TreeSpec = { groups: child.pid === undefined ? [] : [child.pid], marked: (value) => carriesToken(value, token) };
  let killing: { reason: KillReason; outcome: Promise<StopReport> } | undefined;
  let over = false;
  const grace = options.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
  const kill = (reason: KillReason, stoppedBy?: StopReport) => {
    // Once the shell exited the command finished on its own (leftovers are stopped anyway), and
    // after the result settles the pid may belong to someone else: never signal it then.
    if (killing || over || shellExited || child.pid === undefined) return;
    killing = { reason, outcome: stoppedBy ? Promise.resolve(stoppedBy) : terminateTree(tree, grace) };
  };
  const timer = setTimeout(() => kill("timeout"), options.timeoutMs);
  const onAbort = () => kill("cancelled");
  options.signal?.addEventListener("abort", onAbort, { once: true });

  const result = (async (): Promise<CommandResult> => {
    const exit = await exited;
    clearTimeout(timer);
    if ("error" in exit) {
      over = true;
      options.signal?.removeEventListener("abort", onAbort);
      const failure = await settled;
      const reason = failure.originalMessage ?? failure.message ?? "could not start the command";
      return notStarted(startedAt, output, undefined, reason.split("\n")[0]);
    }
    // The pipes close right after the shell exits, unless a process it left behind holds them.
    await within(streamsClosed, 100);
    let strays: StopReport | undefined;
    const ranMs = Date.now() - startedAt;
    if (!killing && !program.contained && child.pid !== undefined && process.platform !== "win32" && leftoversAlive(tree, child.pid, ranMs)) {
      // A foreground command's tree ends with it: leftovers (daemons included) would outlive the
      // turn unseen.
      strays = await terminateTree(tree, grace);
    }
    const stop = killing && (await killing.outcome);
    over = true;
    options.signal?.removeEventListener("abort", onAbort);
    // A daemon outside the group could hold the pipes forever; stop reading after a moment.
    if (!(await within(streamsClosed, 200))) for (const s of streams) s.destroy();
    return {
      exitCode: exit.code,
      signal: exit.signal,
      output: output.text(),
      droppedBytes: output.droppedBytes,
      durationMs: Date.now() - startedAt,
      killed: killing && stop && { reason: killing.reason, message: killMessage(killing.reason, options), stop },
      strays,
    };
  })();

  return {
    pid: child.pid,
    startedAt,
    result,
    recentOutput: (maxChars) => output.recent(maxChars),
    kill,
  };
}

let standaloneOwner: MarkerOwner | undefined;
let standaloneCount = 0;

/** A token for a command run without a process manager (tests, one-off runs). */
function standaloneToken(): string {
  standaloneOwner ??= new MarkerOwner();
  return standaloneOwner.token(`run-${++standaloneCount}`);
}


/** Runs a command to its end. */
export async function runCommand(options: RunOptions): Promise<CommandResult> {
  return (await startCommand(options)).result;
}

/** Why a command was killed, as the result says it. */
function killMessage(reason: KillReason, options: Pick<RunOptions, "timeoutMs">): string {
  switch (reason) {
    case "timeout":
      return `timed out after ${formatSeconds(options.timeoutMs)}`;
    case "cancelled":
      return "cancelled by the user";
    case "kill_command":
      return "stopped by kill_command";
    case "stop":
      return "stopped by /stop";
    case "shutdown":
      return "the server shut down";
  }
}

/** `120 s`, `1.5 s`. */
export function formatSeconds(ms: number): string {
  const secs = ms / 1000;
  return `${Number.isInteger(secs) ? secs : secs.toFixed(1)} s`;
}

/** Feeds one stream into the shared buffer in arrival order; resolves when the stream closes. */
function collectInto(output: OutputBuffer): (stream: Readable) => Promise<void> {
  return (stream) =>
    new Promise<void>((resolve) => {
      // One decoder and stripper per stream: a character or escape split across two chunks of
      // stdout must not be joined with a chunk of stderr that arrived in between.
      const decoder = new StringDecoder("utf8");
      const stripper = new AnsiStreamStripper();
      stream.on("data", (chunk: Buffer | string) => {
        output.push(stripper.push(typeof chunk === "string" ? chunk : decoder.write(chunk)));
      });
      stream.once("close", () => {
        output.push(stripper.push(decoder.end()) + stripper.flush());
        resolve();
      });
      stream.once("error", () => {});
    });
}

/** Whether `promise` settled within `ms` (the timer does not outlive the race). */
async function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true as const), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function notStarted(
  startedAt: number,
  output: OutputBuffer,
  killed?: CommandResult["killed"],
  spawnError?: string,
): CommandResult {
  return {
    exitCode: null,
    signal: null,
    output: output.text(),
    droppedBytes: 0,
    durationMs: Date.now() - startedAt,
    killed,
    spawnError,
  };
}
