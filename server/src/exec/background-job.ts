/**
 * One background job: a command started detached in its own process group, with its
 * containment marker (exec/marker.ts), its stdout and stderr appended by the server to one
 * owner-only log file that keeps the newest `[exec] background_log_max_mb` (capped-log.ts). The
 * server keeps only the offset the agent has read to.
 */
import { loadExeca } from "./load-execa.js";
import { boundedRegexTest } from "../util/bounded-regex.js";
import type { ChildProcess } from "node:child_process";
import { StringDecoder } from "node:string_decoder";
import { AnsiStreamStripper, incompleteEscapeStart, stripAnsi } from "./ansi.js";
import { commandEnv } from "./env.js";
import { DEFAULT_KILL_GRACE_MS } from "./kill.js";
import { CappedLog } from "./capped-log.js";
import { completeUtf8Length, firstCharBoundary } from "./log-file.js";
import { carriesToken, markEnv } from "./marker.js";
import { shellLine, type LaunchLine } from "./shell.js";
import { terminateTree, type StopReport } from "./stop-tree.js";
import { TreeWatch, type TreeSpec } from "./tree.js";

/** Most output one read returns: the newest bytes win. */
const READ_LIMIT_BYTES = 32 * 1024;

/** How much unread output `wait` keeps in memory to match a pattern against. */
const SCAN_WINDOW_CHARS = 1024 * 1024;

/** How often `wait` looks at the log for new output. */
const WAIT_POLL_MS = 100;

/** Output handed to the agent by read or wait. */
export interface JobOutput {
  /** Decoded, ANSI stripped. */
  text: string;
  /** Unread bytes left out because more than the read limit had accumulated (or the cap dropped them). */
  skippedBytes: number;
  running: boolean;
  /** How the log is kept: its cap, the bytes it dropped so far, why it stopped (a full disk). */
  log: LogState;
}

/** The cap of a job's log and what it cost. */
export interface LogState {
  capBytes: number;
  droppedBytes: number;
  problem?: string;
}

/** Why a wait returned. */
export type WaitEnd = "exited" | "pattern" | "timeout" | "cancelled";

/** What starting a job needs. */
export interface JobSpec {
  id: string;
  sessionId: string;
  command: string;
  cwd: string;
  /** The log file (created new, 0600, in a folder the state folder made). */
  logPath: string;
  /** Most bytes the log keeps; older output is dropped. */
  logMaxBytes: number;
  envDeny?: readonly string[];
  baseEnv?: NodeJS.ProcessEnv;
  killGraceMs?: number;
  /** The job's containment token (exec/marker.ts), which every process it starts inherits. */
  marker: string;
  /** The program line running the shell, when not the shell itself (the sandbox's). */
  program?: LaunchLine;
}

/** A background job. Its pid stays inside this class: the agent only ever sees the id. */
export class BackgroundJob {
  readonly id: string;
  readonly sessionId: string;
  readonly command: string;
  readonly cwd: string;
  readonly logPath: string;
  readonly startedAt = Date.now();
  /** Settles when the shell (the group leader) has exited. */
  readonly leaderExited: Promise<void>;
  private exit?: { code: number | null; signal: NodeJS.Signals | null };
  private stoppedBecause?: string;
  private readOffset = 0;
  private readonly grace: number;
  private readonly tree: TreeSpec;
  private readonly watch: TreeWatch;

  private constructor(
    spec: JobSpec,
    private readonly child: ChildProcess,
    private readonly log: CappedLog,
  ) {
    this.id = spec.id;
    this.sessionId = spec.sessionId;
    this.command = spec.command;
    this.cwd = spec.cwd;
    this.logPath = spec.logPath;
    this.grace = spec.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
    this.tree = { groups: child.pid === undefined ? [] : [child.pid], marked: (value) => carriesToken(value, spec.marker) };
    this.watch = new TreeWatch(this.tree);
    this.leaderExited = new Promise((resolve) => {
      child.once("exit", (code, signal) => {
        this.exit = { code, signal };
        resolve();
      });
    });
  }

  /** Starts the job; resolves once the process exists, rejects when it could not start. */
  static async start(spec: JobSpec): Promise<BackgroundJob> {
    const { execa } = await loadExeca();
    const log = new CappedLog(spec.logPath, spec.logMaxBytes);
    const program = spec.program ?? shellLine(spec.command);
    // Pipes the server drains as output comes (the job never blocks on a reader), so the log can
    // keep a cap; the shell already sends stderr to stdout, which keeps their order.
    const child = execa(program.file, program.args, {
      cwd: spec.cwd,
      env: markEnv({ ...commandEnv(spec.baseEnv ?? process.env, spec.envDeny), ...program.env }, spec.marker),
      extendEnv: false,
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
      buffer: false,
      reject: false,
      detached: process.platform !== "win32",
      cleanup: false,
      windowsHide: true,
    });
    for (const stream of [child.stdout, child.stderr]) {
      stream?.on("data", (chunk: Buffer) => log.write(chunk));
      // The job must not keep a one-shot CLI alive through its pipes either.
      (stream as { unref?: () => void } | null)?.unref?.();
    }
    child.once("close", () => log.close());
    const started = await new Promise<true | string>((resolve) => {
      child.once("spawn", () => resolve(true));
      child.once("error", (err) => resolve(err.message));
    });
    if (started !== true) {
      const failure = (await child) as { originalMessage?: string };
      log.close();
      throw new Error((failure.originalMessage ?? started).split("\n")[0]);
    }
    // The job must not keep a one-shot CLI alive; the shutdown hooks stop it when we exit.
    child.unref();
    return new BackgroundJob(spec, child, log);
  }

  /** Group id of the tree, while it may still have members (for the manager's stopAll). */
  get groupId(): number | undefined {
    return this.isRunning() ? this.child.pid : undefined;
  }

  /** Whether the shell or anything it started (in its group or not) is still alive. */
  isRunning(): boolean {
    if (!this.exit) return true;
    if (this.child.pid === undefined) return false;
    // The shell may exit while what it started (`server &`, a `setsid` daemon) runs on. Once
    // nothing is seen, that is final: the group's number could later be reused by an unrelated
    // process.
    return this.watch.alive();
  }

  /** One line: running, or how it ended. */
  status(): string {
    if (this.isRunning()) return this.exit ? "running (the shell exited; processes it started still run)" : "running";
    const how = this.exit?.signal ? `ended by ${this.exit.signal}` : `exited with code ${this.exit?.code}`;
    return this.stoppedBecause ? `stopped (${this.stoppedBecause}), ${how}` : how;
  }

  /** Output written since the last read (the newest READ_LIMIT_BYTES of it); moves the offset. */
  async read(): Promise<JobOutput> {
    const running = this.isRunning();
    const total = this.log.total;
    const over = Math.max(total - this.readOffset - READ_LIMIT_BYTES, 0);
    const { bytes: buf, skipped } = this.log.read(this.readOffset + over, total);
    const skippedBytes = over + skipped;
    const start = skippedBytes ? firstCharBoundary(buf) : 0;
    // While it runs, a character or escape cut off at the end is left for the next read.
    let end = running ? completeUtf8Length(buf) : buf.length;
    let text = buf.subarray(start, end).toString("utf8");
    const cut = running ? incompleteEscapeStart(text) : -1;
    if (cut >= 0) {
      end -= Buffer.byteLength(text.slice(cut));
      text = text.slice(0, cut);
    }
    this.readOffset += skippedBytes + end;
    return { text: stripAnsi(text), skippedBytes: skippedBytes + start, running, log: this.logState() };
  }

  /** The log's cap and what it dropped. */
  logState(): LogState {
    const problem = this.log.problem;
    return { capBytes: this.log.maxBytes, droppedBytes: this.log.dropped, ...(problem ? { problem } : {}) };
  }

  /** The newest `maxBytes` of the whole log, ANSI stripped, without moving the read offset. */
  async peek(maxBytes = READ_LIMIT_BYTES): Promise<{ text: string; skippedBytes: number; log: LogState }> {
    const total = this.log.total;
    const from = Math.max(total - maxBytes, 0);
    const { bytes: buf, skipped } = this.log.read(from, total);
    const start = from ? firstCharBoundary(buf) : 0;
    return { text: stripAnsi(buf.subarray(start).toString("utf8")), skippedBytes: from + skipped + start, log: this.logState() };
  }

  /**
   * Waits until the job ends, `pattern` matches output written since the last read, `timeoutMs`
   * passes or `signal` aborts; then reads like `read`.
   */
  async wait(options: { pattern?: RegExp; timeoutMs: number; signal?: AbortSignal }): Promise<{ end: WaitEnd; output: JobOutput }> {
    const deadline = Date.now() + options.timeoutMs;
    const scan = options.pattern ? new PatternScan(this.log, this.readOffset, options.pattern) : undefined;
    let end: WaitEnd;
    for (;;) {
      if (scan && (await scan.matches())) end = "pattern";
      else if (!this.isRunning()) end = "exited";
      else if (options.signal?.aborted) end = "cancelled";
      else if (Date.now() >= deadline) end = "timeout";
      else {
        await pause(Math.min(WAIT_POLL_MS, deadline - Date.now()), options.signal);
        continue;
      }
      break;
    }
    // The pattern may have been written just before the exit: look once more.
    if (end === "exited" && scan && (await scan.matches())) end = "pattern";
    return { end, output: await this.read() };
  }

  /**
   * Stops every process of the job (SIGTERM, SIGKILL after the grace) and says what that ended.
   * Undefined when it had already ended.
   */
  async stop(reason: string): Promise<StopReport | undefined> {
    if (!this.isRunning()) return undefined;
    this.stoppedBecause ??= reason;
    const report = await terminateTree(this.tree, this.grace);
    // The exit event follows the group's end within a tick or two; wait for it briefly.
    await Promise.race([this.leaderExited, new Promise((r) => setTimeout(r, 500).unref())]);
    // Survivors keep it listed as running: that is the truth.
    if (!report.survivors.length) this.watch.markGone();
    return report;
  }

  /** Which processes are the job's, for a stop of many jobs at once (the manager's stopAll). */
  get treeSpec(): TreeSpec {
    return this.tree;
  }

  /** Records why the job is being stopped by someone else (the manager's synchronous stopAll). */
  markStopped(reason: string): void {
    this.stoppedBecause ??= reason;
  }
}

/** Sleeps `ms`, or less when `signal` aborts. */
function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, Math.max(ms, 1));
    signal?.addEventListener("abort", done, { once: true });
  });
}

/** Matches a pattern against unread output as it grows, decoding only the new bytes each time. */
class PatternScan {
  private readonly decoder = new StringDecoder("utf8");
  private readonly stripper = new AnsiStreamStripper();
  private text = "";

  constructor(
    private readonly log: CappedLog,
    private offset: number,
    private readonly pattern: RegExp,
  ) {}

  async matches(): Promise<boolean> {
    const total = this.log.total;
    if (total <= this.offset) return false;
    // Only what can still be in the window is read (at most 4 bytes a character).
    const { bytes: buf } = this.log.read(Math.max(this.offset, total - 4 * SCAN_WINDOW_CHARS), total);
    this.offset = total;
    this.text += this.stripper.push(this.decoder.write(buf));
    if (this.text.length > SCAN_WINDOW_CHARS) this.text = this.text.slice(-SCAN_WINDOW_CHARS);
    this.pattern.lastIndex = 0;
    return boundedRegexTest(this.pattern, this.text);
  }
}
