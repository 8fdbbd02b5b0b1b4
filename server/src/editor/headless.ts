/**
 * The headless Editor: the terminal is the editor. Text streams to stdout, tool activity is
 * summarised on stderr (or everything goes out as JSON lines), and permission prompts are asked
 * on the terminal when there is one. What reaches the terminal has its escape sequences made
 * visible (prompt-text.ts): a tool call's title or the model's words carrying `\x1b[8m` would
 * otherwise hide the prompt printed after them.
 */
import { headlessLine } from "../protocol/headless-stream.js";
import { phaseReportLine, type PlanEntry, type SessionUpdate } from "../protocol/updates.js";
import type { SessionEvents } from "./session-events.js";
import type { ApplyEditResult, OpenDocument, SaveResult } from "./document-host.js";
import type { Editor } from "./editor.js";
import type { PermissionAnswer, PermissionRequest, ProgressHandle, Question } from "./session-ui.js";
import { argumentsText } from "./arguments-text.js";
import { visibleText } from "./prompt-text.js";
import { StatusLine, type StatusStream } from "./status-line.js";
import { TerminalPrompt } from "./terminal-prompt.js";
import { TurnActivity } from "./turn-activity.js";

/** What `agent-lsp run` writes on stdout: the answer as text, one JSON object at the end, or JSON lines. */
export type OutputFormat = "text" | "json" | "stream-json";

/** How the headless editor behaves. */
export interface HeadlessOptions {
  /** text (the default): the answer on stdout, activity on stderr; stream-json: every update as a JSON line; json: nothing while running. */
  output?: OutputFormat;
  /** Print nothing while running (the `tool` subcommand prints only its result). */
  quiet?: boolean;
  /** Without a terminal, allow gated actions instead of refusing them. */
  allowUntrusted?: boolean;
  /** Whether a person is at the terminal (stdin is a TTY). */
  interactive?: boolean;
  /** Ctrl-C typed at a prompt (the terminal reads it raw, so no SIGINT comes): cancel the turn. */
  onInterrupt?: () => void;
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream;
  /** Where answers are read (stdin by default). */
  stdin?: NodeJS.ReadableStream;
}

/** The note a gated action refused for want of someone to approve it carries (exit status 3 counts these). */
const NO_TERMINAL = "No terminal to ask for approval; run with --allow-untrusted-tools or a more permissive --mode to allow it.";

/** An Editor on the terminal. No documents are open; files live on disk. */
export class HeadlessEditor implements Editor {
  readonly supportsResourceOperations = false;
  private readonly out: NodeJS.WritableStream;
  private readonly err: NodeJS.WritableStream;
  /** Newlines at the end of what stdout got (2 or more: a paragraph is closed). */
  private trailingNewlines = 2;
  /** Answer text was written, and something else was shown since: the next text is a new paragraph. */
  private wroteText = false;
  private interrupted = false;
  /** Updates are not shown (a resumed session's history replaying). */
  private muted = false;
  private readonly prompts: TerminalPrompt;
  private readonly status: StatusLine;
  private readonly activity: TurnActivity;
  /** Gated actions refused because there was no one to approve them. */
  private refused = 0;

  /** A prompt is shown only on a terminal. */
  get canAsk(): boolean {
    return Boolean(this.options.interactive);
  }

  constructor(private readonly options: HeadlessOptions = {}) {
    this.out = options.stdout ?? process.stdout;
    this.err = options.stderr ?? process.stderr;
    this.prompts = new TerminalPrompt({ output: this.err, ...(options.stdin ? { stdin: options.stdin } : {}), ...(options.onInterrupt ? { onInterrupt: options.onInterrupt } : {}) });
    const silent = { write: () => true, isTTY: false };
    this.status = new StatusLine(options.quiet ? silent : (this.err as StatusStream), { canDraw: () => !(this.sharesScreen() && this.trailingNewlines === 0) });
    this.activity = new TurnActivity(this.status);
  }

  /** How many gated actions were refused because no one could approve them (no terminal, no --allow-untrusted-tools). */
  get refusedApprovals(): number {
    return this.refused;
  }

  /** The headless host is the disk: no document is open in it. */
  async readDocument(): Promise<OpenDocument | undefined> {
    return undefined;
  }

  async openDocuments(): Promise<OpenDocument[]> {
    return [];
  }

  /** Nothing is open here, so nothing open ever changes. */
  onDidChange(): () => void {
    return () => undefined;
  }

  async applyEdit(): Promise<ApplyEditResult> {
    return { applied: false, reason: "There is no editor in headless mode." };
  }

  readonly canSaveDocuments = false;

  async saveDocuments(uris: string[]): Promise<SaveResult> {
    return { saved: [], failed: uris.map((uri) => ({ uri, reason: "there is no editor in headless mode" })) };
  }

  takeNotices(): string[] {
    return []; // no documents are open here, so no edit is ever waiting for a report
  }

  async requestPermission(request: PermissionRequest, signal: AbortSignal): Promise<PermissionAnswer> {
    if (this.options.interactive) return this.askOnTerminal(request, signal);
    if (this.options.allowUntrusted) return { optionId: "allow_once", note: "Allowed by --allow-untrusted-tools." };
    this.refused++;
    return { optionId: "reject", note: NO_TERMINAL };
  }

  async askUser(question: Question, signal: AbortSignal): Promise<string | undefined> {
    if (!this.options.interactive) return undefined;
    const choices = question.choices?.length ? `\n${question.choices.map((c, i) => `  [${i + 1}] ${c}`).join("\n")}\n` : "\n";
    const answer = await this.ask(`${question.question}${choices}> `, signal);
    if (answer === undefined) return undefined;
    const n = Number(answer);
    return question.choices?.[n - 1] ?? answer;
  }

  /** Prints every update of a runtime's event stream as it comes. */
  follow(events: SessionEvents): void {
    events.subscribe((sessionId, event) => {
      if (this.muted) return;
      if (event.kind === "turn_end") this.activity.ended();
      else this.render(sessionId, event);
    });
  }

  /** Shows no update while `run` goes (a resumed session's history replaying: it was shown when it happened). */
  async withoutOutput<T>(run: () => T): Promise<Awaited<T>> {
    this.muted = true;
    try {
      return await run();
    } finally {
      this.muted = false;
    }
  }

  /** A turn starts: the status line says the model is being waited for, or what runs first (`running /compact`). */
  turnStarted(first?: string): void {
    if (!this.options.quiet) this.activity.started(first);
  }

  /** Prints one session update. */
  private render(sessionId: string, update: SessionUpdate): void {
    if (this.options.quiet) return;
    this.print(sessionId, update);
    // After the update's own line: the status line then starts below it.
    if (!update.parentToolCallId) this.activity.update(update, this.sharesScreen());
  }

  /** Writes an update in the output format (json: nothing until the end). */
  private print(sessionId: string, update: SessionUpdate): void {
    if (this.options.output === "json") return;
    if (this.options.output === "stream-json") {
      this.status.erase();
      this.out.write(headlessLine({ type: "update", sessionId, update }));
      return;
    }
    // A subagent's words are its parent call's to report; its tool calls show, indented.
    if (update.parentToolCallId && (update.kind === "text" || update.kind === "thought")) return;
    const line = lineOf(update);
    if (update.kind === "text") this.text(update.text);
    else if (line !== undefined) this.line(`${update.parentToolCallId ? "  " : ""}${line}`);
  }

  /** Starts work-done progress (MCP servers starting, a long command): shown on the status line. */
  progress(title: string): ProgressHandle {
    const overlay = this.activity.overlay(title);
    return { report: (message) => overlay.set(`${title}: ${message}`), done: () => overlay.clear() };
  }

  showMessage(type: "error" | "warning" | "info", message: string): void {
    this.line(`${type}: ${message}`);
  }

  /** Ends the text stream with a newline if it did not have one, and clears the status line. */
  finish(): void {
    this.activity.ended();
    if (this.options.output !== "json" && this.options.output !== "stream-json" && !this.options.quiet && this.trailingNewlines === 0) this.out.write("\n");
  }

  /**
   * A piece of the answer. Text that follows tool calls or other lines is a later model call's, so
   * it starts a paragraph of its own instead of running on from the last sentence.
   */
  private text(text: string): void {
    if (!text) return;
    this.status.erase();
    if (this.wroteText && this.interrupted) this.writeOut("\n".repeat(Math.max(0, 2 - this.trailingNewlines)));
    this.interrupted = false;
    this.wroteText = true;
    // Piped, the answer is data and goes out as written; on a terminal it is shown.
    this.writeOut((this.out as { isTTY?: boolean }).isTTY ? visibleText(text) : text);
  }

  private writeOut(text: string): void {
    if (!text) return;
    this.out.write(text);
    const trailing = text.length - text.replace(/\n+$/, "").length;
    this.trailingNewlines = trailing === text.length ? this.trailingNewlines + trailing : trailing;
  }

  /** A line on stderr; on a shared terminal the answer's line is ended first, so the two never run together. */
  private line(text: string): void {
    this.status.erase();
    if (this.sharesScreen() && this.trailingNewlines === 0) this.writeOut("\n");
    this.interrupted = true;
    this.err.write(`${visibleText(text)}\n`);
  }

  /** stdout and stderr both on a terminal: what goes to either shows on the same screen. */
  private sharesScreen(): boolean {
    return Boolean((this.out as { isTTY?: boolean }).isTTY && (this.err as { isTTY?: boolean }).isTTY);
  }

  private async askOnTerminal(request: PermissionRequest, signal: AbortSignal): Promise<PermissionAnswer> {
    const choices = request.rememberable === false ? "[1] Yes  [3] No" : "[1] Yes  [2] Yes, don't ask again  [3] No";
    // A call that is neither a change nor a command (an MCP tool's) is judged by its arguments.
    const args = request.diff || request.toolCall.command ? "" : argumentsText(request.toolCall.input);
    const answer = await this.ask(`${request.summary}\n${args ? `Arguments:\n${args}\n` : ""}${choices} > `, signal, request.diff);
    if (answer === "1" || /^y(es)?$/i.test(answer ?? "")) return { optionId: "allow_once" };
    if (answer === "2") return { optionId: "allow_always" };
    return { optionId: "reject", ...(answer === undefined ? { note: "Cancelled." } : {}) };
  }

  /** A prompt on the terminal: the status line and an unfinished answer line make way for it. */
  private async ask(prompt: string, signal: AbortSignal, preface?: string): Promise<string | undefined> {
    this.status.hold(true);
    if (this.sharesScreen() && this.trailingNewlines === 0) this.writeOut("\n");
    this.interrupted = true;
    try {
      return await this.prompts.ask(prompt, signal, preface);
    } finally {
      this.status.hold(false);
    }
  }
}

/** The line stderr shows for an update other than the answer's text; undefined: none. */
function lineOf(update: SessionUpdate): string | undefined {
  switch (update.kind) {
    case "tool_call":
      return `→ ${update.title}`;
    case "tool_call_update": {
      if (update.status !== "completed" && update.status !== "failed") return undefined;
      const first = (update.output ?? "").split("\n")[0]?.slice(0, 160) ?? "";
      const mark = update.status === "completed" ? "✓" : update.declined ? "✗ declined:" : "✗";
      return `${mark} ${first}`;
    }
    case "plan":
      return checklistText(update.entries);
    case "working_message":
      return `» ${update.text}`;
    case "phase_report":
      return `■ ${phaseReportLine(update)}`;
    case "completion":
      return `✔ Result:\n${update.result}${update.command ? `\n  run: ${update.command}` : ""}`;
    case "task_spawned":
      return `+ Started the task "${update.title}" (session ${update.sessionId})`;
    case "status":
      return `… ${update.text}`;
    case "compaction":
      return `── context compacted (checkpoint ${update.n}): about ${update.tokensBefore} -> ${update.tokensAfter} tokens ──`;
    case "error":
      return `error: ${update.message}`;
    case "usage":
      return `tokens: ${update.inputTokens} in, ${update.outputTokens} out${update.cost !== undefined ? `, ~$${update.cost.toFixed(4)}` : ""}`;
    default:
      return undefined;
  }
}

const CHECK_MARKS = { pending: "[ ]", in_progress: "[~]", completed: "[x]" } as const;

/** The checklist as the terminal shows it. */
function checklistText(entries: PlanEntry[]): string {
  return ["Checklist:", ...entries.map((e) => `  ${CHECK_MARKS[e.status]} ${e.content}`)].join("\n");
}
