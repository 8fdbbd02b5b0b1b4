/**
 * A large message in the conversation log (a model's `create` of tens of megabytes): written
 * without holding the event loop, read back whole, and never interleaved with the small records
 * written while it is on its way.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readHistory } from "../../../server/src/agent/history/history.js";
import { HistoryLog } from "../../../server/src/agent/history/history-log.js";
import type { Message } from "../../../server/src/vocabulary/messages.js";
import { tempProject } from "../../helpers/agent-setup.js";

const user = (text: string): Message => ({ role: "user", content: [{ type: "text", text }] });

function newLog(root: string, sessionId: string): HistoryLog {
  return HistoryLog.create(root, { type: "session", sessionId, created: "2026-01-01T00:00:00Z", cwd: root, mode: "ask", model: "m" });
}

/** A model's write_file call of `chars` characters (with pairs and escapes across piece cuts). */
function bigCall(chars: number): Message {
  const content = 'line "😀" \\ é\n'.repeat(Math.ceil(chars / 14));
  return { role: "assistant", content: [{ type: "tool_call", id: "t1", name: "write_file", input: { path: "big.txt", content } }] } as Message;
}

describe("HistoryLog.appendAsync", () => {
  it("logs a large message as one line that reads back, giving the event loop turns meanwhile", async () => {
    const root = tempProject();
    const log = newLog(root, "s-large");
    log.append(user("write it"));
    const big = bigCall(8_000_000);
    let turns = 0;
    const ticker = setInterval(() => turns++, 0);
    const seq = await log.appendAsync(big);
    clearInterval(ticker);
    log.append(user("next"));
    log.close();
    expect(seq).toBe(2);
    expect(turns).toBeGreaterThan(1);
    const lines = readFileSync(log.file, "utf8").split("\n");
    expect(lines).toHaveLength(5); // header, 3 messages, and the empty rest after the last newline
    expect(JSON.parse(lines[2]!)).toMatchObject({ type: "message", seq: 2, message: big });
    expect(readHistory(root, "s-large")).toMatchObject({ messages: [user("write it"), big, user("next")], skipped: 0, lastSeq: 3 });
  });

  it("writes records that come while a large one is on its way after it, never inside it", async () => {
    const root = tempProject();
    const log = newLog(root, "s-order");
    const writing = log.appendAsync(bigCall(4_000_000));
    log.settings({ mode: "auto" });
    log.checklist([{ content: "step", status: "pending", priority: "medium" }] as never);
    await writing;
    log.close();
    const types = readFileSync(log.file, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l).type);
    expect(types).toEqual(["session", "message", "settings", "checklist"]);
    expect(readHistory(root, "s-order")).toMatchObject({ mode: "auto", skipped: 0 });
  });

  it("writes a small message at once, as append does", async () => {
    const root = tempProject();
    const log = newLog(root, "s-small");
    const writing = log.appendAsync(user("hello"));
    // Already on disk before the promise settles.
    expect(readFileSync(log.file, "utf8")).toContain('"hello"');
    expect(await writing).toBe(1);
    log.close();
  });
});
