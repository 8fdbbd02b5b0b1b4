/**
 * The conversation log after a crash: a log whose last line was cut off still takes new messages
 * that read back, instead of the next record being glued onto the torn line and lost with it.
 * A rewind (edit and re-send) reads back as the history without the rewound exchange, while the
 * message numbers go on after every line ever written.
 */
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readHistory } from "../../../server/src/agent/history/history.js";
import { HistoryLog } from "../../../server/src/agent/history/history-log.js";
import { listHistories } from "../../../server/src/agent/history/history-list.js";
import type { Message } from "../../../server/src/vocabulary/messages.js";
import { tempProject } from "../../helpers/agent-setup.js";

const answer = (text: string): Message => ({ role: "assistant", content: [{ type: "text", text }] });
const user = (text: string): Message => ({ role: "user", content: [{ type: "text", text }] });

function newLog(root: string, sessionId: string): HistoryLog {
  return HistoryLog.create(root, { type: "session", sessionId, created: "2026-01-01T00:00:00Z", cwd: root, mode: "ask", model: "m" });
}

describe("HistoryLog.reopen", () => {
  it("starts a new line after a torn last line", () => {
    const root = tempProject();
    const log = newLog(root, "s-torn");
    log.append(user("one"));
    log.close();
    appendFileSync(log.file, '{"type":"message","seq":2,"mess'); // cut mid-write

    const before = readHistory(root, "s-torn");
    expect(before.skipped).toBe(1);
    const reopened = HistoryLog.reopen(root, "s-torn", before.messages.length);
    reopened.append(user("two"));
    reopened.close();

    const after = readHistory(root, "s-torn");
    expect(after.messages).toEqual([user("one"), user("two")]);
    expect(after.skipped).toBe(1);
  });

  it("adds no blank line to a log that ends cleanly", () => {
    const root = tempProject();
    const log = newLog(root, "s-clean");
    log.append(user("one"));
    log.close();
    const reopened = HistoryLog.reopen(root, "s-clean", 1);
    reopened.append(user("two"));
    reopened.close();
    expect(readHistory(root, "s-clean")).toMatchObject({ messages: [user("one"), user("two")], skipped: 0 });
  });
});

describe("listHistories", () => {
  it("reports a conversations folder it cannot read instead of listing no sessions", () => {
    const root = tempProject();
    mkdirSync(path.join(root, ".agent-lsp"), { recursive: true });
    // A file where the folder should be: named, with what to do about it.
    writeFileSync(path.join(root, ".agent-lsp", "conversations"), "");
    expect(() => listHistories(root)).toThrow(/\.agent-lsp\/conversations is a file, not a folder.*Remove or rename that file/);
  });

  it("lists no sessions when the folder does not exist yet", () => {
    expect(listHistories(tempProject())).toEqual([]);
  });
});

describe("readHistory with rewind records", () => {
  it.each([
    { name: "no rewind", rewinds: [] as number[], messages: ["one", "One.", "two", "Two."], lastPromptSeq: 3 },
    { name: "the last exchange rewound", rewinds: [3], messages: ["one", "One."], lastPromptSeq: 1 },
    { name: "both rewound", rewinds: [3, 1], messages: [], lastPromptSeq: undefined },
  ])("$name", ({ rewinds, messages, lastPromptSeq }) => {
    const root = tempProject();
    const log = newLog(root, "s-rewind");
    log.append(user("one"));
    log.append(answer("One."));
    log.append(user("two"));
    log.append(answer("Two."));
    for (const seq of rewinds) log.rewind(seq);
    log.close();
    const read = readHistory(root, "s-rewind");
    expect(read.messages.map((m) => (m.content[0] as { text: string }).text)).toEqual(messages);
    expect(read.lastSeq).toBe(4);
    expect(read.lastPromptSeq).toBe(lastPromptSeq);
  });

  it("keeps what was logged after a rewind", () => {
    const root = tempProject();
    const log = newLog(root, "s-after");
    log.append(user("one"));
    log.append(answer("One."));
    log.rewind(1);
    log.append(user("one, edited"));
    log.close();
    expect(readHistory(root, "s-after")).toMatchObject({ messages: [user("one, edited")], lastSeq: 3, lastPromptSeq: 3 });
  });
});

describe("readHistory after compactions", () => {
  const compaction = (n: number, through: number, summary: string) => ({ n, through, summary, trigger: "auto" as const, tokensBefore: 100, tokensAfter: 10, archived: through });

  it("keeps only the last checkpoint and the messages after it, numbered as logged", () => {
    const root = tempProject();
    const log = newLog(root, "s-compacted");
    log.append(user("one"));
    log.append(answer("two"));
    log.compaction(compaction(1, 2, "first summary"));
    log.append(user("three"));
    log.append(answer("four"));
    log.compaction(compaction(2, 4, "second summary"));
    log.append(user("five"));
    log.markFailed(5, "boom");
    log.append(user("six"));
    log.close();

    const loaded = readHistory(root, "s-compacted");
    expect(loaded.messages.map((m) => (m.content[0] as { text: string }).text)).toEqual([expect.stringMatching(/^\[Checkpoint 2: .*Messages 1 to 4 are in the session archive[\s\S]*second summary/), "six"]);
    expect(loaded.seqs).toEqual([undefined, 6]);
    expect(loaded.compaction).toMatchObject({ n: 2, through: 4 });
    expect(loaded.failedPrompts).toEqual([{ at: 1, content: user("five").content, error: "boom", seq: 5 }]);
    expect(loaded.lastSeq).toBe(6);
  });

  it.each([
    ["not JSON", "{oops"],
    ["a message without content", '{"type":"message","seq":9,"message":{"role":"user"}}'],
    ["a message without a number", '{"type":"message","message":{"role":"user","content":[]}}'],
    ["a compaction without a summary", '{"type":"compaction","n":1,"through":1}'],
    ["an unknown record", '{"type":"mystery"}'],
    ["a bare value", "42"],
  ])("skips %s and names its line", (_what, line) => {
    const root = tempProject();
    const log = newLog(root, "s-bad");
    log.append(user("one"));
    log.close();
    appendFileSync(log.file, `${line}\n`);
    const reopened = HistoryLog.reopen(root, "s-bad", 1);
    reopened.append(user("two"));
    reopened.close();
    const loaded = readHistory(root, "s-bad");
    expect(loaded.messages).toEqual([user("one"), user("two")]);
    expect(loaded.skippedLines).toEqual([3]);
  });
});
