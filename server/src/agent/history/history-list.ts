/**
 * The saved sessions of a project, as listed for the user (`agent/listSessions`): id, title (the
 * first prompt's first line) and when each was last written.
 */
import { closeSync, readdirSync, readSync, statSync } from "node:fs";
import path from "node:path";
import { existingStateDir, openStateFileForReading, StateFolderError } from "../../util/state-folder.js";
import type { HistoryRecord } from "./history.js";

/** A session as listed for the user. */
export interface SessionSummary {
  sessionId: string;
  title: string;
  updatedAt: string;
}

/** Lists the sessions of a project, newest first. */
export function listHistories(root: string): SessionSummary[] {
  // A link where the folder belongs is refused (StateFolderError), not listed through.
  const dir = existingStateDir(root, "conversations");
  if (!dir) return [];
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith(".jsonl"));
  } catch (err) {
    // No folder yet is no sessions; a folder that cannot be read is a problem to report, not "none".
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw new Error(`Cannot list the saved sessions in ${dir}: ${(err as Error).message}`);
  }
  const out: SessionSummary[] = [];
  for (const name of names) {
    const file = path.join(dir, name);
    const sessionId = name.slice(0, -".jsonl".length);
    const summary = summarize(file, sessionId);
    if (summary) out.push(summary);
  }
  return out.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
}

/**
 * One log's summary; undefined when the file went away while listing (another server deleted it)
 * or the session holds no prompt yet: every opened chat starts a session, and a list of empty
 * ones buries the sessions worth resuming.
 */
function summarize(file: string, sessionId: string): SessionSummary | undefined {
  try {
    const title = readTitle(file);
    if (title === undefined) return undefined;
    return { sessionId, title, updatedAt: statSync(file).mtime.toISOString() };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    // A link (or anything but a file) where a log belongs is no saved session: it is not read.
    if (err instanceof StateFolderError) return undefined;
    throw new Error(`Cannot read the saved session ${file}: ${(err as Error).message}`);
  }
}

/** The first line of the first user text, as a title; undefined for a log with no user message. */
function readTitle(file: string): string | undefined {
  // Only the head is needed: the first user message comes right after the header.
  const { text: head, whole } = readHead(file, 64 * 1024);
  for (const line of head.split("\n")) {
    try {
      const rec = JSON.parse(line) as HistoryRecord;
      if (rec.type === "message" && rec.message.role === "user") {
        const text = rec.message.content.find((b) => b.type === "text");
        if (text && text.type === "text") return titleOf(text.text);
      }
    } catch {
      /* a partial line at the end of the head: keep looking */
    }
  }
  // A head cut short may hide the message after a long record: listed, without a title.
  return whole ? undefined : "(untitled session)";
}

function readHead(file: string, bytes: number): { text: string; whole: boolean } {
  const fd = openStateFileForReading(file);
  try {
    const buf = Buffer.alloc(bytes);
    const n = readSync(fd, buf, 0, bytes, 0);
    return { text: buf.subarray(0, n).toString("utf8"), whole: n < bytes };
  } finally {
    closeSync(fd);
  }
}

/** A one-line title from a prompt. */
function titleOf(text: string): string {
  const first = text.trim().split("\n")[0] ?? "";
  return first.length > 80 ? `${first.slice(0, 77)}...` : first || "(empty prompt)";
}
