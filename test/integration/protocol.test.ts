/**
 * The custom agent protocol over a real (in-process) LSP connection: every method, bad params,
 * unknown methods, and cancel mid-stream and during a tool.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../../server/src/tools/define-tool.js";
import { startAgentHarness, type AgentHarness } from "../helpers/agent-setup.js";
import { PROMPTLY_MS, waitFor } from "../helpers/wait.js";

let h: AgentHarness;
beforeEach(async () => {
  h = await startAgentHarness();
});
afterEach(async () => {
  await h.dispose();
});

const rpcError = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (err) {
    return err as { code: number; message: string };
  }
  throw new Error("expected the request to fail");
};

describe("agent protocol", () => {
  it("advertises the server and answers newSession with the config defaults", async () => {
    expect(h.init.serverInfo?.name).toBe("agent-lsp");
    expect(h.init.capabilities.textDocumentSync).toMatchObject({ change: 2 });
    const res = await h.client.connection.sendRequest("agent/newSession", {});
    expect(res).toMatchObject({ mode: "full_access", model: "anthropic/claude-sonnet-4-6" });
    expect((res as { sessionId: string }).sessionId).toMatch(/^s-/);
  });

  it("streams a text turn as agent/update and answers end_turn with usage", async () => {
    h.fake.enqueue({ text: "Hello from the model.", usage: { input: 12, output: 5 } });
    const id = await h.newSession();
    const res = await h.prompt(id, "Say hello");
    expect(res).toMatchObject({ stopReason: "end_turn", usage: { inputTokens: 12, outputTokens: 5 } });
    expect(h.client.answerText()).toBe("Hello from the model.");
    expect(h.client.updatesOf("text").length).toBeGreaterThan(1); // it streamed, in pieces
    expect(h.client.updatesOf("usage")[0]).toMatchObject({ inputTokens: 12, outputTokens: 5 });
    expect(h.fake.violations).toEqual([]);
    expect(h.fake.requests[0]!.body.messages[0].content[0].text).toBe("Say hello");
  });

  it("lists sessions with a title and replays a loaded session's history", async () => {
    h.fake.enqueue({ text: "Answer one." });
    const id = await h.newSession();
    await h.prompt(id, "First question\nwith two lines");
    const list = (await h.client.connection.sendRequest("agent/listSessions", {})) as { sessions: any[] };
    expect(list.sessions).toEqual([expect.objectContaining({ sessionId: id, title: "First question" })]);
    // A second server on the same project resumes it from the log.
    const { startLspPair } = await import("../helpers/lsp-pair.js");
    const { fakeProviderOptions } = await import("../helpers/agent-setup.js");
    const other = await startLspPair({ root: h.root, initializationOptions: fakeProviderOptions(h.fake) });
    try {
      const loaded = await other.client.connection.sendRequest("agent/loadSession", { sessionId: id });
      expect(loaded).toMatchObject({ sessionId: id, mode: "full_access" });
      expect(other.client.updatesOf("user_message")[0].text).toContain("First question");
      expect(other.client.answerText()).toBe("Answer one.");
      h.fake.enqueue({ text: "Answer two." });
      await other.client.connection.sendRequest("agent/prompt", { sessionId: id, prompt: "Second" });
      const sent = h.fake.requests[1]!.body.messages;
      expect(sent.map((m: any) => m.role)).toEqual(["user", "assistant", "user"]);
    } finally {
      await other.close();
    }
  });

  it("says so when a resumed session's log has lines it cannot read", async () => {
    h.fake.enqueue({ text: "Answer one." });
    const id = await h.newSession();
    await h.prompt(id, "First question");
    const { appendFileSync } = await import("node:fs");
    appendFileSync(`${h.root}/.agent-lsp/conversations/${id}.jsonl`, '{"type":"message","seq":3,"mess'); // a write cut off
    const { startLspPair } = await import("../helpers/lsp-pair.js");
    const { fakeProviderOptions } = await import("../helpers/agent-setup.js");
    const other = await startLspPair({ root: h.root, initializationOptions: fakeProviderOptions(h.fake) });
    try {
      await other.client.connection.sendRequest("agent/loadSession", { sessionId: id });
      expect(other.client.answerText()).toBe("Answer one.");
      expect(other.client.updatesOf("status").map((u) => u.text)).toEqual([expect.stringContaining("1 line(s) of this session's log could not be read")]);
    } finally {
      await other.close();
    }
  });

  it("setMode and command change and report the session", async () => {
    const id = await h.newSession();
    expect(await h.client.connection.sendRequest("agent/setMode", { sessionId: id, mode: "read_only" })).toEqual({ mode: "read_only" });
    const res = (await h.client.connection.sendRequest("agent/command", { sessionId: id, command: "/mode" })) as { message: string };
    expect(res.message).toBe("Mode: read_only");
    const help = (await h.client.connection.sendRequest("agent/command", { sessionId: id, command: "help" })) as { message: string };
    expect(help.message).toContain("/model");
  });

  it.each([
    ["agent/prompt", { sessionId: 42, prompt: "x" }, "sessionId"],
    ["agent/prompt", { sessionId: "s" }, "prompt"],
    ["agent/setMode", { sessionId: "s", mode: "yolo" }, "mode"],
    ["agent/newSession", { mode: 3 }, "mode"],
    ["agent/command", { sessionId: "s" }, "command"],
    ["agent/loadSession", {}, "sessionId"],
  ])("%s with bad params %j answers -32602 naming %s", async (method, params, field) => {
    const err = await rpcError(h.client.connection.sendRequest(method, params));
    expect(err.code).toBe(-32602);
    expect(err.message).toContain(field);
    // and the server keeps serving
    await expect(h.client.connection.sendRequest("agent/listSessions", {})).resolves.toBeTruthy();
  });

  it("answers unknown methods with -32601 and unknown sessions with a clear error", async () => {
    const err = await rpcError(h.client.connection.sendRequest("agent/nope", {}));
    expect(err.code).toBe(-32601);
    const err2 = await rpcError(h.prompt("s-missing", "hi"));
    expect(err2.code).toBe(-32602);
    expect(err2.message).toContain('Unknown session "s-missing"');
    const err3 = await rpcError(h.client.connection.sendRequest("agent/command", { sessionId: await h.newSession(), command: "/frobnicate" }));
    expect(err3.message).toContain('Unknown command "/frobnicate"');
  });

  it("cancel mid-stream answers cancelled promptly and aborts the HTTP stream", async () => {
    h.fake.enqueue({ text: "partial answer that never ends", hang: true });
    const id = await h.newSession();
    const answer = h.prompt(id, "long task");
    await waitFor(() => h.client.updatesOf("text").length > 0);
    const t0 = Date.now();
    await h.client.connection.sendNotification("agent/cancel", { sessionId: id });
    const res = await answer;
    expect(Date.now() - t0).toBeLessThan(PROMPTLY_MS);
    expect(res.stopReason).toBe("cancelled");
    // The session is usable again, and its history kept the partial answer.
    h.fake.enqueue({ text: "ok" });
    await expect(h.prompt(id, "next")).resolves.toMatchObject({ stopReason: "end_turn" });
    const msgs = h.fake.requests[1]!.body.messages;
    expect(msgs[1]).toMatchObject({ role: "assistant" });
    expect(JSON.stringify(msgs[1])).toContain("partial");
  });

  it("cancel during a tool aborts the tool's signal and answers promptly", async () => {
    let aborted = false;
    h.server.runtime()!.registry.register(
      defineTool({
        name: "slow_tool",
        description: "waits until cancelled",
        input: z.object({}),
        policyClass: "read_only",
        category: "test",
        execute: (_i, ctx) =>
          new Promise((resolve) => {
            ctx.signal.addEventListener("abort", () => {
              aborted = true;
              resolve("stopped");
            });
          }),
      }),
    );
    h.fake.enqueue({ toolCalls: [{ name: "slow_tool", input: {} }] });
    const id = await h.newSession();
    const answer = h.prompt(id, "run the slow tool");
    await waitFor(() => h.client.updatesOf("tool_call_update").some((u) => u.status === "running"));
    const t0 = Date.now();
    await h.client.connection.sendNotification("agent/cancel", { sessionId: id });
    const res = await answer;
    expect(Date.now() - t0).toBeLessThan(PROMPTLY_MS);
    expect(res.stopReason).toBe("cancelled");
    await waitFor(() => aborted);
  });
});

