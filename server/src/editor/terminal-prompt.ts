/**
 * Questions asked on the terminal (permission prompts, ask_user), one at a time: two prompts
 * reading stdin together (sessions or subagents asking at once) would both take the same line,
 * and one answer would settle both. Ctrl-C at a prompt is not an answer: it interrupts the run.
 */
import { createInterface } from "node:readline/promises";

/** Where a prompt is asked and what Ctrl-C at it does. */
export interface TerminalPromptOptions {
  /** Where answers are read (stdin by default). */
  stdin?: NodeJS.ReadableStream;
  /** Where the question is written (stderr). */
  output: NodeJS.WritableStream;
  /**
   * Ctrl-C typed at a prompt: the terminal is in raw mode while it reads, so no SIGINT reaches
   * the process; readline reports it here instead. The caller cancels the turn, which aborts the
   * prompt's signal; without this, Ctrl-C would only pause the prompt.
   */
  onInterrupt?: () => void;
}

/** The terminal's prompts, in turn. */
export class TerminalPrompt {
  /** Settles when the terminal's current prompt has its answer. */
  private free: Promise<void> = Promise.resolve();

  constructor(private readonly options: TerminalPromptOptions) {}

  /**
   * Asks `prompt` once the prompts before it have their answers, after writing `preface` (a diff);
   * undefined when cancelled or closed.
   */
  ask(prompt: string, signal: AbortSignal, preface?: string): Promise<string | undefined> {
    const mine = this.free.then(() => {
      if (preface && !signal.aborted) this.options.output.write(`${preface}\n`);
      return this.askNow(prompt, signal);
    });
    this.free = mine.then(() => undefined);
    return mine;
  }

  private async askNow(prompt: string, signal: AbortSignal): Promise<string | undefined> {
    if (signal.aborted) return undefined;
    const rl = createInterface({ input: this.options.stdin ?? process.stdin, output: this.options.output as NodeJS.WritableStream & { isTTY?: boolean } });
    const interrupted = new AbortController();
    rl.on("SIGINT", () => {
      interrupted.abort();
      this.options.onInterrupt?.();
    });
    try {
      return (await rl.question(prompt, { signal: AbortSignal.any([signal, interrupted.signal]) })).trim();
    } catch {
      return undefined;
    } finally {
      rl.close();
    }
  }
}
