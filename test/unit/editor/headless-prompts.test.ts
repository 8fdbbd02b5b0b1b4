/**
 * Prompts on the terminal bind one answer to one prompt: two sessions (or subagents) asking at
 * once are asked in turn, so the line typed for the first never settles the second too.
 */
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { HeadlessEditor } from "../../../server/src/editor/headless.js";
import { newRequestId } from "../../../server/src/editor/session-ui.js";
import { waitFor } from "../../helpers/wait.js";

describe("headless prompts", () => {
  it("asks one prompt at a time: each typed line answers the prompt shown", async () => {
    const stdin = new PassThrough();
    const stderr = new PassThrough();
    let shown = "";
    stderr.on("data", (d) => (shown += String(d)));
    const editor = new HeadlessEditor({ interactive: true, stdin, stderr, stdout: new PassThrough() });
    const signal = new AbortController().signal;
    const request = (command: string) => ({
      sessionId: "s",
      requestId: newRequestId(),
      toolCall: { id: command, name: "execute_command", title: command, input: { command } },
      summary: `execute_command: ${command}`,
    });
    const first = editor.requestPermission(request("rm -rf build"), signal);
    const second = editor.askUser({ sessionId: "s", requestId: newRequestId(), question: "Which cache?", choices: ["SQLite", "Redis"] }, signal);
    await waitFor(() => shown.includes("rm -rf build"));
    expect(shown).not.toContain("Which cache?");
    stdin.write("3\n");
    expect((await first).optionId).toBe("reject");
    await waitFor(() => shown.includes("Which cache?"));
    stdin.write("2\n");
    expect(await second).toBe("Redis");
  });
});
