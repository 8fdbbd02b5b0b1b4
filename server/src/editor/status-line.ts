/**
 * The status line of `agent-lsp run` on a terminal: one line on stderr saying what is happening
 * (waiting for the model, a tool running and for how long, MCP servers starting, a retry), with a
 * spinner, redrawn in place. It is erased before anything else is written, so it never mixes
 * with the answer, a tool line or a prompt; off a terminal it writes nothing at all.
 */
import { visibleText } from "./prompt-text.js";

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
/** Erase the whole line and go back to its start. */
const ERASE = "\r\u001b[2K";
/** Longest status text shown: a long line would wrap, and a wrapped line is not erased whole. */
const MAX_WIDTH = 72;

/** What the status line needs of its stream. */
export interface StatusStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

/** One line of status on a terminal. */
export class StatusLine {
  private text: string | undefined;
  /** When the current activity started (ms), for its elapsed time; undefined: none shown. */
  private since: number | undefined;
  private shown = false;
  private frame = 0;
  private timer: NodeJS.Timeout | undefined;
  /** Drawing is held while something else owns the line (a prompt waiting for an answer, streaming text). */
  private held = false;

  /**
   * @param stream stderr
   * @param options.intervalMs how often the spinner turns (and the elapsed time updates)
   * @param options.canDraw false while the cursor is not at the start of a line (an answer's
   *   unfinished line on the same screen), which erasing the line would wipe out
   */
  constructor(
    private readonly stream: StatusStream,
    private readonly options: { intervalMs?: number; canDraw?: () => boolean } = {},
  ) {}

  /** Whether anything is ever drawn: only on a terminal. */
  get enabled(): boolean {
    return Boolean(this.stream.isTTY);
  }

  /**
   * Says what is happening now. `timed` shows the seconds since this call (a tool running); the
   * same text again keeps its start time.
   */
  set(text: string, timed = false): void {
    if (!this.enabled) return;
    if (text !== this.text) this.since = timed ? Date.now() : undefined;
    this.text = text;
    this.timer ??= setInterval(() => this.draw(), this.options.intervalMs ?? 120).unref();
    this.draw();
  }

  /** Nothing is happening that needs a line: erases it and stops the spinner. */
  stop(): void {
    this.text = undefined;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.erase();
  }

  /** Erases the line, if shown, so the caller can write; it comes back on the next turn of the spinner. */
  erase(): void {
    if (!this.shown) return;
    this.stream.write(ERASE);
    this.shown = false;
  }

  /** Holds the line off (true) while the screen is someone else's, or lets it back (false). */
  hold(held: boolean): void {
    this.held = held;
    if (held) this.erase();
    else this.draw();
  }

  private draw(): void {
    if (!this.enabled || this.held || this.text === undefined || this.options.canDraw?.() === false) return;
    this.frame = (this.frame + 1) % FRAMES.length;
    const elapsed = this.since === undefined ? "" : ` (${Math.floor((Date.now() - this.since) / 1000)} s)`;
    const width = Math.max(20, Math.min(MAX_WIDTH, (this.stream.columns ?? 80) - 12));
    const text = visibleText(this.text.split("\n")[0]!);
    const fitted = text.length > width ? `${text.slice(0, width - 1)}…` : text;
    this.stream.write(`${ERASE}${FRAMES[this.frame]} ${fitted}${elapsed}`);
    this.shown = true;
  }
}
