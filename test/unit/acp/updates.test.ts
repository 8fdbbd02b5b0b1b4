/**
 * The event stream as ACP session/update payloads, event kind by event kind, and the initialize
 * answer the start-up path sends before the SDK has loaded.
 */
import * as acp from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { ACP_PROTOCOL_VERSION, initializeResult, readInitialize } from "../../../server/src/acp/initialize.js";
import { noticeFallback, toAcpUpdate } from "../../../server/src/acp/updates.js";
import type { ChangedText, SessionEvent } from "../../../server/src/editor/session-events.js";

const ctx = (texts?: ChangedText[]) => ({ cwd: "/project", ...(texts ? { texts } : {}) });

describe("toAcpUpdate", () => {
  const cases: [string, SessionEvent, acp.SessionUpdate | undefined][] = [
    ["text", { kind: "text", text: "hi" }, { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "hi" } }],
    ["thought", { kind: "thought", text: "hmm" }, { sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "hmm" } }],
    ["user message (replay)", { kind: "user_message", text: "q" }, { sessionUpdate: "user_message_chunk", content: { type: "text", text: "q" } }],
    [
      "tool call: kind, absolute locations, raw input",
      { kind: "tool_call", id: "t1", name: "read_file", title: "Read a.ts", input: { path: "src/a.ts" }, status: "pending", toolKind: "read", locations: [{ path: "src/a.ts", line: 3, endLine: 9 }] },
      { sessionUpdate: "tool_call", toolCallId: "t1", title: "Read a.ts", kind: "read", status: "pending", rawInput: { path: "src/a.ts" }, locations: [{ path: "/project/src/a.ts", line: 3 }] },
    ],
    ["running is in_progress", { kind: "tool_call_update", id: "t1", status: "running" }, { sessionUpdate: "tool_call_update", toolCallId: "t1", status: "in_progress" }],
    [
      "output as text content",
      { kind: "tool_call_update", id: "t1", status: "failed", output: "boom" },
      { sessionUpdate: "tool_call_update", toolCallId: "t1", status: "failed", content: [{ type: "content", content: { type: "text", text: "boom" } }] },
    ],
    [
      "plan, priority defaulted",
      { kind: "plan", entries: [{ content: "step", status: "in_progress" }] },
      { sessionUpdate: "plan", entries: [{ content: "step", status: "in_progress", priority: "medium" }] },
    ],
    ["status as a live notice", { kind: "status", text: "retrying in 4 s" }, { sessionUpdate: "notice", severity: "info", title: "retrying in 4 s", _meta: { agentLsp: { live: true } } }],
    ["error as an error notice", { kind: "error", message: "no key" }, { sessionUpdate: "notice", severity: "error", title: "no key" }],
    ["working message as the agent's words", { kind: "working_message", text: "Next: the tests." }, { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "\nNext: the tests.\n" } }],
    [
      "completion as the agent's words, with its command",
      { kind: "completion", result: "Fixed.", command: "npm test" },
      { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "\nFixed.\n\n`npm test`\n" } },
    ],
    [
      "phase report as a notice",
      { kind: "phase_report", completed: "Parser", verification: "tests pass", nextPhase: "Callers", requiresAcknowledgment: false },
      { sessionUpdate: "notice", severity: "info", title: "Phase done: Parser. Verified: tests pass. Next: Callers." },
    ],
    ["spawned task as a notice", { kind: "task_spawned", sessionId: "s-1", title: "Upgrade" }, { sessionUpdate: "notice", severity: "info", title: 'Started the task "Upgrade" (session s-1)' }],
    ["a subagent's text is its parent call's, not the answer", { kind: "text", text: "child", parentToolCallId: "t1", subagent: 1 }, undefined],
    [
      "a subagent's tool call still shows",
      { kind: "tool_call_update", id: "c1", status: "running", parentToolCallId: "t1", subagent: 1 },
      { sessionUpdate: "tool_call_update", toolCallId: "c1", status: "in_progress" },
    ],
    ["usage without a context count goes in the prompt answer only", { kind: "usage", inputTokens: 1, outputTokens: 2, cachedTokens: 0 }, undefined],
    [
      "usage with the context count is the gauge, with the session's cost",
      { kind: "usage", inputTokens: 1, outputTokens: 2, cachedTokens: 0, cost: 0.01, sessionCost: 0.05, contextTokens: 1200, contextWindow: 200000 },
      { sessionUpdate: "usage_update", used: 1200, size: 200000, cost: { amount: 0.05, currency: "USD" } },
    ],
    ["a subagent's usage is not the session's gauge", { kind: "usage", inputTokens: 1, outputTokens: 2, cachedTokens: 0, contextTokens: 10, contextWindow: 100, parentToolCallId: "t9", subagent: 1 }, undefined],
    ["turn_end is the prompt answer", { kind: "turn_end", stopReason: "end_turn", usage: { inputTokens: 1, outputTokens: 2 } }, undefined],
  ];
  it.each(cases)("%s", (_name, event, expected) => {
    expect(toAcpUpdate(event, ctx())).toEqual(expected);
  });

  const edit: SessionEvent = { kind: "tool_call_update", id: "t2", status: "completed", diff: "--- a/a.ts\n+++ b/a.ts\n@@ -1 +1 @@\n-a\n+b\n", files: [{ path: "a.ts", diff: "--- a/a.ts\n+++ b/a.ts\n@@ -1 +1 @@\n-a\n+b\n" }] };

  it("a finished edit is ACP diff content with the whole texts the event's detail carries", () => {
    const update = toAcpUpdate(edit, ctx([{ path: "/project/a.ts", oldText: "a\n", newText: "b\n" }]));
    expect(update).toEqual({ sessionUpdate: "tool_call_update", toolCallId: "t2", status: "completed", content: [{ type: "diff", path: "/project/a.ts", oldText: "a\n", newText: "b\n" }] });
  });

  it("without the texts (a replayed history) each hunk is a diff of the lines it shows, nothing made up", () => {
    const update = toAcpUpdate(edit, ctx()) as Extract<acp.SessionUpdate, { sessionUpdate: "tool_call_update" }>;
    expect(update.content).toEqual([{ type: "diff", path: "/project/a.ts", oldText: "a", newText: "b" }]);
    const twoHunks = "--- a/a.ts\n+++ b/a.ts\n@@ -1,2 +1,2 @@\n x\n-a\n+b\n@@ -9 +9 @@\n-c\n+d\n";
    const both = toAcpUpdate({ ...edit, files: [{ path: "a.ts", diff: twoHunks }] }, ctx()) as Extract<acp.SessionUpdate, { sessionUpdate: "tool_call_update" }>;
    expect(both.content).toEqual([
      { type: "diff", path: "/project/a.ts", oldText: "x\na", newText: "x\nb" },
      { type: "diff", path: "/project/a.ts", oldText: "c", newText: "d" },
    ]);
  });

  it("a diff without hunks (a binary file's note) still goes as text", () => {
    const update = toAcpUpdate({ ...edit, files: [{ path: "a.bin", diff: "Binary files differ\n" }] }, ctx()) as Extract<acp.SessionUpdate, { sessionUpdate: "tool_call_update" }>;
    expect(update.content).toEqual([{ type: "content", content: { type: "text", text: "Binary files differ\n" } }]);
  });
});

describe("initialize before the SDK loads", () => {
  it("speaks the SDK's protocol version and never a newer one than the client", () => {
    expect(ACP_PROTOCOL_VERSION).toBe(acp.PROTOCOL_VERSION);
    expect(initializeResult(7).protocolVersion).toBe(ACP_PROTOCOL_VERSION);
    expect(initializeResult(0).protocolVersion).toBe(0);
  });

  it("answers only a well-formed initialize request", () => {
    expect(readInitialize('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}')).toEqual({ id: 1, protocolVersion: 1 });
    expect(readInitialize('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}')).toBeUndefined();
    expect(readInitialize('{"jsonrpc":"2.0","method":"initialize","params":{"protocolVersion":1}}')).toBeUndefined();
    expect(readInitialize('{"jsonrpc":"2.0","id":1,"method":"session/new","params":{}}')).toBeUndefined();
    expect(readInitialize("not json")).toBeUndefined();
  });
});

describe("notices for clients that did not declare session.notices", () => {
  it.each([
    ["an error becomes a line of the message", { sessionUpdate: "notice", severity: "error", title: "no key" }, { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "\n\n> Error: no key\n\n" } }],
    ["a warning too", { sessionUpdate: "notice", severity: "warning", title: "MCP servers not used: old" }, { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "\n\n> Warning: MCP servers not used: old\n\n" } }],
    ["live status is dropped", { sessionUpdate: "notice", severity: "info", title: "retrying in 4 s", _meta: { agentLsp: { live: true } } }, undefined],
    ["other information (a phase report) becomes a line", { sessionUpdate: "notice", severity: "info", title: "Phase done: Parser." }, { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "\n\n> Phase done: Parser.\n\n" } }],
    ["anything else passes", { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "hi" } }, { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "hi" } }],
  ] as [string, acp.SessionUpdate, acp.SessionUpdate | undefined][])("%s", (_name, update, expected) => {
    expect(noticeFallback(update)).toEqual(expected);
  });
});
