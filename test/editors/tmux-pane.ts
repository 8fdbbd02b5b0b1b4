/**
 * Drives a terminal program in a detached tmux session the way a user at a keyboard would: keys
 * go in through `send-keys`, the screen comes back through `capture-pane`. Each pane runs on its
 * own tmux server (a private socket), so tests never touch the user's tmux or each other's.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);

/** How a pane is started. */
export interface TmuxPaneOptions {
  /** The socket file of this pane's private tmux server. */
  socket: string;
  cwd: string;
  /** The whole environment of the program (the tmux server starts with it). */
  env: NodeJS.ProcessEnv;
  /** A shell command line; it runs under `sh -c`. */
  command: string;
  width: number;
  height: number;
}

/** Options of a wait on the screen. */
export interface WaitOptions {
  timeoutMs?: number;
  /** What is awaited, for the error message. */
  what?: string;
  /** More context for the error message (a log tail), read only when the wait fails. */
  diagnose?: () => string;
}

const SESSION = "pane";
const POLL_MS = 100;
/** A loaded two-core machine can take seconds to start an editor and its servers. */
export const DEFAULT_WAIT_MS = 20_000;

/** A program running in a tmux pane of fixed size. */
export class TmuxPane {
  private constructor(private readonly options: TmuxPaneOptions) {}

  /** Starts `options.command` in a new detached session of a new private tmux server. */
  static async start(options: TmuxPaneOptions): Promise<TmuxPane> {
    const pane = new TmuxPane(options);
    // -f /dev/null: no user tmux.conf; the size is fixed, so screens are the same on every machine.
    await pane.tmux(["-f", "/dev/null", "new-session", "-d", "-s", SESSION, "-x", String(options.width), "-y", String(options.height), "-c", options.cwd, options.command]);
    return pane;
  }

  /** Sends keys by tmux name (`Enter`, `Escape`, `C-n`, `Space`) or as literal strings. */
  async sendKeys(...keys: string[]): Promise<void> {
    await this.tmux(["send-keys", "-t", SESSION, ...keys]);
  }

  /** Types `text` literally (no key-name lookup: "Enter" types five letters). */
  async typeText(text: string): Promise<void> {
    await this.tmux(["send-keys", "-t", SESSION, "-l", text]);
  }

  /** The visible screen as plain text, one line per row. */
  async capture(): Promise<string> {
    return (await this.tmux(["capture-pane", "-p", "-t", SESSION])).stdout;
  }

  /** The visible screen with its SGR escape sequences (colours, reverse video). */
  async captureStyled(): Promise<string> {
    return (await this.tmux(["capture-pane", "-p", "-e", "-t", SESSION])).stdout;
  }

  /**
   * Polls the screen until `predicate` holds and returns that screen. Fails with the last screen
   * (and `diagnose()`) when the deadline passes: a deadline, never a fixed sleep, so a slow
   * machine only makes the test slower.
   */
  async waitFor(predicate: (screen: string) => boolean, options: WaitOptions = {}): Promise<string> {
    const deadline = Date.now() + (options.timeoutMs ?? DEFAULT_WAIT_MS);
    let screen = "";
    for (;;) {
      screen = await this.capture();
      if (predicate(screen)) return screen;
      if (Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
    const extra = options.diagnose ? `\n--- context ---\n${options.diagnose()}` : "";
    throw new Error(`timed out after ${options.timeoutMs ?? DEFAULT_WAIT_MS} ms waiting for ${options.what ?? "the screen"}\n--- screen ---\n${screen}${extra}`);
  }

  /** Ends the program and the private tmux server; safe to call twice. */
  async kill(): Promise<void> {
    await this.tmux(["kill-server"]).catch((err: Error & { stderr?: string }) => {
      // A server that is already gone is what we want; anything else is worth seeing.
      if (!/no server running|error connecting|No such file/i.test(err.stderr ?? err.message)) throw err;
    });
  }

  private tmux(args: string[]): Promise<{ stdout: string; stderr: string }> {
    return run("tmux", ["-S", this.options.socket, ...args], { cwd: this.options.cwd, env: this.options.env, encoding: "utf8" });
  }
}

/**
 * The text shown in reverse video on each row of a styled capture (a menu's selected entry, the
 * cursor): rows with none are left out. Follows SGR 7 / 27 / 0 and skips colour arguments.
 */
export function reversedText(styled: string): string[] {
  const rows: string[] = [];
  let reverse = false;
  for (const line of styled.split("\n")) {
    let text = "";
    for (const part of line.split(/(\x1b\[[0-9;:]*m)/)) {
      const sgr = /^\x1b\[([0-9;:]*)m$/.exec(part);
      if (sgr) reverse = applySgr(reverse, sgr[1]!);
      else if (reverse) text += part;
    }
    if (text.trim()) rows.push(text);
  }
  return rows;
}

/** Whether reverse video is on after one SGR sequence's parameters. */
function applySgr(reverse: boolean, params: string): boolean {
  const codes = params === "" ? [0] : params.split(";").map(Number);
  for (let i = 0; i < codes.length; i++) {
    const code = codes[i]!;
    if (code === 38 || code === 48 || code === 58) {
      i += codes[i + 1] === 5 ? 2 : 4; // 38;5;N or 38;2;R;G;B
    } else if (code === 0) reverse = false;
    else if (code === 7) reverse = true;
    else if (code === 27) reverse = false;
  }
  return reverse;
}
