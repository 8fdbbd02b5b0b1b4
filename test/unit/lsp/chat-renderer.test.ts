/**
 * The chat file (Helix, plain LSP clients) shows long work too: the agent's messages while it
 * works, phase reports, the result and a spawned task; a subagent's steps are its parent call's
 * and stay out of the file.
 */
import { describe, expect, it } from "vitest";
import { SessionEvents } from "../../../server/src/editor/session-events.js";
import { ChatRenderer } from "../../../server/src/lsp/chat/chat-renderer.js";
import type { ChatWriter } from "../../../server/src/lsp/chat/chat-writer.js";
import type { SessionUpdate } from "../../../server/src/protocol/updates.js";

/** A writer that keeps the file in memory. */
function memoryWriter(): ChatWriter & { content: string } {
  const writer = {
    content: "",
    async ensureExists() {},
    async text() {
      return writer.content;
    },
    async append(text: string) {
      writer.content += text;
    },
    async idle() {},
  };
  return writer as unknown as ChatWriter & { content: string };
}

async function rendered(updates: SessionUpdate[]): Promise<string> {
  const events = new SessionEvents();
  const writer = memoryWriter();
  const renderer = new ChatRenderer(events, writer);
  await renderer.follow("s");
  for (const u of updates) events.emit("s", u);
  await renderer.written();
  renderer.dispose();
  return writer.content;
}

describe("the chat file", () => {
  it("shows a working message, a phase report, the result and a spawned task", async () => {
    const text = await rendered([
      { kind: "working_message", text: "Fixing it now." },
      { kind: "phase_report", completed: "Parser read", verification: "tests pass", nextPhase: "Fix", requiresAcknowledgment: false },
      { kind: "completion", result: "Fixed.", command: "npm test" },
      { kind: "task_spawned", sessionId: "s-2", title: "Upgrade" },
    ]);
    expect(text).toContain("> Fixing it now.\n");
    expect(text).toContain("**Phase done: Parser read. Verified: tests pass. Next: Fix.**\n");
    expect(text).toContain("**Result:** Fixed.\n\nRun: `npm test`\n");
    expect(text).toContain('_Started the task "Upgrade" (session s-2)._\n');
  });

  it("leaves a subagent's words and steps out; its parent call's line stays", async () => {
    const text = await rendered([
      { kind: "tool_call", id: "t1", name: "agent", title: "Subagent: look", input: {}, status: "pending" },
      { kind: "text", text: "child words", parentToolCallId: "t1", subagent: 1 },
      { kind: "tool_call", id: "c1", name: "read_file", title: "Read a.ts", input: {}, status: "pending", parentToolCallId: "t1", subagent: 1 },
      { kind: "tool_call_update", id: "c1", status: "completed", parentToolCallId: "t1", subagent: 1 },
      { kind: "tool_call_update", id: "t1", status: "completed", output: "found" },
    ]);
    expect(text).not.toContain("child words");
    expect(text).not.toContain("Read a.ts");
    expect(text).toContain("- Subagent: look ✓\n");
  });
});
