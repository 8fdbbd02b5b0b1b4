/**
 * Shared set-up of the gate tests: a scripted editor that answers permission prompts as told and
 * records them, a scripted classifier, capabilities of any class, and a gate over a temp project.
 */
import { mkdirSync, mkdtempSync, realpathSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { DEFAULT_CONFIG, type Config, type SafetyMode } from "../../../server/src/config/schema.js";
import type { Editor } from "../../../server/src/editor/editor.js";
import type { PermissionAnswer, PermissionRequest, Question } from "../../../server/src/editor/session-ui.js";
import type { CompletionRequest } from "../../../server/src/policy/classifier.js";
import { PolicyGate } from "../../../server/src/policy/gate.js";
import type { GateCall, GateSession, Trust } from "../../../server/src/policy/types.js";
import type { SessionUpdate } from "../../../server/src/protocol/updates.js";
import { SessionEvents } from "../../../server/src/editor/session-events.js";
import { defineTool } from "../../../server/src/tools/define-tool.js";
import type { Capability } from "../../../server/src/tools/types.js";
import type { PolicyClass } from "../../../server/src/vocabulary/policy.js";

/** An Editor that only answers prompts (the gate needs nothing else). */
export class PromptEditor implements Editor {
  readonly supportsResourceOperations = false;
  readonly permissions: PermissionRequest[] = [];
  readonly updates: SessionUpdate[] = [];
  readonly messages: string[] = [];
  /** The next answers, in order; when empty, `fallback`. */
  answers: (PermissionAnswer | ((r: PermissionRequest, signal: AbortSignal) => Promise<PermissionAnswer>))[] = [];
  fallback: PermissionAnswer = { optionId: "allow_once" };
  questionAnswer: string | undefined;
  questions: Question[] = [];

  async requestPermission(request: PermissionRequest, signal: AbortSignal): Promise<PermissionAnswer> {
    this.permissions.push(request);
    const next = this.answers.shift() ?? this.fallback;
    return typeof next === "function" ? next(request, signal) : next;
  }
  async askUser(question: Question): Promise<string | undefined> {
    this.questions.push(question);
    return this.questionAnswer;
  }
  /** The stream the gate reports to; what it carries is recorded in `updates`. */
  readonly events = new SessionEvents();
  constructor() {
    this.events.subscribe((_sessionId, event) => {
      if (event.kind !== "turn_end") this.updates.push(event);
    });
  }
  statuses(): string[] {
    return this.updates.flatMap((u) => (u.kind === "status" ? [u.text] : []));
  }
  showMessage(_type: string, message: string): void {
    this.messages.push(message);
  }
  async readDocument() {
    return undefined;
  }
  async openDocuments() {
    return [];
  }
  onDidChange() {
    return () => undefined;
  }
  async applyEdit() {
    return { applied: false, reason: "not in these tests" };
  }
  readonly canSaveDocuments = false;
  async saveDocuments() {
    return { saved: [], failed: [] };
  }
  takeNotices() {
    return [];
  }
  progress() {
    return { report() {}, done() {} };
  }
}

/** A classifier that answers from a script and records what it was asked. */
export class ScriptedClassifier {
  readonly requests: CompletionRequest[] = [];
  answer: string | ((r: CompletionRequest) => Promise<string>) = '{"decision": "allow", "reason": "routine"}';
  readonly complete = async (request: CompletionRequest): Promise<string> => {
    this.requests.push(request);
    return typeof this.answer === "function" ? this.answer(request) : this.answer;
  };
}

/** A temp project (real path) with a `src/` folder. */
export function tempRoot(): string {
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), "agent-lsp-policy-")));
  mkdirSync(path.join(root, "src"));
  return root;
}

/** A capability of `cls` whose input has an optional path and command. */
export function capability(cls: PolicyClass, options: { name?: string; metadata?: Record<string, unknown> } = {}): Capability {
  return defineTool({
    name: options.name ?? `t_${cls}`,
    description: `a ${cls} test tool`,
    input: z.object({ path: z.string().optional(), command: z.string().optional(), cwd: z.string().optional() }),
    policyClass: cls,
    category: "test",
    ...(options.metadata ? { metadata: options.metadata } : {}),
    execute: async () => "ran",
  });
}

let callCounter = 0;

/** A fresh call of `cap` with `input`. */
export function callOf(cap: Capability, input: unknown = {}): GateCall {
  return { id: `call-${++callCounter}`, name: cap.name, title: cap.title(input), input };
}

/** Everything a gate test holds. */
export interface GateFixture {
  gate: PolicyGate;
  editor: PromptEditor;
  classifier: ScriptedClassifier;
  config: Config;
  root: string;
  home: string;
  session(mode: SafetyMode, trust?: Trust | null, sessionId?: string): GateSession;
}

/** A gate over a new temp project. */
export function gateFixture(options: { root?: string; config?: Partial<Config>; branch?: string; home?: string | null } = {}): GateFixture {
  const root = options.root ?? tempRoot();
  const editor = new PromptEditor();
  const classifier = new ScriptedClassifier();
  const config: Config = { ...structuredClone(DEFAULT_CONFIG), ...options.config };
  // null: the gate's own default (the real home folder).
  const home = options.home === null ? os.homedir() : (options.home ?? path.join(os.tmpdir(), "agent-lsp-fake-home"));
  const gate = new PolicyGate({
    editor,
    events: editor.events,
    config: () => config,
    complete: classifier.complete,
    history: () => [{ role: "user", content: [{ type: "text", text: "please fix the failing test" }] }],
    ...(options.home === null ? {} : { home, env: {} }),
    currentBranch: () => options.branch ?? "feature",
  });
  return {
    gate,
    editor,
    classifier,
    config,
    root,
    home,
    session: (mode, trust = "operator", sessionId = "s-1") => ({ sessionId, mode, root, ...(trust ? { trust } : {}) }),
  };
}

/** A signal that never aborts. */
export const never = new AbortController().signal;
