/**
 * Runs the code-action commands (agent.fix, agent.explain, agent.refactor, agent.tests): one
 * session per document (or the caller's session), a prompt carrying the file, range, selected
 * text and diagnostics, work-done progress for the run, and a window/showMessage summary for
 * clients that have no chat UI to show the streamed answer in.
 */
import path from "node:path";
import type { CancellationToken, ClientCapabilities } from "vscode-languageserver/node.js";
import { z } from "zod";
import type { Agent } from "../agent/agent.js";
import { AgentRequestError, ErrorCodes } from "../agent/errors.js";
import type { Editor, ProgressHandle } from "../editor/editor.js";
import { ZERO_USAGE, type Usage } from "../vocabulary/messages.js";
import { describeParamsError, promptParams, type StopReason } from "../protocol/schemas.js";
import type { SessionUpdate } from "../protocol/updates.js";
import type { Logger } from "../util/log.js";
import { uriToPath } from "../workspace/paths.js";
import { AGENT_ACTION_COMMANDS } from "./capabilities.js";
import { normalizeUri } from "./uris.js";

/** The editor as the command runner needs it: the seam plus what the client declared. */
export type CommandEditor = Editor & { capabilities: ClientCapabilities };

/** What the runner is built from. */
export interface AgentCommandDeps {
  agent: () => Agent;
  editor: CommandEditor;
  log: Logger;
}

/** The answer to workspace/executeCommand for an agent action. */
export interface AgentActionResult {
  sessionId: string;
  stopReason: StopReason;
  usage: Usage;
  error?: string;
}

const contextSchema = promptParams.shape.context.unwrap();
const argsSchema = z.object({
  uri: z.string(),
  range: contextSchema.shape.range.unwrap(),
  diagnostics: contextSchema.shape.diagnostics,
  /** agent.refactor: how to refactor; asked from the user when absent. */
  instruction: z.string().optional(),
  /** Run in this session (a chat's) instead of the document's own. */
  sessionId: z.string().optional(),
});
type ActionArgs = z.infer<typeof argsSchema>;

/** Suggestions offered when agent.refactor has no instruction (buttons on plain clients). */
export const REFACTOR_CHOICES = ["Make it simpler and clearer", "Improve the names", "Split it into smaller functions", "Make it faster"];

const SUMMARY_MAX = 1500;
// The advertised list is the one source: a command added there is served here too.
const RUNNER_COMMANDS = new Set<string>(AGENT_ACTION_COMMANDS);

interface Task {
  title: string;
  prompt: string;
}

/** Runs agent action commands; keeps the document → session map. */
export class AgentCommandRunner {
  private readonly documentSessions = new Map<string, string>();
  private readonly tap: UpdateTap;

  constructor(private readonly deps: AgentCommandDeps) {
    this.tap = new UpdateTap(deps.editor);
  }

  /** True for the commands this runner serves. */
  handles(command: string): boolean {
    return RUNNER_COMMANDS.has(command);
  }

  /** Runs `command` with its workspace/executeCommand arguments; answers when the turn ends. */
  async run(command: string, rawArgs: unknown[], token?: CancellationToken): Promise<AgentActionResult> {
    const parsed = argsSchema.safeParse(rawArgs[0] ?? {});
    if (!parsed.success) throw new AgentRequestError(ErrorCodes.InvalidParams, describeParamsError(command, parsed.error));
    const args = parsed.data;
    if (command === "agent.fix" && !args.diagnostics?.length) {
      throw new AgentRequestError(ErrorCodes.InvalidParams, "agent.fix needs the diagnostics to fix (arguments[0].diagnostics).");
    }
    const agent = this.deps.agent();
    const sessionId = this.sessionFor(agent, args);
    const abort = new AbortController();
    // A client that withdraws the executeCommand request ($/cancelRequest) stops the turn too.
    const sub = token?.onCancellationRequested(() => {
      abort.abort();
      agent.cancel(sessionId);
    });
    try {
      const task = await this.describeTask(command, args, sessionId, abort.signal);
      if (!task) return { sessionId, stopReason: "cancelled", usage: ZERO_USAGE };
      return await this.runTask(agent, sessionId, task, args);
    } finally {
      sub?.dispose();
    }
  }

  private async runTask(agent: Agent, sessionId: string, task: Task, args: ActionArgs): Promise<AgentActionResult> {
    const progress = this.deps.editor.progress(task.title);
    const watch = watchRun(this.tap, sessionId, progress);
    try {
      const result = await agent.prompt({
        sessionId,
        prompt: task.prompt,
        context: { uri: args.uri, range: args.range, ...(args.diagnostics ? { diagnostics: args.diagnostics } : {}) },
      });
      progress.done(outcome(result.stopReason, watch.files, result.error));
      if (!this.hasChatUi()) this.showSummary(task, result.stopReason, watch, result.error);
      return { sessionId, ...result };
    } catch (err) {
      progress.done(`Failed: ${(err as Error).message}`);
      throw err;
    } finally {
      watch.stop();
    }
  }

  /** The caller's session when named, else the document's own (started on first use). */
  private sessionFor(agent: Agent, args: ActionArgs): string {
    if (args.sessionId) return agent.get(args.sessionId).id;
    const key = normalizeUri(args.uri);
    const known = this.documentSessions.get(key);
    if (known && agent.all().some((s) => s.id === known)) return known;
    const { sessionId } = agent.newSession({});
    this.documentSessions.set(key, sessionId);
    return sessionId;
  }

  /** The prompt and progress title for a command; undefined when the user dismissed a question. */
  private async describeTask(command: string, args: ActionArgs, sessionId: string, signal: AbortSignal): Promise<Task | undefined> {
    const file = displayName(args.uri);
    const where = `${file}:${args.range.start.line + 1}`;
    switch (command) {
      case "agent.fix": {
        const message = args.diagnostics![0]!.message.trim();
        return {
          title: `Agent: fix ${where}`,
          prompt: `Fix the problem reported at ${where}: "${message}". Make the smallest change that resolves it, editing the file with your tools, then say in one or two sentences what you changed.`,
        };
      }
      case "agent.explain":
        return {
          title: `Agent: explain ${where}`,
          prompt: `Explain what the selected code in ${file} does and why, for a reader who is new to it. Do not change any files.`,
        };
      case "agent.refactor": {
        const instruction = args.instruction?.trim() || (await this.askRefactorGoal(sessionId, signal));
        if (!instruction) return undefined;
        return {
          title: `Agent: refactor ${where}`,
          prompt: `Refactor the selected code in ${file}: ${instruction}. Keep its behaviour unchanged, edit the file with your tools, then say briefly what you changed.`,
        };
      }
      case "agent.tests":
        return {
          title: `Agent: write tests for ${where}`,
          prompt: `Write tests for the selected code in ${file}. Follow the project's existing test framework, layout and style, put them where the project keeps its tests, then say where they are and how to run them.`,
        };
      default:
        throw new AgentRequestError(ErrorCodes.InvalidParams, `Unknown agent action "${command}".`);
    }
  }

  private askRefactorGoal(sessionId: string, signal: AbortSignal): Promise<string | undefined> {
    return this.deps.editor.askUser({ sessionId, question: "How should the agent refactor the selection?", choices: REFACTOR_CHOICES, allowFreeText: true }, signal);
  }

  /** A client that declares the agent protocol streams the answer into its own UI. */
  private hasChatUi(): boolean {
    const exp = this.deps.editor.capabilities.experimental as { agent?: unknown } | undefined;
    return Boolean(exp?.agent);
  }

  private showSummary(task: Task, stopReason: StopReason, watch: RunWatch, error?: string): void {
    const lines = [`${task.title}: ${outcome(stopReason, watch.files, error)}`];
    const answer = watch.answer().trim();
    if (answer) lines.push(answer.length > SUMMARY_MAX ? `${answer.slice(0, SUMMARY_MAX - 1)}…` : answer);
    const type = stopReason === "error" ? "error" : stopReason === "end_turn" ? "info" : "warning";
    this.deps.editor.showMessage(type, lines.join("\n\n"));
  }
}

/** What a run saw of its session's stream. */
interface RunWatch {
  readonly files: string[];
  answer(): string;
  stop(): void;
}

/** Follows a session's updates during one run: progress per tool call, answer text, files changed. */
function watchRun(tap: UpdateTap, sessionId: string, progress: ProgressHandle): RunWatch {
  const text: string[] = [];
  const files = new Set<string>();
  const titles = new Map<string, string>();
  const stop = tap.listen(sessionId, (update) => {
    if (update.kind === "text") text.push(update.text);
    else if (update.kind === "tool_call") {
      titles.set(update.id, update.title);
      progress.report(update.title);
    } else if (update.kind === "tool_call_update") {
      if (update.status === "failed") progress.report(`${titles.get(update.id) ?? "tool"} failed`);
      for (const f of changedFiles(update.diff)) files.add(f);
    }
  });
  return {
    get files() {
      return [...files];
    },
    answer: () => text.join(""),
    stop,
  };
}

/** The paths named by a unified diff's `+++` lines (new files included, deletions not). */
export function changedFiles(diff: string | undefined): string[] {
  if (!diff) return [];
  const out: string[] = [];
  for (const m of diff.matchAll(/^\+\+\+ (?:b\/)?([^\t\n]+)/gm)) {
    const name = m[1]!.trim();
    if (name !== "/dev/null") out.push(name);
  }
  return out;
}

/** One line on how the run ended, for progress end and the summary. */
function outcome(stopReason: StopReason, files: string[], error?: string): string {
  const changed = files.length ? ` (changed ${files.join(", ")})` : "";
  switch (stopReason) {
    case "end_turn":
      return `done${changed}`;
    case "cancelled":
      return `cancelled${changed}`;
    case "error":
      return `failed: ${error ?? "unknown error"}${changed}`;
    default:
      return `stopped (${stopReason})${changed}`;
  }
}

function displayName(uri: string): string {
  const p = uriToPath(uri);
  return p ? path.basename(p) : uri;
}

/**
 * Observes the updates the core streams through the Editor seam. The seam has one sink
 * (`update`), and a command run must follow its own session's stream without the core knowing
 * about runs; so the editor's sink is wrapped once, forwarding everything unchanged first.
 */
class UpdateTap {
  private readonly listeners = new Map<string, Set<(update: SessionUpdate) => void>>();

  constructor(editor: Editor) {
    const forward = editor.update.bind(editor);
    editor.update = (sessionId, update) => {
      forward(sessionId, update);
      for (const listener of this.listeners.get(sessionId) ?? []) listener(update);
    };
  }

  /** Calls `listener` with every update of `sessionId` until the returned function is called. */
  listen(sessionId: string, listener: (update: SessionUpdate) => void): () => void {
    let set = this.listeners.get(sessionId);
    if (!set) this.listeners.set(sessionId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (!set.size) this.listeners.delete(sessionId);
    };
  }
}
