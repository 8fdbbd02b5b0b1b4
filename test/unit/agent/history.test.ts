/**
 * The conversation log after a crash: a log whose last line was cut off still takes new messages
 * that read back, instead of the next record being glued onto the torn line and lost with it.
 */
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { HistoryLog, listHistories, readHistory } from "../../../server/src/agent/history.js";
import type { Message } from "../../../server/src/vocabulary/messages.js";
import { tempProject } from "../../helpers/agent-setup.js";

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
    // A file where the folder should be: readdir fails (ENOTDIR) the way EACCES would for a non-root user.
    writeFileSync(path.join(root, ".agent-lsp", "conversations"), "");
    expect(() => listHistories(root)).toThrow(/Cannot list the saved sessions in .*conversations/);
  });

  it("lists no sessions when the folder does not exist yet", () => {
    expect(listHistories(tempProject())).toEqual([]);
  });
});
