/**
 * What `agent-lsp run` prints of long work: the checklist, reports, the result, a spawned task,
 * and a subagent's steps (indented; its words are its parent call's).
 */
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { HeadlessEditor } from "../../../server/src/editor/headless.js";
import { SessionEvents } from "../../../server/src/editor/session-events.js";
import type { SessionUpdate } from "../../../server/src/protocol/updates.js";

function printed(updates: SessionUpdate[], terminal = false): { stdout: string; stderr: string } {
  const stdout = Object.assign(new PassThrough(), terminal ? { isTTY: true } : {});
  const stderr = new PassThrough();
  const out: string[] = [];
  const err: string[] = [];
  stdout.on("data", (d) => out.push(String(d)));
  stderr.on("data", (d) => err.push(String(d)));
  const editor = new HeadlessEditor({ stdout, stderr });
  const events = new SessionEvents();
  editor.follow(events);
  for (const u of updates) events.emit("s", u);
  return { stdout: out.join(""), stderr: err.join("") };
}

describe("the headless CLI", () => {
  it("prints the checklist, a message, a phase report, the result and a spawned task", () => {
    const { stderr } = printed([
      { kind: "plan", entries: [{ id: "1", content: "Read", status: "completed" }, { id: "2", content: "Fix", status: "in_progress" }, { id: "3", content: "Test", status: "pending" }] },
      { kind: "working_message", text: "Fixing now." },
      { kind: "phase_report", completed: "Read", verification: "ok", requiresAcknowledgment: false },
      { kind: "completion", result: "Fixed it.", command: "npm test" },
      { kind: "task_spawned", sessionId: "s-2", title: "Upgrade" },
    ]);
    expect(stderr).toBe(
      [
        "Checklist:",
        "  [x] Read",
        "  [~] Fix",
        "  [ ] Test",
        "» Fixing now.",
        "■ Phase done: Read. Verified: ok.",
        "✔ Result:",
        "Fixed it.",
        "  run: npm test",
        '+ Started the task "Upgrade" (session s-2)',
        "",
      ].join("\n"),
    );
  });

  it("shows a call the user declined as declined, another failure as failed", () => {
    const { stderr } = printed([
      { kind: "tool_call_update", id: "c1", status: "failed", declined: true, output: "The user declined edit_file: a.txt." },
      { kind: "tool_call_update", id: "c2", status: "failed", output: "No such file." },
    ]);
    expect(stderr).toBe("✗ declined: The user declined edit_file: a.txt.\n✗ No such file.\n");
  });

  it("indents a subagent's steps and leaves its words out of the answer", () => {
    const { stdout, stderr } = printed([
      { kind: "tool_call", id: "t1", name: "agent", title: "Subagent: look", input: {}, status: "pending" },
      { kind: "tool_call", id: "c1", name: "read_file", title: "Read a.ts", input: {}, status: "pending", parentToolCallId: "t1", subagent: 1 },
      { kind: "text", text: "child words", parentToolCallId: "t1", subagent: 1 },
      { kind: "tool_call_update", id: "c1", status: "completed", output: "1 line", parentToolCallId: "t1", subagent: 1 },
    ]);
    expect(stdout).toBe("");
    expect(stderr).toBe("→ Subagent: look\n  → Read a.ts\n  ✓ 1 line\n");
  });

  it("shows escape sequences in what reaches the terminal, so a title cannot hide the prompt after it", () => {
    const esc = "\u001b";
    const updates: SessionUpdate[] = [
      { kind: "tool_call", id: "t1", name: "execute_command", title: `Run ls ${esc}[8m`, input: {}, status: "pending" },
      { kind: "text", text: `done${esc}[2K\r\n` },
    ];
    const shown = printed(updates, true);
    expect(shown.stderr).toBe("→ Run ls \\x1b[8m\n");
    expect(shown.stdout).toBe("done\\x1b[2K\r\n");
    // Piped to a file or a program, the answer is data: it goes out as the model wrote it.
    expect(printed(updates).stdout).toBe(`done${esc}[2K\r\n`);
  });

  it("starts each model call's text as a paragraph of its own; pieces of one call stay together", () => {
    const call = (id: string): SessionUpdate[] => [
      { kind: "tool_call", id, name: "read_file", title: `Read ${id}`, input: {}, status: "pending" },
      { kind: "tool_call_update", id, status: "completed", output: "ok" },
    ];
    const { stdout } = printed([
      { kind: "text", text: "Let me look at " },
      { kind: "text", text: "the files first." },
      ...call("a"),
      { kind: "text", text: "Now I create it.\n" },
      ...call("b"),
      { kind: "text", text: "Done." },
    ]);
    expect(stdout).toBe("Let me look at the files first.\n\nNow I create it.\n\nDone.");
  });

  it("on a terminal, ends the answer's line before a tool line or the usage line is shown", () => {
    const screen: string[] = [];
    const stream = () => Object.assign(new PassThrough(), { isTTY: true });
    const stdout = stream();
    const stderr = stream();
    stdout.on("data", (d) => screen.push(String(d)));
    stderr.on("data", (d) => screen.push(String(d)));
    const editor = new HeadlessEditor({ stdout, stderr });
    const events = new SessionEvents();
    editor.follow(events);
    events.emit("s", { kind: "text", text: "Working on it" });
    events.emit("s", { kind: "tool_call", id: "a", name: "read_file", title: "Read a", input: {}, status: "pending" });
    events.emit("s", { kind: "text", text: "All done" });
    events.emit("s", { kind: "usage", inputTokens: 10, outputTokens: 2, cachedTokens: 0 });
    editor.finish();
    expect(screen.join("")).toBe("Working on it\n→ Read a\n\nAll done\ntokens: 10 in, 2 out\n");
  });
});
