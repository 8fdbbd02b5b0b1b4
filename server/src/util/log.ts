/**
 * Logging: stderr (stdout is protocol only) and `<root>/.agent-lsp/logs/agent-lsp.log`, with
 * secrets redacted and control characters escaped before anything is written: a value a line
 * names (a config key, a server's or tool's name, model text) can never start a second line.
 */
import { closeSync } from "node:fs";
import path from "node:path";
import { ensureStateDir, openStateFile, stateWriteProblem, writeAll } from "./state-folder.js";

/** Log levels, most severe first. */
export type LogLevel = "error" | "warn" | "info" | "debug";
const ORDER: Record<LogLevel, number> = { error: 0, warn: 1, info: 2, debug: 3 };

/** A logger. */
export interface Logger {
  error(message: string): void;
  warn(message: string): void;
  info(message: string): void;
  debug(message: string): void;
}

/** Patterns of well-known key formats, redacted wherever they appear. */
const KEY_PATTERNS = [
  /sk-ant-[A-Za-z0-9_-]{8,}/g,
  /sk-(?:proj-)?[A-Za-z0-9_-]{16,}/g,
  /AIza[0-9A-Za-z_-]{20,}/g,
  /(?<=["']?(?:api[_-]?key|authorization|x-api-key|x-goog-api-key)["']?\s*[:=]\s*["']?(?:Bearer\s+)?)[^\s"',}]{8,}/gi,
];

/** Known secret values (keys from the environment and config), redacted exactly. */
const secretValues = new Set<string>();

/** Adds values that must never be written to a log. */
export function addSecrets(...values: (string | undefined)[]): void {
  for (const v of values) if (v && v.length >= 6) secretValues.add(v);
}

/** Redacts secrets from a text. */
export function redact(text: string): string {
  let out = text;
  for (const v of secretValues) out = out.split(v).join("[REDACTED]");
  for (const re of KEY_PATTERNS) out = out.replace(re, "[REDACTED]");
  return out;
}

/**
 * A message as one line: line breaks, other control characters (C0, DEL, C1), and the Unicode
 * line and paragraph separators are written as visible escapes (`\n`, `\x1b`, `\u2028`).
 */
export function escapeControls(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => {
    if (c === "\n") return "\\n";
    if (c === "\r") return "\\r";
    if (c === "\t") return "\\t";
    const code = c.charCodeAt(0);
    return code > 0xff ? `\\u${code.toString(16).padStart(4, "0")}` : `\\x${code.toString(16).padStart(2, "0")}`;
  });
}

/**
 * A logger writing to stderr and, once `attachFile` is called, a log file. `toStderr` "errors"
 * (the terminal commands without --verbose) keeps the rest off the terminal: it goes to the file.
 */
export class FileLogger implements Logger {
  /** The log file, open for appending (opened once, never through a link). */
  private fd: number | undefined;

  constructor(
    private level: LogLevel = "info",
    private readonly toStderr: boolean | "errors" = true,
  ) {}

  /**
   * Starts writing to `<state folder>/logs/agent-lsp.log` as well. When it cannot (a link there,
   * a full disk), stderr gets everything and a warning says why.
   */
  attachFile(root: string): void {
    if (this.fd !== undefined) closeSync(this.fd);
    try {
      this.fd = openStateFile(path.join(ensureStateDir(root, "logs"), "agent-lsp.log"), "append");
    } catch (err) {
      this.fd = undefined;
      this.warn(`not writing the log file: ${stateWriteProblem(err)}`);
    }
  }

  setLevel(level: LogLevel): void {
    this.level = level;
  }

  error(message: string): void {
    this.write("error", message);
  }
  warn(message: string): void {
    this.write("warn", message);
  }
  info(message: string): void {
    this.write("info", message);
  }
  debug(message: string): void {
    this.write("debug", message);
  }

  private write(level: LogLevel, message: string): void {
    if (ORDER[level] > ORDER[this.level]) return;
    const line = `${new Date().toISOString()} ${level.toUpperCase()} ${escapeControls(redact(message))}\n`;
    // "errors": the rest too while there is no file, the only other place a line could go.
    const shown = this.toStderr === true || (this.toStderr === "errors" && (level === "error" || this.fd === undefined));
    if (shown) process.stderr.write(line);
    if (this.fd !== undefined) {
      try {
        writeAll(this.fd, Buffer.from(line));
      } catch {
        /* the log file is best effort (a full disk): stderr has the line */
      }
    }
  }
}
