/**
 * A minimal ToolContext for the command tools: a real Workspace on a temp root, the shared fake
 * editor (with $/progress recorded), a gate the test controls, and a real ProcessManager.
 */
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ProgressHandle } from "../../../server/src/editor/session-ui.js";
import { PROCESSES_SERVICE, ProcessManager } from "../../../server/src/exec/processes.js";
import type { SandboxSettings } from "../../../server/src/exec/sandbox/settings.js";
import type { ToolContext } from "../../../server/src/tools/types.js";
import type { GatedAction, GateDecision } from "../../../server/src/vocabulary/policy.js";
import { Workspace } from "../../../server/src/workspace/workspace.js";
import { FakeEditor } from "../../helpers/fake-editor.js";

/** The fake editor, recording work-done progress too. */
export class ProgressRecordingEditor extends FakeEditor {
  readonly progressLog: { title: string; reports: string[]; done?: string }[] = [];

  override progress(title: string): ProgressHandle {
    const entry: { title: string; reports: string[]; done?: string } = { title, reports: [] };
    this.progressLog.push(entry);
    return {
      report: (message) => void entry.reports.push(message),
      done: (message) => {
        entry.done = message ?? "";
      },
    };
  }
}

/** A project folder (real path) that the test removes afterwards. */
export function tempRoot(): string {
  return realpathSync(mkdtempSync(path.join(os.tmpdir(), "agent-lsp-exec-")));
}

/** Everything a command tool test needs, and what the tools did with it. */
export interface FakeToolSetup {
  root: string;
  editor: ProgressRecordingEditor;
  processes: ProcessManager;
  /** Every action the tools asked the gate about. */
  authorized: GatedAction[];
  /** What the gate answers (allow by default). */
  decide: (action: GatedAction) => GateDecision;
  /** Every ctx.progress text. */
  progress: string[];
  /** A context for `sessionId`; pass a signal to cancel. */
  context(sessionId?: string, signal?: AbortSignal): ToolContext;
  dispose(): void;
}

/** Builds a setup on a fresh temp root. */
export function fakeToolSetup(options: { envDeny?: string[]; baseEnv?: NodeJS.ProcessEnv; sandbox?: SandboxSettings; root?: string } = {}): FakeToolSetup {
  const root = options.root ?? tempRoot();
  const editor = new ProgressRecordingEditor();
  const workspace = new Workspace(root, editor);
  const processes = new ProcessManager({ envDeny: options.envDeny, baseEnv: options.baseEnv, killGraceMs: 500, shutdownGraceMs: 300, sandbox: options.sandbox });
  const setup: FakeToolSetup = {
    root,
    editor,
    processes,
    authorized: [],
    decide: () => ({ allowed: true }),
    progress: [],
    context(sessionId = "session-a", signal = new AbortController().signal) {
      return {
        workspace,
        editor,
        sessionId,
        toolCallId: `call-${Math.random().toString(36).slice(2, 8)}`,
        signal,
        outputBudget: 50_000,
        authorize: async (action) => {
          setup.authorized.push(action);
          return setup.decide(action);
        },
        progress: (text) => void setup.progress.push(text),
        emit: () => undefined,
        services: { [PROCESSES_SERVICE]: processes },
      };
    },
    dispose() {
      processes.stopAll();
      rmSync(root, { recursive: true, force: true });
    },
  };
  return setup;
}

/** The text of a tool result. */
export function textOf(result: { content: { type: string; text?: string }[] }): string {
  return result.content.map((b) => b.text ?? "").join("\n");
}

/**
 * Whether `pid` is gone: no such process, or a zombie (dead, waiting to be reaped: where PID 1
 * does not reap, as in some containers, orphaned zombies linger).
 */
export function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ESRCH") return true;
    throw err;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    return false;
  }
}

/** Waits up to `ms` for every pid to be gone; returns those still alive. */
export async function survivors(pids: number[], ms = 0): Promise<number[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const alive = pids.filter((p) => !processGone(p));
    if (!alive.length || Date.now() >= deadline) return alive;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Integers printed one per line (pids a command echoed). */
export function pidsIn(text: string): number[] {
  return text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => /^\d+$/.test(l))
    .map(Number);
}

/** The pid a process wrote to `file` (one line), once it has; throws after `ms`. */
export async function pidFromFile(file: string, ms = 10_000): Promise<number> {
  const deadline = Date.now() + ms;
  for (;;) {
    const text = existsSync(file) ? readFileSync(file, "utf8") : "";
    if (/^\d+\n$/.test(text)) return Number(text);
    if (Date.now() > deadline) throw new Error(`no pid was written to ${file} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
