/**
 * The archive over a log on disk: search finds text as it was said (quotes, newlines, any case,
 * not JSON keys or ids), marks what a compaction archived and which prompts failed, and pages.
 */
import { describe, expect, it } from "vitest";
import { logArchive } from "../../../server/src/agent/history/archive.js";
import { HistoryLog } from "../../../server/src/agent/history/history-log.js";
import type { Message } from "../../../server/src/vocabulary/messages.js";
import { tempProject } from "../../helpers/agent-setup.js";

const user = (text: string): Message => ({ role: "user", content: [{ type: "text", text }] });

function archiveOf(build: (log: HistoryLog) => void) {
  const root = tempProject();
  const log = HistoryLog.create(root, { type: "session", sessionId: "s-a", created: "2026-01-01T00:00:00Z", cwd: root, mode: "ask", model: "m" });
  build(log);
  log.close();
  return logArchive(log.file);
}

describe("logArchive", () => {
  const archive = archiveOf((log) => {
    log.append(user('She said "Ünïcode\nline two" loudly'));
    log.append({ role: "assistant", content: [{ type: "tool_call", id: "c1", name: "read_file", input: { path: "a.ts" } }] });
    log.append({ role: "tool", content: [{ type: "tool_result", toolCallId: "c1", name: "read_file", isError: false, content: [{ type: "text", text: "export const x = 1;" }] }] });
    log.compaction({ n: 1, through: 3, summary: "s", trigger: "auto", tokensBefore: 1, tokensAfter: 1, archived: 3 });
    log.append(user("failed prompt"));
    log.markFailed(4, "boom");
    for (let i = 0; i < 30; i++) log.append(user(`filler ${i}`));
  });

  it.each([
    ['"ünïcode\nLINE TWO"', [1]],
    ["EXPORT CONST", [3]],
    ["message", []], // only in the JSON keys, never said
    ["role", []],
    ["filler 2", [7, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34]],
  ])("search %j finds %j", (query, seqs) => {
    expect(archive.search(query, 0, 50).entries.map((e) => e.seq)).toEqual(seqs);
  });

  it("marks what a compaction archived and which prompts failed", () => {
    const hits = archive.list(0, 5).entries;
    expect(hits.map((e) => [e.seq, e.compaction ?? null, e.failed ?? false])).toEqual([
      [1, 1, false],
      [2, 1, false],
      [3, 1, false],
      [4, null, true],
      [5, null, false],
    ]);
  });

  it("pages a listing and reads one message whole", () => {
    const page = archive.list(25, 25);
    expect(page).toMatchObject({ total: 34, lastSeq: 34 });
    expect(page.entries.map((e) => e.seq)).toEqual([26, 27, 28, 29, 30, 31, 32, 33, 34]);
    expect(archive.read(1)).toMatchObject({ seq: 1, role: "user", text: 'She said "Ünïcode\nline two" loudly', compaction: 1 });
    expect(archive.read(35)).toBeUndefined();
  });
});
