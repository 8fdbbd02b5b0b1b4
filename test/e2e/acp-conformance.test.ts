/**
 * What the ACP spec asks of an agent, through the built binary, driven by the SDK's own client
 * side (which checks every message against the schema): the mode as a config option kept in step
 * with set_mode, a cancelled turn's updates before its answer, slash commands among other blocks,
 * a replay that shows calls and prompts as they were, requests pipelined behind initialize, no
 * empty sessions listed, and a failed turn's error said once.
 */
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type * as acp from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { spawnAcp, userConfigHome, type AcpHarness } from "../helpers/acp-client.js";
import { fakeProviderOptions, tempProject } from "../helpers/agent-setup.js";
import { startFakeProvider, type FakeProvider } from "../helpers/fake-provider/index.js";
import { BINARY } from "../helpers/spawn-server.js";
import { waitFor } from "../helpers/wait.js";

let fake: FakeProvider | undefined;
let h: AcpHarness | undefined;
let root: string;
afterEach(async () => {
  await h?.close();
  await fake?.close();
  h = undefined;
  fake = undefined;
});

const FS = { fs: { readTextFile: true, writeTextFile: true } };

async function start(extra: Record<string, unknown> = {}): Promise<string> {
  fake = await startFakeProvider();
  root = tempProject();
  h = spawnAcp(root, userConfigHome(fakeProviderOptions(fake, { tools: { provider_native: false }, ...extra })));
  await h.initialize(FS);
  const { sessionId } = await h.agent.request("session/new", { cwd: root, mcpServers: [] });
  return sessionId;
}

const messageText = (harness: AcpHarness) =>
  harness
    .updatesOf("agent_message_chunk")
    .map((u) => (u.content.type === "text" ? u.content.text : ""))
    .join("");

describe("ACP: the mode as a session config option", () => {
  it("is offered beside the model, set through set_config_option, and kept in step with set_mode", async () => {
    const sessionId = await start({ safety: "ask" });
    const set = await h!.agent.request("session/set_config_option", { sessionId, configId: "mode", value: "plan" });
    const mode = set.configOptions.find((o) => o.id === "mode")!;
    expect(mode).toMatchObject({ category: "mode", currentValue: "plan" });
    expect(mode.type === "select" && mode.options.map((o) => ("value" in o ? o.value : ""))).toEqual(["read_only", "plan", "ask", "auto", "full_access"]);
    await waitFor(() => h!.updatesOf("current_mode_update").some((u) => u.currentModeId === "plan"));

    await h!.agent.request("session/set_mode", { sessionId, modeId: "auto" });
    await waitFor(() => h!.updatesOf("config_option_update").some((u) => u.configOptions.find((o) => o.id === "mode")?.currentValue === "auto"));
    await expect(h!.agent.request("session/set_config_option", { sessionId, configId: "mode", value: "yolo" })).rejects.toMatchObject({ code: -32602 });

    // A mode changed by a slash command is told too.
    await h!.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "/mode read_only" }] });
    await waitFor(() => h!.updatesOf("config_option_update").some((u) => u.configOptions.find((o) => o.id === "mode")?.currentValue === "read_only"));
  });
});

describe("ACP: cancel", () => {
  it("sends every update of the cancelled turn before the answer, which counts the tokens used", async () => {
    const sessionId = await start();
    fake!.enqueue({ toolCalls: [{ name: "execute_command", input: { command: "sleep 30" } }], usage: { input: 1200, output: 30 } });
    const running = h!.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "wait" }] });
    await waitFor(() => h!.updatesOf("tool_call_update").some((u) => u.status === "in_progress"), 15_000);
    const call = h!.updatesOf("tool_call")[0]!;
    await h!.agent.notify("session/cancel", { sessionId });
    const answer = await running;
    expect(answer.stopReason).toBe("cancelled");
    // In the order the agent wrote them: the call's last status, then the answer.
    const answerAt = h!.wire.findIndex((m) => m.result?.stopReason === "cancelled");
    const lastStatusAt = h!.wire.findIndex((m) => {
      const u = m.method === "session/update" ? m.params.update : undefined;
      return u?.sessionUpdate === "tool_call_update" && u.toolCallId === call.toolCallId && (u.status === "failed" || u.status === "completed");
    });
    expect(lastStatusAt).toBeGreaterThan(-1);
    expect(lastStatusAt).toBeLessThan(answerAt);
    expect((answer._meta as { agentLsp: { usage: { inputTokens: number } } }).agentLsp.usage.inputTokens).toBe(1200);
  });
});

describe("ACP: slash commands", () => {
  it("run when the first text block starts with /, whatever blocks come with it", async () => {
    const sessionId = await start();
    writeFileSync(path.join(root, "a.ts"), "export {};\n");
    const link = { type: "resource_link" as const, uri: pathToFileURL(path.join(root, "a.ts")).href, name: "a.ts" };
    const withLink = (await h!.agent.request("session/prompt", { sessionId, prompt: [link, { type: "text", text: "/checkpoints" }] })) as { stopReason: string };
    expect(withLink.stopReason).toBe("end_turn");
    expect(messageText(h!)).toMatch(/checkpoint/i);
    const lead = await h!.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "please sleep" }, { type: "text", text: "/help" }] });
    expect(lead.stopReason).toBe("end_turn");
    expect(messageText(h!)).toMatch(/\/undo/);
    expect(fake!.requests).toHaveLength(0);
  });
});

describe("ACP: a command that sends a message", () => {
  it("takes the prompt's other blocks as its context, and is answered as the turn it runs, cancel included", async () => {
    const sessionId = await start();
    mkdirSync(path.join(root, ".agent-lsp", "workflows"), { recursive: true });
    writeFileSync(path.join(root, ".agent-lsp", "workflows", "review.md"), "# Review\n1. Read the file given.\n");
    writeFileSync(path.join(root, "a.ts"), "export const reviewed = 1;\n");
    const link = { type: "resource_link" as const, uri: pathToFileURL(path.join(root, "a.ts")).href, name: "a.ts" };
    fake!.enqueue({ text: "Looks fine.", usage: { input: 700, output: 9 } });
    const answer = (await h!.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "/review closely" }, link, { type: "text", text: "Mind the exports." }] })) as acp.PromptResponse;
    expect(answer.stopReason).toBe("end_turn");
    expect((answer._meta as { agentLsp: { usage: { inputTokens: number } } }).agentLsp.usage.inputTokens).toBe(700);
    const sent = JSON.stringify(fake!.requests[0]!.body.messages);
    expect(sent).toContain("1. Read the file given.");
    expect(sent).toContain("export const reviewed = 1;");
    expect(sent).toContain("Mind the exports.");
    // The transcript shows the command's message with the file as an attachment.
    const shown = h!.updatesOf("user_message_chunk").map((u) => u.content);
    expect(shown.some((c) => c.type === "text" && c.text.includes("Mind the exports."))).toBe(true);
    expect(shown.some((c) => c.type === "resource_link" && c.uri === link.uri)).toBe(true);

    fake!.enqueue({ toolCalls: [{ name: "execute_command", input: { command: "sleep 30" } }] });
    const running = h!.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "/review" }] });
    await waitFor(() => h!.updatesOf("tool_call_update").some((u) => u.status === "in_progress"), 15_000);
    await h!.agent.notify("session/cancel", { sessionId });
    expect((await running).stopReason).toBe("cancelled");
  });
});

describe("ACP: replay", () => {
  it("shows tool calls with their kind, title, locations and diff, and prompts as the user wrote them", async () => {
    const sessionId = await start({ safety: "full_access" });
    const file = path.join(root, "c.txt");
    writeFileSync(file, "one\ntwo\n");
    fake!.enqueue({ toolCalls: [{ name: "edit_file", input: { path: "c.txt", target_content: "two", replacement_content: "three" } }] }, { text: "Done." });
    const link = { type: "resource_link" as const, uri: pathToFileURL(file).href, name: "c.txt" };
    await h!.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "change it" }, link] });
    const live = h!.updatesOf("tool_call")[0]!;
    await h!.close();

    h = spawnAcp(root, userConfigHome(fakeProviderOptions(fake!, { tools: { provider_native: false } })));
    await h.initialize(FS);
    await h.agent.request("session/load", { sessionId, cwd: root, mcpServers: [] });
    const replayed = h.updatesOf("tool_call")[0]!;
    expect(replayed).toMatchObject({ kind: "edit", title: live.title, locations: [{ path: file }] });
    const done = h.updatesOf("tool_call_update").find((u) => u.toolCallId === replayed.toolCallId)!;
    expect(done.content?.[0]).toEqual({ type: "diff", path: file, oldText: expect.stringContaining("two"), newText: expect.stringContaining("three") });
    const user = h.updatesOf("user_message_chunk").map((u) => u.content);
    expect(user).toContainEqual({ type: "text", text: "change it" });
    expect(user).toContainEqual(expect.objectContaining({ type: "resource_link", uri: pathToFileURL(file).href }));
    expect(JSON.stringify(user)).not.toContain("<file");
  });
});

describe("ACP: files through the client", () => {
  it("one edit reads its file through the client once and writes it once", async () => {
    const sessionId = await start({ safety: "full_access" });
    const file = path.join(root, "e.txt");
    writeFileSync(file, "alpha\nbeta\n");
    fake!.enqueue({ toolCalls: [{ name: "edit_file", input: { path: "e.txt", target_content: "beta", replacement_content: "gamma" } }] }, { text: "Done." });
    await h!.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "edit" }] });
    expect(h!.writes.map((w) => w.content)).toEqual(["alpha\ngamma\n"]);
    expect(h!.reads.filter((r) => r.path === file)).toHaveLength(1);
    // This client keeps writes in its buffer (the disk still has the old text): the model hears "not saved".
    expect(JSON.stringify(fake!.requests[1]!.body.messages)).toContain("(not saved to disk yet): e.txt");
  });

  it("tells the model a file is saved when the client saved what it was sent", async () => {
    const sessionId = await start({ safety: "full_access" });
    h!.saveWrites = true;
    const file = path.join(root, "s.txt");
    writeFileSync(file, "alpha\n");
    fake!.enqueue({ toolCalls: [{ name: "edit_file", input: { path: "s.txt", target_content: "alpha", replacement_content: "omega" } }] }, { text: "Done." });
    await h!.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "edit" }] });
    expect(readFileSync(file, "utf8")).toBe("omega\n");
    const told = JSON.stringify(fake!.requests[1]!.body.messages);
    expect(told).toContain("which saved it to disk: s.txt");
    expect(told).not.toContain("not saved to disk yet");
  });
});

describe("ACP: transport and sessions", () => {
  it("queues a session/new written in the same chunk as initialize", async () => {
    root = tempProject();
    const child = spawn(process.execPath, [BINARY, "--acp"], { cwd: root, env: { ...process.env, XDG_CONFIG_HOME: userConfigHome({}) }, stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    const init = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 1, clientCapabilities: {} } };
    const create = { jsonrpc: "2.0", id: 2, method: "session/new", params: { cwd: root, mcpServers: [] } };
    child.stdin.write(`${JSON.stringify(init)}\n${JSON.stringify(create)}\n`);
    try {
      await waitFor(() => out.split("\n").filter(Boolean).some((l) => (JSON.parse(l) as { id?: number }).id === 2), 20_000);
      const answer = out.split("\n").filter(Boolean).map((l) => JSON.parse(l) as { id?: number; result?: { sessionId?: string }; error?: unknown }).find((m) => m.id === 2)!;
      expect(answer.error).toBeUndefined();
      expect(answer.result?.sessionId).toEqual(expect.any(String));
    } finally {
      child.kill("SIGKILL");
    }
  });

  it("lists a session only once it has a message", async () => {
    const sessionId = await start();
    const empty = await h!.agent.request("session/new", { cwd: root, mcpServers: [] });
    fake!.enqueue({ text: "hi" });
    await h!.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "hello" }] });
    const listed = (await h!.agent.request("session/list", { cwd: root })).sessions.map((s) => s.sessionId);
    expect(listed).toContain(sessionId);
    expect(listed).not.toContain(empty.sessionId);
  });

  it("says a failed turn's error once: in the answer, not also as a notice", async () => {
    const sessionId = await start({ retry: { max_retries: 0 } });
    fake!.enqueue({ error: { status: 400, message: "bad request: the prompt is malformed" } });
    await expect(h!.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "go" }] })).rejects.toMatchObject({
      message: expect.stringContaining("the prompt is malformed"),
    });
    const said = JSON.stringify(h!.updates);
    expect(said).not.toContain("the prompt is malformed");
    expect(readFileSync(path.join(root, ".agent-lsp", "conversations", `${sessionId}.jsonl`), "utf8")).toContain("go");
  });
});
