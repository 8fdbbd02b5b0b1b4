/**
 * The status line of `agent-lsp run`: drawn only on a terminal, erased before any other output,
 * never over an unfinished answer line, and saying what the turn does (the model awaited, a tool,
 * MCP servers starting, a retry).
 */
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { HeadlessEditor } from "../../../server/src/editor/headless.js";
import { SessionEvents } from "../../../server/src/editor/session-events.js";

const ERASE = "\r\u001b[2K";

function terminal(opts: { stdoutTTY: boolean; stderrTTY: boolean }) {
  const stdout = Object.assign(new PassThrough(), opts.stdoutTTY ? { isTTY: true } : {});
  const stderr = Object.assign(new PassThrough(), opts.stderrTTY ? { isTTY: true, columns: 100 } : {});
  let shown = "";
  stdout.on("data", (d) => (shown += String(d)));
  stderr.on("data", (d) => (shown += String(d)));
  const editor = new HeadlessEditor({ stdout, stderr });
  const events = new SessionEvents();
  editor.follow(events);
  return { editor, events, shown: () => shown, flush: () => new Promise((r) => setImmediate(r)) };
}

describe("the headless status line", () => {
  it("writes nothing when stderr is not a terminal", async () => {
    const t = terminal({ stdoutTTY: false, stderrTTY: false });
    t.editor.turnStarted();
    t.events.emit("s", { kind: "tool_call", id: "c1", name: "read_file", title: "Read a.ts", input: {}, status: "pending" });
    t.editor.progress("Starting MCP servers").report("fs: ready");
    t.events.emit("s", { kind: "turn_end", stopReason: "end_turn", usage: { inputTokens: 1, outputTokens: 1 } });
    await t.flush();
    expect(t.shown()).toBe("→ Read a.ts\n");
  });

  it("says what happens and is erased before each line written after it", async () => {
    const t = terminal({ stdoutTTY: true, stderrTTY: true });
    t.editor.turnStarted();
    await t.flush();
    expect(t.shown()).toMatch(/\r\u001b\[2K. waiting for the model \(0 s\)$/);
    t.events.emit("s", { kind: "tool_call", id: "c1", name: "read_file", title: "Read a.ts", input: {}, status: "pending" });
    await t.flush();
    // The tool line starts on an erased line, and the status comes back below it, naming the tool.
    expect(t.shown()).toMatch(/waiting for the model \(0 s\)\r\u001b\[2K→ Read a\.ts\n\r\u001b\[2K. Read a\.ts \(0 s\)$/);
    const mcp = t.editor.progress("Starting MCP servers");
    mcp.report("fs: ready (1)");
    await t.flush();
    expect(t.shown()).toMatch(/. Starting MCP servers: fs: ready \(1\)$/);
    mcp.done();
    t.events.emit("s", { kind: "tool_call_update", id: "c1", status: "completed", output: "2 lines" });
    t.events.emit("s", { kind: "status", text: "retrying in 2 s: 529 overloaded (attempt 2 of 5)" });
    await t.flush();
    expect(t.shown()).toMatch(/. retrying in 2 s: 529 overloaded \(attempt 2 of 5\)$/);
    t.events.emit("s", { kind: "turn_end", stopReason: "end_turn", usage: { inputTokens: 1, outputTokens: 1 } });
    expect(t.shown().endsWith(ERASE)).toBe(true);
  });

  it("names a slash command while it runs, until the turn it starts shows more", async () => {
    const t = terminal({ stdoutTTY: false, stderrTTY: true });
    t.editor.turnStarted("running /compact");
    await t.flush();
    expect(t.shown()).toMatch(/. running \/compact \(0 s\)$/);
    t.events.emit("s", { kind: "text", text: "Compacted." });
    expect(t.shown()).toMatch(/. the model is writing$/);
    t.editor.finish();
  });

  it("never draws over the answer's unfinished line on a shared terminal", async () => {
    const t = terminal({ stdoutTTY: true, stderrTTY: true });
    t.editor.turnStarted();
    t.events.emit("s", { kind: "text", text: "Half a sent" });
    const before = t.shown();
    // A report draws at once where it may; here it may not.
    t.editor.progress("Starting MCP servers").report("fs: starting");
    await t.flush();
    expect(t.shown()).toBe(before);
    expect(before.endsWith("Half a sent")).toBe(true);
    t.editor.finish();
  });
});
