/** What a headless run's result says: its final answer, its cost and its exit status. */
import { describe, expect, it } from "vitest";
import { exitCodeOf, RunRecord } from "../../../server/src/cli/run-outcome.js";
import { SessionEvents } from "../../../server/src/editor/session-events.js";
import { ZERO_USAGE } from "../../../server/src/vocabulary/messages.js";

const ENDED = { stopReason: "end_turn" as const, usage: ZERO_USAGE };

describe("a headless run's result", () => {
  it("answers with the last model call's text, never a subagent's, and adds up the cost", () => {
    const events = new SessionEvents();
    const record = new RunRecord(events, "s");
    events.emit("s", { kind: "text", text: "Looking " });
    events.emit("s", { kind: "text", text: "first." });
    events.emit("s", { kind: "tool_call", id: "c1", name: "agent", title: "Subagent", input: {}, status: "pending" });
    events.emit("s", { kind: "text", text: "child words", parentToolCallId: "c1", subagent: 1 });
    events.emit("s", { kind: "usage", inputTokens: 1, outputTokens: 1, cachedTokens: 0, cost: 0.25 });
    events.emit("s", { kind: "text", text: "The answer." });
    events.emit("s", { kind: "usage", inputTokens: 1, outputTokens: 1, cachedTokens: 0, cost: 0.5 });
    events.emit("other", { kind: "text", text: "another session" });
    expect(record.result("s", ENDED, 0)).toMatchObject({ text: "The answer.", cost: 0.75, exitCode: 0, stopReason: "end_turn" });
  });

  it("takes attempt_completion's result over the text, and a command's message only when the model said nothing", () => {
    const events = new SessionEvents();
    const done = new RunRecord(events, "s");
    events.emit("s", { kind: "text", text: "Wrapping up." });
    events.emit("s", { kind: "completion", result: "Fixed the bug." });
    done.said("ignored");
    expect(done.result("s", ENDED, 0)).toMatchObject({ text: "Fixed the bug.", cost: null });
    const command = new RunRecord(new SessionEvents(), "s");
    command.said("Session model: a/b");
    expect(command.result("s", ENDED, 0).text).toBe("Session model: a/b");
  });

  it("exits 0, 1, 3 (an approval no one could give) or 130 (cancelled, whatever else)", () => {
    expect(exitCodeOf(ENDED, 0)).toBe(0);
    expect(exitCodeOf({ ...ENDED, stopReason: "max_turns" }, 0)).toBe(1);
    expect(exitCodeOf({ ...ENDED, stopReason: "error" }, 0)).toBe(1);
    expect(exitCodeOf(ENDED, 2)).toBe(3);
    expect(exitCodeOf({ ...ENDED, stopReason: "error" }, 1)).toBe(3);
    expect(exitCodeOf({ ...ENDED, stopReason: "cancelled" }, 1)).toBe(130);
  });
});
