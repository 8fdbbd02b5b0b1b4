/**
 * A program run on a pseudo-terminal, as a person runs it at a terminal: stdin, stdout and stderr
 * are the terminal (python3's pty module drives it; no native module), what the test writes is
 * typed (`\x03` is Ctrl-C), and `screen` replays the output as a terminal shows it, so a test sees
 * what was left on the screen (a status line erased, lines that ran together).
 */
import { spawn } from "node:child_process";

/** Runs argv[1:] on a pty of 40 rows and 100 columns, relaying its output and our stdin. */
const DRIVER = `
import os, pty, sys, select, fcntl, termios, struct
pid, fd = pty.fork()
if pid == 0:
    os.execvpe(sys.argv[1], sys.argv[1:], os.environ)
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 100, 0, 0))
inputs = [fd, 0]
while True:
    r, _, _ = select.select(inputs, [], [])
    if fd in r:
        try:
            data = os.read(fd, 65536)
        except OSError:
            break
        if not data:
            break
        os.write(1, data)
    if 0 in r:
        data = os.read(0, 1024)
        if data:
            os.write(fd, data)
        else:
            inputs = [fd]
_, status = os.waitpid(pid, 0)
code = os.waitstatus_to_exitcode(status)
sys.exit(128 - code if code < 0 else code)
`;

/** A program running on a pty. */
export interface PtyRun {
  /** Everything the terminal showed so far, escape sequences included. */
  output(): string;
  /** Types `text` on the terminal. */
  type(text: string): void;
  /** The exit status (128 + N when signal N ended it). */
  exited: Promise<number | null>;
}

/** Starts `command args` on a pty in `cwd` with `env`. */
export function runOnPty(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): PtyRun {
  const child = spawn("python3", ["-c", DRIVER, command, ...args], { cwd: options.cwd, env: { ...options.env, TERM: "xterm" }, stdio: ["pipe", "pipe", "inherit"] });
  let out = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString("utf8")));
  return {
    output: () => out,
    type: (text) => child.stdin.write(text),
    exited: new Promise((resolve) => child.on("exit", (code) => resolve(code))),
  };
}

/**
 * The lines a terminal shows after `raw`: `\r` returns to the line's start, `\n` goes down, text
 * overwrites, `ESC[2K` / `ESC[K` erase (the whole line / to its end), `ESC[nG` moves to a column,
 * `ESC[J` erases below; other sequences move nothing we check. Trailing spaces are dropped.
 */
export function screen(raw: string): string[] {
  const lines: string[][] = [[]];
  let row = 0;
  let col = 0;
  const line = () => (lines[row] ??= []);
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === "\r") col = 0;
    else if (c === "\n") {
      row++;
      line();
    } else if (c === "\u001b" && raw[i + 1] === "[") {
      const m = /^\u001b\[([?\d;]*)([A-Za-z])/.exec(raw.slice(i));
      if (!m) continue;
      i += m[0].length - 1;
      const n = Number(m[1] || "0");
      if (m[2] === "K") lines[row] = n === 2 ? [] : n === 1 ? line().map((ch, j) => (j <= col ? " " : ch)) : line().slice(0, col);
      else if (m[2] === "G") col = Math.max(0, n - 1);
      else if (m[2] === "J") {
        lines[row] = line().slice(0, col);
        lines.length = row + 1;
      } else if (m[2] === "A") row = Math.max(0, row - (n || 1));
      else if (m[2] === "C") col += n || 1;
      else if (m[2] === "D") col = Math.max(0, col - (n || 1));
    } else if (c === "\b") col = Math.max(0, col - 1);
    else {
      const l = line();
      while (l.length < col) l.push(" ");
      l[col++] = c;
    }
  }
  return lines.map((l) => l.join("").replace(/\s+$/, ""));
}
