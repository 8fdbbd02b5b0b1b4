/**
 * The archive: a session's whole log, read back on demand for context_archive. Nothing is held in
 * memory between calls (the log on disk is the archive); a search parses only the lines whose raw
 * JSON could contain the query, so searching a 10,000-message log stays fast.
 */
import type { ArchivedMessage, ArchivePage, SessionArchive } from "../../tools/session/session-context.js";
import type { CompactionRecord, FailedRecord, MessageRecord } from "./history.js";
import { messageText } from "./message-text.js";
import type { Message } from "../../vocabulary/messages.js";
import { readStateFile } from "../../util/state-folder.js";

/** Characters of a search hit's snippet, and of a listed message's preview. */
const SNIPPET = 160;

/** The archive of the log at `file`. */
export function logArchive(file: string): SessionArchive {
  return {
    search: (query, offset, limit) => search(scan(file), query, offset, limit),
    list: (offset, limit) => list(scan(file), offset, limit),
    read: (seq) => read(scan(file), seq),
  };
}

/** A log's lines, sorted by kind without parsing the messages. */
interface Scan {
  messages: { seq: number; line: string }[];
  compactions: { n: number; through: number }[];
  failed: Set<number>;
}

const MESSAGE_HEAD = /^\{"type":"message","seq":(\d+),/;

function scan(file: string): Scan {
  const out: Scan = { messages: [], compactions: [], failed: new Set() };
  for (const line of readStateFile(file).split("\n")) {
    const head = MESSAGE_HEAD.exec(line);
    if (head) out.messages.push({ seq: Number(head[1]), line });
    else if (line.startsWith('{"type":"compaction"')) {
      const rec = parse<CompactionRecord>(line);
      if (rec) out.compactions.push({ n: rec.n, through: rec.through });
    } else if (line.startsWith('{"type":"failed"')) {
      const rec = parse<FailedRecord>(line);
      if (rec) out.failed.add(rec.seq);
    }
  }
  return out;
}

function parse<T>(line: string): T | undefined {
  try {
    return JSON.parse(line) as T;
  } catch {
    return undefined; // a corrupt line: the load reports it; the archive just skips it
  }
}

function toArchived(scanned: Scan, line: string, options: { withoutArchiveCalls?: boolean } = {}): ArchivedMessage | undefined {
  const rec = parse<MessageRecord>(line);
  if (!rec || !rec.message || !Array.isArray(rec.message.content)) return undefined;
  const compaction = scanned.compactions.find((c) => rec.seq <= c.through)?.n;
  const message = options.withoutArchiveCalls ? withoutArchiveCalls(rec.message) : rec.message;
  return {
    seq: rec.seq,
    role: rec.message.role,
    time: rec.time,
    text: messageText(message),
    ...(compaction !== undefined ? { compaction } : {}),
    ...(scanned.failed.has(rec.seq) ? { failed: true } : {}),
  };
}

/**
 * The message without context_archive's own calls and results: a search would otherwise find
 * its own query, and every earlier result that quoted what it found.
 */
function withoutArchiveCalls(message: Message): Message {
  if (message.role === "assistant") return { ...message, content: message.content.filter((b) => b.type !== "tool_call" || b.name !== ARCHIVE_TOOL) };
  if (message.role === "tool") return { ...message, content: message.content.filter((r) => r.name !== ARCHIVE_TOOL) };
  return message;
}

const ARCHIVE_TOOL = "context_archive";

function search(scanned: Scan, query: string, offset: number, limit: number): ArchivePage {
  const needle = query.toLowerCase();
  // The query as it appears inside a JSON string: a cheap test on the raw line before parsing it.
  const rawNeedle = JSON.stringify(query).slice(1, -1).toLowerCase();
  const hits: ArchivePage["entries"] = [];
  for (const { line } of scanned.messages) {
    if (!line.toLowerCase().includes(rawNeedle)) continue;
    const msg = toArchived(scanned, line, { withoutArchiveCalls: true });
    const at = msg ? msg.text.toLowerCase().indexOf(needle) : -1;
    if (!msg || at < 0) continue; // the query was in a key or an id, not in what was said
    hits.push({ ...withoutTime(msg), text: snippet(msg.text, at, needle.length) });
  }
  return { entries: hits.slice(offset, offset + limit), total: hits.length, lastSeq: lastSeq(scanned) };
}

function list(scanned: Scan, offset: number, limit: number): ArchivePage {
  const entries = scanned.messages
    .slice(offset, offset + limit)
    .flatMap(({ line }) => toArchived(scanned, line) ?? [])
    .map((m) => ({ ...withoutTime(m), text: snippet(m.text, 0, 0) }));
  return { entries, total: scanned.messages.length, lastSeq: lastSeq(scanned) };
}

function read(scanned: Scan, seq: number): ArchivedMessage | undefined {
  const found = scanned.messages.find((m) => m.seq === seq);
  return found ? toArchived(scanned, found.line) : undefined;
}

function lastSeq(scanned: Scan): number {
  return scanned.messages.at(-1)?.seq ?? 0;
}

function withoutTime(m: ArchivedMessage): Omit<ArchivedMessage, "time"> {
  const { time: _time, ...rest } = m;
  return rest;
}

/** About SNIPPET characters of `text` around the match at `at`, on one line. */
function snippet(text: string, at: number, length: number): string {
  const start = Math.max(0, at - Math.floor((SNIPPET - length) / 2));
  const piece = text.slice(start, start + SNIPPET).replace(/\s+/g, " ");
  return `${start > 0 ? "..." : ""}${piece}${start + SNIPPET < text.length ? "..." : ""}`;
}
