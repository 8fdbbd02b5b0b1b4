/**
 * The real execute_command tool behind the real policy gate, the way the agent loop runs it
 * (check, then the tool's own authorize), in a temp project with a fake home folder. The editor
 * answers prompts from a script (No by default), so a test shows both that an attack is asked
 * and that, declined, it did not run.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { DEFAULT_CONFIG, type Config, type SafetyMode } from "../../server/src/config/schema.js";
import { PROCESSES_SERVICE, ProcessManager } from "../../server/src/exec/processes.js";
import type { SandboxSettings } from "../../server/src/exec/sandbox/settings.js";
import { PolicyGate } from "../../server/src/policy/gate.js";
import type { ApprovalRule } from "../../server/src/policy/rules.js";
import type { GateSession } from "../../server/src/policy/types.js";
import { executeCommandTool } from "../../server/src/tools/commands/execute-command.js";
import { Workspace } from "../../server/src/workspace/workspace.js";
import { FakeEditor } from "../helpers/fake-editor.js";
import { callOf, PromptEditor, ScriptedClassifier } from "../unit/policy/setup.js";

/** What one command run did. */
export interface RunOutcome {
  /** The tool result's text (`Command not run: ...` when refused). */
  text: string;
  /** How many prompts the run raised. */
  prompts: number;
  /** The summary of the last prompt it raised. */
  summary?: string;
}

/** A project, a fake home and a gate to run commands through. */
export interface CommandGate {
  root: string;
  home: string;
  /** A folder outside both, for links to point at. */
  outside: string;
  editor: PromptEditor;
  classifier: ScriptedClassifier;
  /** The gate itself, for calls of other tools in the same project. */
  gate: PolicyGate;
  session: GateSession;
  /** Environment commands and the gate see: HOME is the fake home, XDG_* unset unless given. */
  env: NodeJS.ProcessEnv;
  /** Remembers rules for this session, as "Yes, don't ask again" would. */
  remember(...programs: string[]): Promise<void>;
  rememberRules(rules: ApprovalRule[]): Promise<void>;
  /** Runs `command` through check and the tool's authorize, then (if allowed) for real; `extra` adds input fields. */
  run(command: string, cwd?: string, extra?: Record<string, unknown>): Promise<RunOutcome>;
  dispose(): void;
}

/** Where the gate's commands run, when not as before the sandbox. */
export interface GateSandbox {
  /** The sandbox's settings, given the fake home (policy/sensitive.ts's places are hidden). */
  settings(home: string): SandboxSettings;
  /** Where the project and the fake home go: outside /tmp, which is a private folder in the sandbox. */
  under: string;
}

/**
 * Builds a CommandGate in `mode`; `env` adds variables (XDG_CONFIG_HOME ...), given the outside
 * folder. Without `sandbox`, commands run as with `[exec] sandbox = "off"`.
 */
export function commandGate(mode: SafetyMode, env: (outside: string) => NodeJS.ProcessEnv = () => ({}), sandbox?: GateSandbox): CommandGate {
  const base = realpathSync(mkdtempSync(path.join(sandbox?.under ?? os.tmpdir(), "agent-lsp-sec-")));
  const root = path.join(base, "project");
  const home = path.join(base, "home");
  const outside = path.join(base, "outside");
  for (const dir of [root, home, outside]) mkdirSync(dir);
  const fullEnv: NodeJS.ProcessEnv = { ...withoutXdg(process.env), HOME: home, ...env(outside) };
  const editor = new PromptEditor();
  editor.fallback = { optionId: "reject" };
  const classifier = new ScriptedClassifier();
  const config: Config = structuredClone(DEFAULT_CONFIG);
  const gate = new PolicyGate({ editor, events: editor.events, config: () => config, complete: classifier.complete, home, env: fullEnv, currentBranch: () => "feature" });
  const session: GateSession = { sessionId: "s-1", mode, trust: "operator", root };
  const workspace = new Workspace(root, new FakeEditor());
  const processes = new ProcessManager({ baseEnv: fullEnv, killGraceMs: 500, shutdownGraceMs: 300, ...(sandbox ? { sandbox: sandbox.settings(home) } : {}) });
  const signal = new AbortController().signal;

  async function run(command: string, cwd?: string, extra: Record<string, unknown> = {}): Promise<RunOutcome> {
    const before = editor.permissions.length;
    const input = { command, ...(cwd === undefined ? {} : { cwd }), ...extra };
    const call = callOf(executeCommandTool, input);
    const started = await gate.check(session, call, executeCommandTool, signal);
    const result = started.allowed
      ? await executeCommandTool.execute(input, {
          workspace,
          editor: new FakeEditor(),
          sessionId: session.sessionId,
          toolCallId: call.id,
          signal,
          outputBudget: 50_000,
          authorize: (action) => gate.authorize(session, call, executeCommandTool, action, signal),
          progress: () => undefined,
          emit: () => undefined,
          services: { [PROCESSES_SERVICE]: processes },
        })
      : { content: [{ type: "text" as const, text: `Command not run: ${started.reason}` }] };
    const text = result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
    const prompts = editor.permissions.length - before;
    return { text, prompts, ...(prompts ? { summary: editor.permissions.at(-1)!.summary } : {}) };
  }

  return {
    root,
    home,
    outside,
    editor,
    classifier,
    gate,
    session,
    env: fullEnv,
    remember: (...programs) => gate.book.remember(session, programs.map((program) => ({ kind: "program", program })), false),
    rememberRules: (rules) => gate.book.remember(session, rules, false),
    run,
    dispose() {
      processes.stopAll();
      rmSync(base, { recursive: true, force: true });
    },
  };
}

function withoutXdg(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !name.startsWith("XDG_")));
}
