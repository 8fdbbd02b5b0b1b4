/**
 * What both search engines share (the in-process walk and ripgrep's prefilter): the result
 * types, reading a file for searching, finding a file's matching lines with their context, and
 * collecting files in order until the match limit. Whatever finds the candidate files, the lines
 * reported are always found here, so both engines give the same result.
 */
import { closeSync, existsSync, fstatSync, openSync, readSync } from "node:fs";
import path from "node:path";
import { guardedTester } from "../util/bounded-regex.js";
import { looksBinary } from "./encoding.js";
import { isInside } from "./paths.js";

/** Files larger than this are skipped (generated bundles, logs): they would flood the result. */
const MAX_FILE_BYTES = 8 * 1024 * 1024;

/** One line of a result. */
export interface SearchLine {
  line: number;
  text: string;
  /** A matching line (false: context). */
  match: boolean;
}

/** The matches of one file. */
export interface FileHits {
  rel: string;
  lines: SearchLine[];
  matches: number;
}

/** What to search. */
export interface SearchOptions {
  base: string;
  start: string;
  regex: RegExp;
  /** Which files (root-relative path) to search; all when absent. */
  filter?: (rel: string) => boolean;
  /** Open documents by absolute path: searched instead of the disk. */
  overlay: Map<string, string>;
  /** Stop after this many matching lines. */
  maxMatches: number;
  /** Lines of context on each side of a match. */
  context: number;
  signal?: AbortSignal;
}

/** The outcome of a search. */
export interface SearchOutcome {
  files: FileHits[];
  matches: number;
  /** Files looked at (exact when the search was not truncated). */
  filesSearched: number;
  /** Stopped at maxMatches. */
  truncated: boolean;
}

/**
 * Reads files into one reused buffer: most files fit in it, which saves an allocation and a stat
 * per file (the difference between twice grep's time and near it on a large tree).
 */
export class FileReader {
  private buffer = Buffer.allocUnsafe(1 << 20);

  /** The file's bytes (a view valid until the next read), or undefined when unreadable or too big. */
  read(abs: string): Buffer | undefined {
    let fd: number;
    try {
      fd = openSync(abs, "r");
    } catch {
      return undefined;
    }
    try {
      let n = readSync(fd, this.buffer, 0, this.buffer.length, 0);
      if (n === this.buffer.length) {
        const size = fstatSync(fd).size;
        if (size > MAX_FILE_BYTES) return undefined;
        if (size > this.buffer.length) this.buffer = Buffer.allocUnsafe(size + 1);
        n = readSync(fd, this.buffer, 0, this.buffer.length, 0);
      }
      return this.buffer.subarray(0, n);
    } catch {
      return undefined;
    } finally {
      closeSync(fd);
    }
  }
}

/**
 * A file's text for searching, or undefined for binary files and files that cannot contain a
 * match because they lack `literal` (checked on the bytes, before any decoding).
 */
export function textForSearch(reader: FileReader, abs: string, literal: Buffer | undefined): string | undefined {
  const bytes = reader.read(abs);
  if (!bytes || (literal && bytes.indexOf(literal) === -1) || looksBinary(bytes)) return undefined;
  return bytes.toString("utf8");
}

/** The matching lines of `text` (with context), at most `room` matches. */
function hitsIn(text: string, line: RegExp, context: number, room: number): { lines: SearchLine[]; matches: number } {
  const testLine = guardedTester(line);
  const all = text.split(/\r?\n/);
  if (all.length && all[all.length - 1] === "") all.pop();
  const wanted = new Map<number, boolean>();
  let matches = 0;
  for (let i = 0; i < all.length && matches < room; i++) {
    line.lastIndex = 0;
    if (!testLine(all[i]!)) continue;
    matches++;
    for (let j = Math.max(0, i - context); j <= Math.min(all.length - 1, i + context); j++) {
      if (!wanted.get(j)) wanted.set(j, j === i);
    }
  }
  const lines = [...wanted.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([i, match]) => ({ line: i + 1, text: all[i]!, match }));
  return { lines, matches };
}

/** Collects files in the order they are offered until the match limit. */
export interface Collector {
  out: SearchOutcome;
  /** Searches one file's text (undefined: unreadable, binary or without the literal); false once full. */
  consider(rel: string, text: string | undefined): boolean;
}

/** A collector for `opts`. */
export function collector(opts: SearchOptions): Collector {
  const whole = new RegExp(opts.regex.source, opts.regex.flags.replace(/[gy]/g, "").replace("m", "") + "m");
  const line = new RegExp(opts.regex.source, opts.regex.flags.replace(/[gym]/g, ""));
  // The model's pattern runs on the server's one thread: a runaway one must not freeze the editor.
  const testWhole = guardedTester(whole);
  const out: SearchOutcome = { files: [], matches: 0, filesSearched: 0, truncated: false };
  const consider = (rel: string, text: string | undefined): boolean => {
    out.filesSearched++;
    if (text === undefined || !testWhole(text)) return true;
    const room = opts.maxMatches - out.matches;
    const hits = hitsIn(text, line, opts.context, room);
    if (hits.matches === 0) return true;
    out.files.push({ rel, ...hits });
    out.matches += hits.matches;
    if (out.matches >= opts.maxMatches) out.truncated = true;
    return !out.truncated;
  };
  return { out, consider };
}

/** Searches the open documents not on disk yet (new, unsaved) that lie in the search: they are part of the project too. */
export function considerUnsavedDocuments(opts: SearchOptions, seen: Set<string>, c: Collector): void {
  for (const [abs, text] of opts.overlay) {
    if (c.out.truncated || seen.has(abs)) continue;
    const rel = path.relative(opts.base, abs).split(path.sep).join("/");
    const inside = !rel.startsWith("..") && !path.isAbsolute(rel) && isInside(opts.start, abs);
    if (inside && (!opts.filter || opts.filter(rel)) && !existsSync(abs)) c.consider(rel, text);
  }
}
