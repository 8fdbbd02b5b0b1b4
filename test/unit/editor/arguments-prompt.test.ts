/**
 * A terminal permission prompt for a call that is neither a change nor a command (an MCP tool's)
 * shows the call's arguments: pretty JSON, control and invisible characters as escapes, a long
 * value folded to its start and end; a command's prompt does not repeat its input.
 */
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { argumentsText } from "../../../server/src/editor/arguments-text.js";
import { HeadlessEditor } from "../../../server/src/editor/headless.js";
import { newRequestId } from "../../../server/src/editor/session-ui.js";
import { waitFor } from "../../helpers/wait.js";

describe("arguments in a terminal prompt", () => {
  it("are pretty JSON with escapes, and a long value is folded", () => {
    const long = `start${"x".repeat(5000)}end`;
    const text = argumentsText({ a: 20, note: "line\nnext\u001b[8mhidden\u202e", long });
    expect(text).toContain('  "a": 20,');
    expect(text).toContain('"note": "line\\nnext\\u001b[8mhidden\\u202e"');
    expect(text).not.toContain("\u001b");
    expect(text).toMatch(/"long": "startx+ … \(4828 characters not shown\) … x+end"/);
    expect(argumentsText({})).toBe("");
    expect(argumentsText(undefined)).toBe("");
  });

  it("an MCP tool's prompt shows them before the choices; a command's does not", async () => {
    const stdin = new PassThrough();
    const stderr = new PassThrough();
    let shown = "";
    stderr.on("data", (d) => (shown += String(d)));
    const editor = new HeadlessEditor({ interactive: true, stdin, stderr, stdout: new PassThrough() });
    const signal = new AbortController().signal;
    const mcp = editor.requestPermission(
      {
        sessionId: "s",
        requestId: newRequestId(),
        toolCall: { id: "1", name: "mcp__everything__get-sum", title: "everything: Get Sum Tool", input: { a: 20, b: 22 } },
        summary: "mcp__everything__get-sum: everything: Get Sum Tool",
      },
      signal,
    );
    await waitFor(() => shown.includes("[3] No"));
    expect(shown).toContain('mcp__everything__get-sum: everything: Get Sum Tool\nArguments:\n  {\n    "a": 20,\n    "b": 22\n  }\n[1] Yes');
    stdin.write("1\n");
    expect((await mcp).optionId).toBe("allow_once");
    shown = "";
    const command = editor.requestPermission(
      {
        sessionId: "s",
        requestId: newRequestId(),
        toolCall: { id: "2", name: "execute_command", title: "ls", input: { command: "ls" }, command: { command: "ls", cwd: "/p" } },
        summary: "execute_command: ls",
      },
      signal,
    );
    await waitFor(() => shown.includes("[3] No"));
    expect(shown).not.toContain("Arguments:");
    stdin.write("3\n");
    expect((await command).optionId).toBe("reject");
  });
});
