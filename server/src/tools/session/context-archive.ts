/**
 * context_archive: the session's whole log, so a compaction's summary is never the only copy of
 * anything. Search it (case-insensitive `query`), read one message back whole (`message`, paged
 * with `char_offset` past 32,000 characters), or list it (paged).
 */
import { z } from "zod";
import { lazySchema } from "../../util/lazy-schema.js";
import { defineTool, ToolError } from "../define-tool.js";
import { SESSION_CONTEXT_SERVICE, type ArchivePage, type SessionContextService } from "./session-context.js";
import type { ToolContext } from "../types.js";

/** Characters of one message a read returns at once. */
export const ARCHIVE_PAGE_CHARS = 32_000;
/** Entries per page of a search or a listing. */
const ENTRIES_PER_PAGE = 25;

const input = lazySchema(() => z.object({
  query: z.string().min(1).optional().describe("Search: messages containing this text (case-insensitive)."),
  message: z.number().int().positive().optional().describe("Read this message (its number, #n) whole."),
  char_offset: z.number().int().nonnegative().optional().describe("With `message`: where to start reading (the next page of a long message)."),
  page: z.number().int().positive().optional().describe("Page of a search or a listing (1 first)."),
}));

/** The context_archive tool. */
export const contextArchiveTool = defineTool({
  name: "context_archive",
  description:
    "Every message of this session, including those a compaction summarised out of your context. " +
    "`query` searches them (case-insensitive) and shows numbered snippets; `message: n` reads message #n back whole " +
    `(${ARCHIVE_PAGE_CHARS} characters at a time; continue with \`char_offset\`); with neither, lists the messages. ` +
    "Use it when a checkpoint summary lacks a detail you need (an exact error, a file's content, what the user said).",
  input,
  help: {
    whenToUse: "After a compaction, when the checkpoint summary lacks a detail you need: an exact error, what the user said, a file's content as it was read.",
    examples: ['{"query": "TypeError"}', '{"message": 12}', '{"message": 12, "char_offset": 32000}', '{"page": 2}'],
    failureModes: ["A message number, page or char_offset that does not exist: the error names the range that does."],
  },
  policyClass: "read_only",
  callKind: "search",
  category: "context",
  isMutating: false,
  title: (i) => (i.message !== undefined ? `Archive: read #${i.message}` : i.query ? `Archive: search "${i.query}"` : "Archive: list"),
  async execute(i, ctx) {
    const archive = service(ctx).archive(ctx.sessionId);
    const page = i.page ?? 1;
    const offset = (page - 1) * ENTRIES_PER_PAGE;
    if (i.message !== undefined) return readMessage(archive.read(i.message), i.message, i.char_offset ?? 0, archive.list(0, 0).lastSeq);
    if (i.query !== undefined) return formatPage(archive.search(i.query, offset, ENTRIES_PER_PAGE), page, `matching "${i.query}"`);
    return formatPage(archive.list(offset, ENTRIES_PER_PAGE), page, "in the log");
  },
});

function service(ctx: ToolContext): SessionContextService {
  const s = ctx.services[SESSION_CONTEXT_SERVICE] as SessionContextService | undefined;
  if (!s) throw new ToolError("context_archive is not available here (no session log).");
  return s;
}

function readMessage(msg: ReturnType<ReturnType<SessionContextService["archive"]>["read"]>, seq: number, offset: number, lastSeq: number): string {
  if (!msg) throw new ToolError(lastSeq ? `No message #${seq}: the log holds messages #1 to #${lastSeq}.` : `No message #${seq}: the log holds no messages yet.`);
  if (offset > 0 && offset >= msg.text.length) throw new ToolError(`char_offset ${offset} is past the end of message #${seq} (${msg.text.length} characters).`);
  const end = Math.min(offset + ARCHIVE_PAGE_CHARS, msg.text.length);
  const marks = [msg.role, msg.time, msg.compaction !== undefined ? `archived by compaction ${msg.compaction}` : "in context", ...(msg.failed ? ["failed prompt"] : [])];
  const head = `#${msg.seq} (${marks.join(", ")}), characters ${offset}-${end} of ${msg.text.length}`;
  const more = end < msg.text.length ? `\n[... more: call again with message: ${seq}, char_offset: ${end}]` : "";
  return `${head}\n${msg.text.slice(offset, end)}${more}`;
}

function formatPage(result: ArchivePage, page: number, what: string): string {
  const pages = Math.max(1, Math.ceil(result.total / ENTRIES_PER_PAGE));
  if (!result.total) return `No messages ${what} (the log holds ${result.lastSeq}).`;
  if (page > pages) throw new ToolError(`Page ${page} does not exist: ${result.total} message(s) ${what} fill ${pages} page(s).`);
  const lines = result.entries.map((e) => `#${e.seq} ${e.role}${e.compaction !== undefined ? ` [archived by compaction ${e.compaction}]` : ""}${e.failed ? " [failed]" : ""}: ${e.text}`);
  const next = page < pages ? `\n(page ${page} of ${pages}; next: page ${page + 1})` : `\n(page ${page} of ${pages})`;
  return `${result.total} message(s) ${what}:\n${lines.join("\n")}${next}\nRead one whole with message: n.`;
}
