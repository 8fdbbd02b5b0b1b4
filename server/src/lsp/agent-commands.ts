/**
 * The code-action commands (agent.fix, agent.explain, agent.refactor, agent.tests) and
 * `agent.prompt` as workspace/executeCommand: one session per document (or the caller's
 * session), a prompt carrying the file, range, selected text and diagnostics. The turn runs in
 * the background (turn-runs.ts): the command is answered as soon as it starts, unless the
 * caller passes `wait: true`.
 */
import type { CancellationToken } from "vscode-languageserver/node.js";
import { z } from "zod";
import type { Agent } from "../agent/agent.js";
import { AgentRequestError, ErrorCodes } from "../agent/errors.js";
import { newRequestId } from "../editor/session-ui.js";
import { describeParamsError, promptParams, type PromptParams } from "../protocol/schemas.js";
import { AGENT_ACTION_COMMANDS } from "./capabilities.js";
import { TurnRuns, type RunRequest, type RunResult, type TurnRunsDeps } from "./turn-runs.js";
import { normalizeUri, uriFileName } from "./uris.js";

export type { CommandEditor } from "./turn-runs.js";

/** The answer to an executeCommand that started a turn: at once, or (`wait`) when it ends. */
export type AgentActionResult = { sessionId: string; status: "started" | "queued" } | (RunResult & { status: "ended" });

const contextSchema = promptParams.shape.context.unwrap();
const argsSchema = z.object({
  uri: z.string(),
  range: contextSchema.shape.range.unwrap(),
  diagnostics: contextSchema.shape.diagnostics,
  /** agent.refactor: how to refactor; asked from the user when absent. */
  instruction: z.string().optional(),
  /** Run in this session (a chat's) instead of the document's own. */
  sessionId: z.string().optional(),
  /** Answer when the turn ends instead of when it starts (for clients that call asynchronously). */
  wait: z.boolean().optional(),
});
type ActionArgs = z.infer<typeof argsSchema>;

/** Suggestions offered when agent.refactor has no instruction (buttons on plain clients). */
const REFACTOR_CHOICES = ["Make it simpler and clearer", "Improve the names", "Split it into smaller functions", "Make it faster"];

/** How the code-action menu names each command, for a sentence that points there. */
const ACTION_TITLES: Record<string, string> = {
  "agent.fix": "Ask agent to fix",
  "agent.explain": "Ask agent: explain",
  "agent.refactor": "Ask agent to refactor",
  "agent.tests": "Ask agent: write tests",
};

/** Longest part of a free prompt shown in a progress title. */
const PROMPT_TITLE_MAX = 50;

// The advertised list is the one source: a command added there is served here too.
const RUNNER_COMMANDS = new Set<string>(AGENT_ACTION_COMMANDS);

/** Runs agent action commands and agent.prompt; keeps the document → session map. */
export class AgentCommandRunner {
  private readonly documentSessions = new Map<string, string>();
  private readonly runs: TurnRuns;

  constructor(private readonly deps: TurnRunsDeps) {
    this.runs = new TurnRuns(deps);
  }

  /** True for the code-action commands this runner serves. */
  handles(command: string): boolean {
    return RUNNER_COMMANDS.has(command);
  }

  /** Runs a code-action `command` with its workspace/executeCommand arguments. */
  async run(command: string, rawArgs: unknown[], token?: CancellationToken): Promise<AgentActionResult> {
    // From a palette (no arguments): say where the command works instead of listing what is missing.
    if (rawArgs[0] === undefined) throw new AgentRequestError(ErrorCodes.InvalidParams, `${command} works on a line or a selection of a file: pick "${ACTION_TITLES[command] ?? command}" from the code-action menu there.`);
    const parsed = argsSchema.safeParse(rawArgs[0]);
    if (!parsed.success) throw new AgentRequestError(ErrorCodes.InvalidParams, describeParamsError(command, parsed.error));
    const args = parsed.data;
    // A plain client (chat file on) may ask for a fix on a line without diagnostics.
    if (command === "agent.fix" && !args.diagnostics?.length && !this.deps.chat?.()) {
      throw new AgentRequestError(ErrorCodes.InvalidParams, "agent.fix needs the diagnostics to fix (arguments[0].diagnostics).");
    }
    const sessionId = this.sessionFor(this.deps.agent(), args);
    const context = { uri: args.uri, range: args.range, ...(args.diagnostics ? { diagnostics: args.diagnostics } : {}) };
    const task = command === "agent.fix" && !args.diagnostics?.length ? await this.describeLineFix(args) : this.describeTask(command, args, sessionId);
    return this.start({ ...task, sessionId, context }, args.wait === true, token);
  }

  /** A free prompt in `sessionId`, shown as such in the chat file; `draft` when it came from the file's draft. */
  chatTurn(sessionId: string, prompt: string, draft?: string): Promise<AgentActionResult> {
    this.deps.agent().get(sessionId);
    const request: RunRequest = { sessionId, title: `Agent: ${oneLine(prompt, PROMPT_TITLE_MAX)}`, prompt: async () => prompt, chatText: prompt };
    return this.start(draft === undefined ? request : { ...request, draft }, false);
  }

  /** `agent.prompt` [sessionId, prompt, context?]: a free prompt, optionally about a file and range. */
  async prompt(rawArgs: unknown[], token?: CancellationToken): Promise<AgentActionResult> {
    const [sessionId, prompt, rawContext] = rawArgs;
    if (typeof sessionId !== "string" || typeof prompt !== "string") {
      throw new AgentRequestError(ErrorCodes.InvalidParams, "agent.prompt takes [sessionId: string, prompt: string, context?: {uri?, range?, diagnostics?}].");
    }
    const context = rawContext === undefined || rawContext === null ? undefined : contextSchema.safeParse(rawContext);
    if (context && !context.success) throw new AgentRequestError(ErrorCodes.InvalidParams, describeParamsError("agent.prompt context", context.error));
    this.deps.agent().get(sessionId);
    const request: RunRequest = {
      sessionId,
      title: `Agent: ${oneLine(prompt, PROMPT_TITLE_MAX)}`,
      prompt: async () => prompt,
      ...(context?.data ? { context: context.data as PromptParams["context"] } : {}),
    };
    return this.start(request, false, token);
  }

  /** Cancels the run of `sessionId`, or every run; returns the sessions it stopped. */
  cancel(sessionId?: string): string[] {
    return this.runs.cancel(sessionId);
  }

  private async start(request: RunRequest, wait: boolean, token?: CancellationToken): Promise<AgentActionResult> {
    const run = this.runs.start(request);
    // A client that withdraws the executeCommand request ($/cancelRequest) stops the turn too.
    const sub = token?.onCancellationRequested(() => this.runs.cancel(request.sessionId));
    try {
      if (wait) return { ...(await run.finished), status: "ended" };
      // Its end is reported by the run itself (progress, showMessage), a late failure too:
      // once begun, `finished` no longer rejects.
      return { sessionId: request.sessionId, status: await run.begun };
    } finally {
      sub?.dispose();
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

  /**
   * Fix without diagnostics (Helix sends a server only its own): the prompt quotes the line, so
   * the model knows what the user pointed at.
   */
  private async describeLineFix(args: ActionArgs): Promise<Pick<RunRequest, "title" | "prompt">> {
    const where = `${uriFileName(args.uri)}:${args.range.start.line + 1}`;
    const text = (await this.deps.editor.readDocument(args.uri))?.text.split("\n")[args.range.start.line] ?? "";
    const prompt = `Fix the problem at ${where}, whose line reads: ${JSON.stringify(text.trim())}. Find what is wrong there, make the smallest change that fixes it, editing the file with your tools, then say in one or two sentences what you changed.`;
    return { title: `Agent: fix ${where}`, prompt: async () => prompt };
  }

  /** The title and prompt of a code-action command. */
  private describeTask(command: string, args: ActionArgs, sessionId: string): Pick<RunRequest, "title" | "prompt" | "asks"> {
    const file = uriFileName(args.uri);
    const where = `${file}:${args.range.start.line + 1}`;
    const fixed = (title: string, prompt: string) => ({ title, prompt: async () => prompt });
    switch (command) {
      case "agent.fix": {
        const message = args.diagnostics![0]!.message.trim();
        return fixed(
          `Agent: fix ${where}`,
          `Fix the problem reported at ${where}: "${message}". Make the smallest change that resolves it, editing the file with your tools, then say in one or two sentences what you changed.`,
        );
      }
      case "agent.explain":
        return fixed(`Agent: explain ${where}`, `Explain what the selected code in ${file} does and why, for a reader who is new to it. Do not change any files.`);
      case "agent.refactor": {
        const given = args.instruction?.trim();
        const refactor = (instruction: string) =>
          `Refactor the selected code in ${file}: ${instruction}. Keep its behaviour unchanged, edit the file with your tools, then say briefly what you changed.`;
        if (given) return fixed(`Agent: refactor ${where}`, refactor(given));
        return {
          title: `Agent: refactor ${where}`,
          asks: true,
          prompt: async (signal) => {
            const instruction = (await this.askRefactorGoal(sessionId, signal))?.trim();
            return instruction ? refactor(instruction) : undefined;
          },
        };
      }
      case "agent.tests":
        return fixed(
          `Agent: write tests for ${where}`,
          `Write tests for the selected code in ${file}. Follow the project's existing test framework, layout and style, put them where the project keeps its tests, then say where they are and how to run them.`,
        );
      default:
        throw new AgentRequestError(ErrorCodes.InvalidParams, `Unknown agent action "${command}".`);
    }
  }

  private askRefactorGoal(sessionId: string, signal: AbortSignal): Promise<string | undefined> {
    return this.deps.editor.askUser({ sessionId, requestId: newRequestId(), question: "How should the agent refactor the selection?", choices: REFACTOR_CHOICES, allowFreeText: true }, signal);
  }
}


/** The first line of `text`, shortened to `max` characters. */
function oneLine(text: string, max: number): string {
  const line = text.trim().split(/\r?\n/, 1)[0] ?? "";
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
