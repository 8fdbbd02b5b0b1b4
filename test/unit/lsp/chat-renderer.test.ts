/**
 * The chat file (Helix, plain LSP clients) shows long work too: the agent's messages while it
 * works, phase reports, the result and a spawned task; a subagent's steps are its parent call's
 * and stay out of the file.
 */
import { describe, expect, it } from "vitest";
import type { ApplyEditResult, FileChange, OpenDocument } from "../../../server/src/editor/document-host.js";
import { SessionEvents } from "../../../server/src/editor/session-events.js";
import { ChatDocument } from "../../../server/src/lsp/chat/chat-document.js";
import { ChatRenderer } from "../../../server/src/lsp/chat/chat-renderer.js";
import type { SessionUpdate } from "../../../server/src/protocol/updates.js";
import { memoryLogger } from "../../helpers/mcp/servers.js";

/** An editor that has the chat file open and applies every edit at once. */
function openEditor(): { host: ConstructorParameters<typeof ChatDocument>[0]["host"]; text(): string } {
  let doc: OpenDocument = { uri: "file:///p/.agent-lsp/chat.md", text: "", version: 1 };
  return {
    host: {
      readDocument: async () => doc,
      onDidChange: () => () => undefined,
      async applyEdit(_label: string, changes: FileChange[]): Promise<ApplyEditResult> {
        const change = changes[0]!;
        if (change.kind !== "edit" || change.version !== doc.version) return { applied: false };
        doc = { ...doc, text: change.newText, version: doc.version! + 1 };
        return { applied: true };
      },
    },
    text: () => doc.text,
  };
}

async function rendered(updates: SessionUpdate[]): Promise<string> {
  const events = new SessionEvents();
  const editor = openEditor();
  const doc = new ChatDocument({ root: "/p", host: editor.host, log: memoryLogger(), notify: () => undefined, intervalMs: 1 });
  const renderer = new ChatRenderer(events, doc);
  await renderer.follow("s", "Go");
  for (const u of updates) events.emit("s", u);
  await new Promise((r) => setTimeout(r, 0));
  await renderer.written();
  renderer.dispose();
  return editor.text();
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
