/**
 * The process manager: one per server, in `ctx.services.processes`. It owns every process the
 * agent starts (foreground commands and background jobs), keyed by session, so a session only
 * ever reaches its own, by id, never by pid; and so shutdown can stop them all. Each command
 * carries a containment marker of this manager (exec/marker.ts), so a stop also finds what
 * left the command's process group.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { asStateError, ensureStateDir } from "../util/state-folder.js";
import { BackgroundJob, type JobOutput, type LogState, type WaitEnd } from "./background-job.js";
import { MIB } from "./capped-log.js";
import { DEFAULT_KILL_GRACE_MS } from "./kill.js";
import { MarkerOwner } from "./marker.js";
import { startCommand, type KillReason, type RunningCommand, type RunOptions } from "./runner.js";
import { Sandbox, type Launch } from "./sandbox/sandbox.js";
import { describeOutcome, type SandboxOutcome, type SandboxSettings } from "./sandbox/settings.js";
import { shellInvocation, type LaunchLine } from "./shell.js";
import { terminateTreeSync, type StopReport } from "./stop-tree.js";

/** The key of the manager in `ToolContext.services`. */
export const PROCESSES_SERVICE = "processes";

/** How the manager is set up (the server fills it from config). */
export interface ProcessManagerOptions {
  /** Config `exec.env_deny`: variable names (or `*` patterns) kept from every command. */
  envDeny?: readonly string[];
  /** Key variables that provider configs name (`api_key_env`), kept from every command too. */
  secretEnvNames?: readonly string[];
  /** Grace between SIGTERM and SIGKILL when one tree is stopped. */
  killGraceMs?: number;
  /** Grace of the synchronous stopAll (it blocks the thread, so it is short). */
  shutdownGraceMs?: number;
  /** The environment commands start from; the server's own by default. */
  baseEnv?: NodeJS.ProcessEnv;
  /** Config `exec.background_log_max_mb`, in bytes: what one background log keeps (the newest output). */
  backgroundLogMaxBytes?: number;
  /** `[exec] sandbox` and its neighbours; no sandbox when absent (the server always passes its config). */
  sandbox?: SandboxSettings;
}

/** Where a command runs, and whether the user let it out of the sandbox. */
export interface CommandPlace {
  /** Absolute folder it starts in (inside the project). */
  cwd: string;
  /** The project root: what the sandbox keeps writable (`cwd` when not given). */
  root?: string;
  /** The user approved running it outside the sandbox, for this reason. */
  outside?: string;
}

/** How a command was started: in the sandbox or not (and why), and what the sandbox refused it. */
export interface SandboxReport {
  outcome: SandboxOutcome;
  /** Sentences about what the sandbox refused, read from the command's output. */
  explain(output: string): string[];
}

/** What a background log keeps when the config does not say: 64 MiB. */
const DEFAULT_BACKGROUND_LOG_BYTES = 64 * MIB;

/** A foreground command as kill_command and /stop see it. */
export interface ForegroundInfo {
  id: string;
  toolCallId?: string;
  command: string;
  startedAt: number;
}

/**
 * A foreground command being killed; `settled` resolves once the stop is over, with what it
 * ended (undefined when the command had ended by itself and left nothing behind).
 */
export interface KilledForeground extends ForegroundInfo {
  settled: Promise<StopReport | undefined>;
}

/** One process (foreground or background) a stop reached, and what stopping it ended. */
export interface StoppedProcess {
  id: string;
  /** Undefined when it had ended by itself meanwhile and left nothing behind. */
  report: StopReport | undefined;
}

/** A background job as `list` shows it. */
export interface JobInfo {
  id: string;
  command: string;
  running: boolean;
  status: string;
  startedAt: number;
  /** The log, relative to the project root where it lies inside it. */
  log: string;
  /** "sandboxed", or "not sandboxed: why". */
  sandbox: string;
}

/** Thrown for an id the calling session does not own (whether or not another session does). */
export class UnknownProcessError extends Error {
  constructor(id: string) {
    super(`No background process "${id}" in this session. Call background_process with action "list" to see this session's processes.`);
  }
}

interface JobEntry {
  job: BackgroundJob;
  /** Project root the job was started for (its log path is shown relative to it). */
  root: string;
  launch: Launch;
}

interface ForegroundEntry extends ForegroundInfo {
  sessionId: string;
  running: RunningCommand;
}

/** Every process the agent started, per session. */
export class ProcessManager {
  private options: ProcessManagerOptions;
  private readonly jobs = new Map<string, JobEntry>();
  /** Ids chosen for jobs that are still starting, so two starts cannot pick the same one. */
  private readonly reservedIds = new Set<string>();
  private readonly foregrounds = new Map<string, ForegroundEntry>();
  private foregroundCount = 0;
  private closed = false;
  /** Marks every command of this manager, so shutdown finds all of them by one prefix. */
  private readonly owner = new MarkerOwner();
  /** The sandbox every process of this manager (and the server's git calls) starts in. */
  readonly sandbox: Sandbox;

  constructor(options: ProcessManagerOptions = {}) {
    this.options = { ...options };
    this.sandbox = new Sandbox(options.sandbox);
  }

  /** Updates settings (a config reload); running processes keep the environment they started with. */
  configure(options: ProcessManagerOptions): void {
    this.options = { ...this.options, ...options };
    if (options.sandbox) this.sandbox.configure(options.sandbox);
  }

  /** PATH of the environment commands start from (the sandbox looks for bwrap there). */
  get searchPath(): string | undefined {
    return (this.options.baseEnv ?? process.env).PATH;
  }

  /** How a command would run here: sandboxed, or not and why (before it is asked about). */
  sandboxOutlook(outside?: string): Promise<SandboxOutcome> {
    return this.sandbox.outlook(this.searchPath, outside);
  }

  /** Every variable name commands must not see, besides the built-in provider keys. */
  get envDeny(): string[] {
    return [...(this.options.envDeny ?? []), ...(this.options.secretEnvNames ?? [])];
  }

  /** Starts a foreground command for `sessionId`; it is listed until its result settles. */
  /**
   * Starts a foreground command for `sessionId` (in the sandbox unless it is off, cannot run here,
   * or the user let the command out); it is listed until its result settles. Throws
   * SandboxRequiredError when `[exec] sandbox = "required"` and it cannot be sandboxed.
   */
  async startForeground(
    sessionId: string,
    run: Omit<RunOptions, "envDeny" | "baseEnv" | "killGraceMs" | "program"> & CommandPlace,
    toolCallId?: string,
  ): Promise<RunningCommand & { id: string; sandbox: SandboxReport }> {
    this.refuseWhenClosed();
    const id = `fg-${++this.foregroundCount}`;
    const launch = await this.launch(run.command, run);
    const { root: _root, outside: _outside, ...options } = run;
    const running = await startCommand({
      ...options,
      envDeny: this.envDeny,
      baseEnv: this.options.baseEnv,
      killGraceMs: this.options.killGraceMs,
      marker: this.owner.token(id),
      program: launchLine(launch),
    });
    this.foregrounds.set(id, { id, sessionId, toolCallId, command: run.command, startedAt: running.startedAt, running });
    void running.result.finally(() => {
      this.foregrounds.delete(id);
      launch.release();
    });
    return Object.assign(running, { id, sandbox: { outcome: launch.outcome, explain: launch.explain } });
  }

  /**
   * The program line of `command` at `place`, through the sandbox, for a runner other than this
   * manager (the client's terminal); its `release` is the caller's to call once it ended.
   */
  launch(command: string, place: CommandPlace): Promise<Launch> {
    const shell = shellInvocation(command);
    return this.sandbox.launch({ file: shell.file, args: shell.args, cwd: place.cwd, root: place.root ?? place.cwd, searchPath: this.searchPath, ...(place.outside !== undefined ? { outside: place.outside } : {}) });
  }

  /** The session's foreground commands that are still running. */
  foregroundOf(sessionId: string): ForegroundInfo[] {
    return [...this.foregrounds.values()]
      .filter((f) => f.sessionId === sessionId)
      .map(({ id, toolCallId, command, startedAt }) => ({ id, toolCallId, command, startedAt }));
  }

  /**
   * Kills the session's running foreground commands (only the one whose id or tool call id is
   * `id`, when given); each one's result says it was killed and why. Returns those it killed.
   */
  killForeground(sessionId: string, reason: KillReason, id?: string): KilledForeground[] {
    const hits = [...this.foregrounds.values()].filter(
      (f) => f.sessionId === sessionId && (id === undefined || f.id === id || f.toolCallId === id),
    );
    return hits.map(({ id: fid, toolCallId, command, startedAt, running }) => {
      running.kill(reason);
      const settled = running.result.then((r) => r.killed?.stop ?? r.strays);
      return { id: fid, toolCallId, command, startedAt, settled };
    });
  }

  /** Starts a background job for `sessionId` in `cwd`, logging under `<root>/.agent-lsp/processes/`. */
  async startBackground(sessionId: string, spec: { command: string; root: string } & CommandPlace): Promise<JobInfo> {
    this.refuseWhenClosed();
    // The process logs hold command output: the state folder's .gitignore keeps them out of git.
    const logDir = processLogDir(spec.root);
    const id = this.newJobId(logDir);
    this.reservedIds.add(id);
    let launch: Launch | undefined;
    try {
      launch = await this.launch(spec.command, spec);
      const job = await BackgroundJob.start({
        id,
        sessionId,
        command: spec.command,
        cwd: spec.cwd,
        logPath: path.join(logDir, `${id}.log`),
        logMaxBytes: this.options.backgroundLogMaxBytes ?? DEFAULT_BACKGROUND_LOG_BYTES,
        envDeny: this.envDeny,
        baseEnv: this.options.baseEnv,
        killGraceMs: this.options.killGraceMs,
        marker: this.owner.token(id),
        program: launchLine(launch),
      });
      const entry = { job, root: spec.root, launch };
      void job.leaderExited.then(() => entry.launch.release());
      this.jobs.set(id, entry);
      // stopAll may have run while it started: it must not outlive the server.
      if (this.closed) await job.stop("the server shut down");
      return this.describe(entry);
    } catch (err) {
      launch?.release();
      throw err;
    } finally {
      this.reservedIds.delete(id);
    }
  }

  /** Sentences about what the sandbox refused a job, read from output of it. */
  explainJob(sessionId: string, id: string, output: string): string[] {
    return this.entry(sessionId, id).launch.explain(output);
  }

  /** The session's background jobs, oldest first. */
  list(sessionId: string): JobInfo[] {
    return [...this.jobs.values()].filter((e) => e.job.sessionId === sessionId).map((e) => this.describe(e));
  }

  /** One of the session's jobs, described. */
  info(sessionId: string, id: string): JobInfo {
    return this.describe(this.entry(sessionId, id));
  }

  /** Output written since the session last read this job (the newest 32 KiB of it). */
  read(sessionId: string, id: string): Promise<JobOutput> {
    return this.job(sessionId, id).read();
  }

  /** The newest output of a job for the user (/logs); does not change what `read` returns next. */
  peek(sessionId: string, id: string, maxBytes?: number): Promise<{ text: string; skippedBytes: number; log: LogState }> {
    return this.job(sessionId, id).peek(maxBytes);
  }

  /** Waits for exit, for `pattern` in new output, for the timeout or for the signal. */
  wait(
    sessionId: string,
    id: string,
    options: { pattern?: RegExp; timeoutMs: number; signal?: AbortSignal },
  ): Promise<{ end: WaitEnd; output: JobOutput }> {
    return this.job(sessionId, id).wait(options);
  }

  /** Stops every process of one job and says what that ended. Undefined when it had already ended. */
  stop(sessionId: string, id: string, reason: string): Promise<StopReport | undefined> {
    return this.job(sessionId, id).stop(reason);
  }

  /**
   * Stops everything the session runs: its background jobs and its foreground commands.
   * Returns what was still running, each with what stopping it ended.
   */
  async stopSession(sessionId: string, reason: string, killReason: KillReason = "stop"): Promise<StoppedProcess[]> {
    const fg = this.killForeground(sessionId, killReason);
    const jobs = [...this.jobs.values()]
      .map((e) => e.job)
      .filter((j) => j.sessionId === sessionId && j.isRunning());
    const stopped = [
      ...fg.map(async (f) => ({ id: f.id, report: await f.settled })),
      ...jobs.map(async (j) => ({ id: j.id, report: await j.stop(reason) })),
    ];
    return Promise.all(stopped);
  }

  /**
   * Stops every process of every session, synchronously enough for an `exit` handler: SIGTERM
   * to every process any command of this manager started (its groups, and everything carrying
   * this manager's marker), then SIGKILL to what is still alive after a short grace. Returns
   * what that ended, which is also what a foreground command's pending result reports (one
   * sweep covers them all, so its figures are the whole server's). After this the manager
   * starts nothing more.
   */
  stopAll(): StopReport {
    this.closed = true;
    const groups: number[] = [];
    for (const f of this.foregrounds.values()) if (f.running.pid !== undefined) groups.push(f.running.pid);
    for (const { job } of this.jobs.values()) {
      const pgid = job.groupId;
      if (pgid === undefined) continue;
      job.markStopped("the server shut down");
      groups.push(pgid);
    }
    // Finished commands may have left daemons outside any group: the marker finds them too.
    const everything = { groups, marked: (value: string) => this.owner.owns(value) };
    const report = terminateTreeSync(everything, this.options.shutdownGraceMs ?? Math.min(DEFAULT_KILL_GRACE_MS, 1000));
    for (const f of this.foregrounds.values()) f.running.kill("shutdown", report);
    return report;
  }

  private job(sessionId: string, id: string): BackgroundJob {
    return this.entry(sessionId, id).job;
  }

  private entry(sessionId: string, id: string): JobEntry {
    const entry = this.jobs.get(id);
    // Another session's job answers exactly like a job that does not exist.
    if (!entry || entry.job.sessionId !== sessionId) throw new UnknownProcessError(id);
    return entry;
  }

  private describe({ job, root, launch }: JobEntry): JobInfo {
    const rel = path.relative(root, job.logPath);
    return {
      id: job.id,
      command: job.command,
      running: job.isRunning(),
      status: job.status(),
      startedAt: job.startedAt,
      log: rel.startsWith("..") ? job.logPath : rel.split(path.sep).join("/"),
      sandbox: describeOutcome(launch.outcome),
    };
  }

  private newJobId(logDir: string): string {
    // Four digits read well (`bg-1234`); the log folder may hold ids of earlier servers, so
    // an id whose log exists is skipped rather than overwritten.
    for (let digits = 4; ; digits++) {
      for (let attempt = 0; attempt < 20; attempt++) {
        const n = 10 ** (digits - 1) + Math.floor(Math.random() * 9 * 10 ** (digits - 1));
        const id = `bg-${n}`;
        if (!this.jobs.has(id) && !this.reservedIds.has(id) && !existsSync(path.join(logDir, `${id}.log`))) return id;
      }
    }
  }

  private refuseWhenClosed(): void {
    if (this.closed) throw new Error("The server is shutting down; no new processes start.");
  }
}

/** The state folder's `processes/`, made when missing (never through a link). */
function processLogDir(root: string): string {
  try {
    return ensureStateDir(root, "processes");
  } catch (err) {
    throw asStateError(err, "Could not make the folder of background process logs");
  }
}

/** The process manager among a tool context's services, if the server provided one. */
export function processManagerFrom(services: Record<string, unknown>): ProcessManager | undefined {
  const candidate = services[PROCESSES_SERVICE];
  return candidate instanceof ProcessManager ? candidate : undefined;
}

/**
 * A launch as the runner starts it. On Linux the sandbox's PID namespace ends everything inside
 * with the shell; on macOS processes are not contained by the kernel, so leftovers are looked for.
 */
function launchLine(launch: Launch): LaunchLine {
  const contained = launch.outcome.sandboxed && process.platform === "linux";
  return { file: launch.file, args: launch.args, env: launch.env, contained };
}
