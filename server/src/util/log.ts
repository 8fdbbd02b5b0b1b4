/**
 * Logging: stderr (stdout is protocol only) and `<root>/.agent-lsp/logs/agent-lsp.log`, with
 * secrets redacted before anything is written.
 */
import { appendFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { ensureStateFolder } from "./state-folder.js";

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

/** A logger writing to stderr and, once `attachFile` is called, a log file. */
export class FileLogger implements Logger {
  private file: string | undefined;

  constructor(
    private level: LogLevel = "info",
    private readonly toStderr = true,
  ) {}

  /** Starts writing to `<root>/.agent-lsp/logs/agent-lsp.log` as well. */
  attachFile(root: string): void {
    try {
      const dir = path.join(ensureStateFolder(root), "logs");
      mkdirSync(dir, { recursive: true });
      this.file = path.join(dir, "agent-lsp.log");
    } catch {
      this.file = undefined; // a read-only project: stderr still gets everything
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
    const line = `${new Date().toISOString()} ${level.toUpperCase()} ${redact(message)}\n`;
    if (this.toStderr) process.stderr.write(line);
    if (this.file) {
      try {
        appendFileSync(this.file, line, { mode: 0o600 });
      } catch {
        /* the log file is best effort; stderr has the line */
      }
    }
  }
}
