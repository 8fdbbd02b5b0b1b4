/**
 * The headless Editor: the terminal is the editor. Text streams to stdout, tool activity is
 * summarised on stderr (or everything goes out as JSON lines), and permission prompts are asked
 * on the terminal when there is one. What reaches the terminal has its escape sequences made
 * visible (prompt-text.ts): a tool call's title or the model's words carrying `\x1b[8m` would
 * otherwise hide the prompt printed after them.
 */
import { createInterface } from "node:readline/promises";
import { phaseReportLine, type PlanEntry, type SessionUpdate } from "../protocol/updates.js";
import type { SessionEvents } from "./session-events.js";
import type { ApplyEditResult, OpenDocument, SaveResult } from "./document-host.js";
import type { Editor } from "./editor.js";
import type { PermissionAnswer, PermissionRequest, ProgressHandle, Question } from "./session-ui.js";
import { argumentsText } from "./arguments-text.js";
import { visibleText } from "./prompt-text.js";

/** How the headless editor behaves. */
export interface HeadlessOptions {
  /** Every update as one JSON line on stdout. */
  json?: boolean;
  /** Print nothing while running (the `tool` subcommand prints only its result). */
  quiet?: boolean;
  /** Without a terminal, allow gated actions instead of refusing them. */
  allowUntrusted?: boolean;
  /** Whether a person is at the terminal (stdin is a TTY). */
  interactive?: boolean;
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream;
  /** Where answers are read (stdin by default). */
  stdin?: NodeJS.ReadableStream;
}

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
  /** Settles when the terminal's current prompt has its answer. */
  private terminalFree: Promise<void> = Promise.resolve();

  constructor(private readonly options: HeadlessOptions = {}) {
    this.out = options.stdout ?? process.stdout;
    this.err = options.stderr ?? process.stderr;
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
    return { optionId: "reject", note: "No terminal to ask for approval; run with --allow-untrusted-tools or a more permissive --mode to allow it." };
  }

  async askUser(question: Question, signal: AbortSignal): Promise<string | undefined> {
    if (!this.options.interactive) return undefined;
    const choices = question.choices?.length ? `\n${question.choices.map((c, i) => `  [${i + 1}] ${c}`).join("\n")}\n` : "\n";
    const answer = await this.readLine(`${question.question}${choices}> `, signal);
    if (answer === undefined) return undefined;
    const n = Number(answer);
    return question.choices?.[n - 1] ?? answer;
  }

  /** Prints every update of a runtime's event stream as it comes. */
  follow(events: SessionEvents): void {
    events.subscribe((sessionId, event) => {
      if (event.kind !== "turn_end") this.render(sessionId, event);
    });
  }

  /** Prints one session update. */
  private render(sessionId: string, update: SessionUpdate): void {
    if (this.options.quiet) return;
    if (this.options.json) {
      this.out.write(`${JSON.stringify({ sessionId, update })}\n`);
      return;
    }
    // A subagent's words are its parent call's to report; its tool calls show, indented.
    if (update.parentToolCallId && (update.kind === "text" || update.kind === "thought")) return;
    const indent = update.parentToolCallId ? "  " : "";
    switch (update.kind) {
      case "text":
        this.text(update.text);
        break;
      case "tool_call":
        this.line(`${indent}→ ${update.title}`);
        break;
      case "tool_call_update":
        if (update.status === "completed" || update.status === "failed") {
          const first = (update.output ?? "").split("\n")[0]?.slice(0, 160) ?? "";
          const mark = update.status === "completed" ? "✓" : update.declined ? "✗ declined:" : "✗";
          this.line(`${indent}${mark} ${first}`);
        }
        break;
      case "plan":
        this.line(checklistText(update.entries));
        break;
      case "working_message":
        this.line(`» ${update.text}`);
        break;
      case "phase_report":
        this.line(`■ ${phaseReportLine(update)}`);
        break;
      case "completion":
        this.line(`✔ Result:\n${update.result}${update.command ? `\n  run: ${update.command}` : ""}`);
        break;
      case "task_spawned":
        this.line(`+ Started the task "${update.title}" (session ${update.sessionId})`);
        break;
      case "status":
        this.line(`… ${update.text}`);
        break;
      case "compaction":
        this.line(`── context compacted (checkpoint ${update.n}): about ${update.tokensBefore} -> ${update.tokensAfter} tokens ──`);
        break;
      case "error":
        this.line(`error: ${update.message}`);
        break;
      case "usage":
        this.line(`tokens: ${update.inputTokens} in, ${update.outputTokens} out${update.cost !== undefined ? `, ~$${update.cost.toFixed(4)}` : ""}`);
        break;
      default:
        break;
    }
  }

  progress(): ProgressHandle {
    return { report() {}, done() {} };
  }

  showMessage(type: "error" | "warning" | "info", message: string): void {
    this.line(`${type}: ${message}`);
  }

  /** Ends the text stream with a newline if it did not have one. */
  finish(): void {
    if (!this.options.json && !this.options.quiet && this.trailingNewlines === 0) this.out.write("\n");
  }

  /**
   * A piece of the answer. Text that follows tool calls or other lines is a later model call's, so
   * it starts a paragraph of its own instead of running on from the last sentence.
   */
  private text(text: string): void {
    if (!text) return;
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
    if (this.sharesScreen() && this.trailingNewlines === 0) this.writeOut("\n");
    this.interrupted = true;
    this.err.write(`${visibleText(text)}\n`);
  }

  /** stdout and stderr both on a terminal: what goes to either shows on the same screen. */
  private sharesScreen(): boolean {
    return Boolean((this.out as { isTTY?: boolean }).isTTY && (this.err as { isTTY?: boolean }).isTTY);
  }

  private async askOnTerminal(request: PermissionRequest, signal: AbortSignal): Promise<PermissionAnswer> {
    if (request.diff) this.err.write(`${request.diff}\n`);
    const choices = request.rememberable === false ? "[1] Yes  [3] No" : "[1] Yes  [2] Yes, don't ask again  [3] No";
    // A call that is neither a change nor a command (an MCP tool's) is judged by its arguments.
    const args = request.diff || request.toolCall.command ? "" : argumentsText(request.toolCall.input);
    const answer = await this.readLine(`${request.summary}\n${args ? `Arguments:\n${args}\n` : ""}${choices} > `, signal);
    if (answer === "1" || /^y(es)?$/i.test(answer ?? "")) return { optionId: "allow_once" };
    if (answer === "2") return { optionId: "allow_always" };
    return { optionId: "reject", ...(answer === undefined ? { note: "Cancelled." } : {}) };
  }

  /**
   * Asks on the terminal, one prompt at a time: two prompts reading stdin together (sessions or
   * subagents asking at once) would both take the same line, and one answer would settle both.
   */
  private readLine(prompt: string, signal: AbortSignal): Promise<string | undefined> {
    const mine = this.terminalFree.then(() => this.readOneLine(prompt, signal));
    this.terminalFree = mine.then(() => undefined);
    return mine;
  }

  private async readOneLine(prompt: string, signal: AbortSignal): Promise<string | undefined> {
    if (signal.aborted) return undefined;
    const rl = createInterface({ input: this.options.stdin ?? process.stdin, output: this.err as NodeJS.WritableStream & { isTTY?: boolean } });
    try {
      return (await rl.question(prompt, { signal })).trim();
    } catch {
      return undefined;
    } finally {
      rl.close();
    }
  }
}

const CHECK_MARKS = { pending: "[ ]", in_progress: "[~]", completed: "[x]" } as const;

/** The checklist as the terminal shows it. */
function checklistText(entries: PlanEntry[]): string {
  return ["Checklist:", ...entries.map((e) => `  ${CHECK_MARKS[e.status]} ${e.content}`)].join("\n");
}
