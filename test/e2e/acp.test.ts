/**
 * `agent-lsp --acp` on the built binary, driven by the ACP SDK's own client side over stdio:
 * the session lifecycle, streamed text, tool calls with diff content, permission prompts answered
 * each way, cancel, replay on load, modes, the client's unsaved buffers and all-or-nothing writes
 * through fs/*, and the errors bad input gets.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { spawnAcp, userConfigHome, type AcpHarness } from "../helpers/acp-client.js";
import { fakeProviderOptions, tempProject } from "../helpers/agent-setup.js";
import { startFakeProvider, type FakeProvider } from "../helpers/fake-provider/index.js";
import { EVERYTHING } from "../helpers/mcp/servers.js";
import { uniqueSleep, waitForSleepers } from "../helpers/host-processes.js";
import { waitFor } from "../helpers/wait.js";

let fake: FakeProvider;
let h: AcpHarness;
let root: string;
afterEach(async () => {
  await h?.close();
  await fake?.close();
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const FS = { fs: { readTextFile: true, writeTextFile: true } };

async function start(extra: Record<string, unknown> = {}, capabilities: object = FS): Promise<string> {
  fake = await startFakeProvider();
  root = tempProject();
  h = spawnAcp(root, userConfigHome(fakeProviderOptions(fake, { tools: { provider_native: false }, ...extra })));
  await h.initialize(capabilities);
  const { sessionId } = await h.agent.request("session/new", { cwd: root, mcpServers: [] });
  return sessionId;
}

const text = (h: AcpHarness) =>
  h
    .updatesOf("agent_message_chunk")
    .map((u) => (u.content.type === "text" ? u.content.text : ""))
    .join("");

describe("agent-lsp --acp", () => {
  it("initializes, starts a session with our modes and commands, and streams a prompt's answer", async () => {
    fake = await startFakeProvider();
    root = tempProject();
    h = spawnAcp(root, userConfigHome(fakeProviderOptions(fake)));
    const init = await h.initialize();
    expect(init.protocolVersion).toBe(1);
    expect(init.agentCapabilities).toMatchObject({ loadSession: true, promptCapabilities: { image: true, embeddedContext: true } });
    const created = await h.agent.request("session/new", { cwd: root, mcpServers: [] });
    expect(created.modes?.currentModeId).toBe("full_access");
    expect(created.modes?.availableModes.map((m) => m.id)).toEqual(["read_only", "plan", "ask", "auto", "full_access"]);
    expect(created.configOptions?.map((o) => [o.id, o.category, o.currentValue])).toEqual([
      ["mode", "mode", "full_access"],
      ["model", "model", "anthropic/claude-sonnet-4-6"],
    ]);
    fake.enqueue({ text: "Hello from the agent, in several chunks.", chunkSize: 5 });
    const answer = await h.agent.request("session/prompt", { sessionId: created.sessionId, prompt: [{ type: "text", text: "hi" }] });
    expect(answer.stopReason).toBe("end_turn");
    expect(answer._meta).toMatchObject({ agentLsp: { usage: { inputTokens: expect.any(Number), outputTokens: expect.any(Number) } } });
    expect(h.updatesOf("agent_message_chunk").length).toBeGreaterThan(3);
    expect(text(h)).toBe("Hello from the agent, in several chunks.");
    const gauge = h.updatesOf("usage_update").at(-1);
    expect(gauge).toMatchObject({ used: expect.any(Number), size: 200_000 });
    expect(gauge!.used).toBeGreaterThan(0);
    await waitFor(() => h.updatesOf("available_commands_update").length > 0);
    expect(h.updatesOf("available_commands_update")[0]!.availableCommands.map((c) => c.name)).toContain("undo");
    expect(fake.violations).toEqual([]);
  });

  it("runs a project workflow sent as a /command prompt: its steps go to the model as the user's message", async () => {
    const sessionId = await start();
    mkdirSync(path.join(root, ".agent-lsp", "workflows"), { recursive: true });
    writeFileSync(path.join(root, ".agent-lsp", "workflows", "ship.md"), "# Ship it\n1. Run the tests.\n");
    fake.enqueue({ text: "Shipped." });
    const answer = await h.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "/ship today" }] });
    expect(answer.stopReason).toBe("end_turn");
    const sent = JSON.stringify(fake.requests[0]!.body.messages);
    expect(sent).toContain("Follow the workflow \\\"ship\\\"");
    expect(sent).toContain("1. Run the tests.");
    expect(sent).toContain("Notes: today");
  });

  it("asks permission with the diff, writes through fs/write_text_file, and reports the tool call with diff content", async () => {
    const sessionId = await start({ safety: "ask" });
    const file = path.join(root, "a.txt");
    writeFileSync(file, "old\n");
    const read = { name: "read_file", input: { path: "a.txt" } };
    fake.enqueue({ toolCalls: [read] }, { toolCalls: [{ name: "write_file", input: { path: "a.txt", content: "new\n" } }] }, { text: "Done." });
    const answer = await h.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "change it" }] });
    expect(answer.stopReason).toBe("end_turn");
    const [asked] = h.permissions;
    expect(asked!.toolCall).toMatchObject({ kind: "edit", locations: [{ path: file }], content: [{ type: "diff", path: file, oldText: "old\n", newText: "new\n" }] });
    expect(asked!.options.map((o) => o.kind)).toEqual(["allow_once", "allow_always", "reject_once"]);
    const call = h.updatesOf("tool_call")[1]!;
    expect(call).toMatchObject({ kind: "edit", title: expect.any(String), locations: [{ path: file }] });
    const done = h.updatesOf("tool_call_update").find((u) => u.toolCallId === call.toolCallId && u.status === "completed");
    expect(done?.content?.[0]).toEqual({ type: "diff", path: file, oldText: "old\n", newText: "new\n" });
    expect(h.writes).toEqual([expect.objectContaining({ sessionId, path: file, content: "new\n" })]);
    expect(readFileSync(file, "utf8")).toBe("old\n"); // the client's buffer has it; the client saves
  });

  it("with no prompt (full_access, on disk) a finished edit is still diff content with the whole texts", async () => {
    const sessionId = await start({}, {});
    const file = path.join(root, "c.txt");
    writeFileSync(file, "one\ntwo\n");
    const read = { name: "read_file", input: { path: "c.txt" } };
    fake.enqueue({ toolCalls: [read] }, { toolCalls: [{ name: "edit_file", input: { path: "c.txt", target_content: "two", replacement_content: "three" } }] }, { text: "Done." });
    await h.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "change it" }] });
    expect(h.permissions).toEqual([]);
    const call = h.updatesOf("tool_call")[1]!;
    const done = h.updatesOf("tool_call_update").find((u) => u.toolCallId === call.toolCallId && u.status === "completed");
    expect(done?.content?.[0]).toEqual({ type: "diff", path: file, oldText: "one\ntwo\n", newText: "one\nthree\n" });
    expect(readFileSync(file, "utf8")).toBe("one\nthree\n");
  });

  it("a free-text question is a form elicitation for a client that declares it; the answer reaches the model", async () => {
    const sessionId = await start({}, { elicitation: { form: {} } });
    h.elicitationReply = { action: "accept", content: { answer: "sumPair" } };
    fake.enqueue({ toolCalls: [{ name: "ask_user_question", input: { question: "What should the helper be called?" } }] }, { text: "Named." });
    await h.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "name it" }] });
    expect(h.elicitations).toEqual([expect.objectContaining({ mode: "form", sessionId, message: "What should the helper be called?" })]);
    expect(JSON.stringify(fake.requests[1]!.body.messages)).toContain("The user answered: sumPair");
  });

  it("a rejected prompt changes nothing; allow_always is not asked again", async () => {
    const sessionId = await start({ safety: "ask" });
    const file = path.join(root, "b.txt");
    writeFileSync(file, "one\n");
    h.permission = "reject_once";
    const read = { name: "read_file", input: { path: "b.txt" } };
    fake.enqueue({ toolCalls: [read] }, { toolCalls: [{ name: "write_file", input: { path: "b.txt", content: "two\n" } }] }, { text: "Not done." });
    await h.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "change it" }] });
    expect(h.permissions).toHaveLength(1);
    expect(h.writes).toEqual([]);
    expect(JSON.stringify(fake.requests[2]!.body.messages.at(-1))).toMatch(/declined|reject|not allowed/i);

    h.permission = "cancelled";
    fake.enqueue({ toolCalls: [{ name: "write_file", input: { path: "b.txt", content: "two\n" } }] }, { text: "Not done either." });
    await h.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "change it" }] });
    expect(h.permissions).toHaveLength(2);
    expect(h.writes).toEqual([]);
    expect(JSON.stringify(fake.requests[4]!.body.messages.at(-1))).toMatch(/the client cancelled the prompt/);

    h.permission = "allow_always";
    fake.enqueue({ toolCalls: [{ name: "write_file", input: { path: "b.txt", content: "two\n" } }] }, { toolCalls: [{ name: "write_file", input: { path: "b.txt", content: "three\n" } }] }, { text: "Done." });
    await h.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "change it twice" }] });
    expect(h.permissions).toHaveLength(3);
    expect(h.writes.map((w) => w.content)).toEqual(["two\n", "three\n"]);
  });

  it("a client that never answers a prompt gets it withdrawn at the timeout, counted as reject", async () => {
    const sessionId = await start({ safety: "ask", approval_timeout_s: 0.5 });
    h.permission = "never";
    fake.enqueue({ toolCalls: [{ name: "write_file", input: { path: "c.txt", content: "x\n" } }] }, { text: "Gave up." });
    const answer = await h.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "write c" }] });
    expect(answer.stopReason).toBe("end_turn");
    expect(h.permissions).toHaveLength(1);
    expect(h.writes).toEqual([]);
    expect(existsSync(path.join(root, "c.txt"))).toBe(false);
    expect(JSON.stringify(fake.requests[1]!.body.messages.at(-1))).toMatch(/no answer within 0.5 s/);
  });

  it("a cancel withdraws a pending permission prompt", async () => {
    const sessionId = await start({ safety: "ask" });
    h.permission = "never";
    fake.enqueue({ toolCalls: [{ name: "write_file", input: { path: "d.txt", content: "x\n" } }] });
    const asking = h.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "write d" }] });
    await waitFor(() => h.permissions.length === 1);
    await h.agent.notify("session/cancel", { sessionId });
    expect((await asking).stopReason).toBe("cancelled");
    expect(h.writes).toEqual([]);
  });

  it("cancels during a stream and during a tool", async () => {
    const sessionId = await start();
    fake.enqueue({ text: "this never ends", hang: true });
    const streaming = h.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "talk" }] });
    await waitFor(() => h.updatesOf("agent_message_chunk").length > 0);
    await h.agent.notify("session/cancel", { sessionId });
    expect((await streaming).stopReason).toBe("cancelled");

    fake.enqueue({ toolCalls: [{ name: "execute_command", input: { command: "sleep 30" } }] });
    const started = Date.now();
    const running = h.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "wait" }] });
    await waitFor(() => h.updatesOf("tool_call_update").some((u) => u.status === "in_progress"), 10_000);
    await h.agent.notify("session/cancel", { sessionId });
    expect((await running).stopReason).toBe("cancelled");
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("reads the client's unsaved buffer and writes two files all-or-nothing", async () => {
    const sessionId = await start();
    const a = path.join(root, "a.ts");
    const b = path.join(root, "b.ts");
    writeFileSync(a, "saved a\n");
    writeFileSync(b, "saved b\n");
    h.buffers.set(a, "UNSAVED a\n");
    fake.enqueue({ toolCalls: [{ name: "read_file", input: { path: "a.ts" } }] }, { text: "Read." });
    await h.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "read a" }] });
    expect(JSON.stringify(fake.requests[1]!.body.messages.at(-1))).toContain("UNSAVED a");

    h.refuseWrites.add(b);
    const patch = "*** Begin Patch\n*** Update File: a.ts\n@@\n-UNSAVED a\n+patched a\n*** Update File: b.ts\n@@\n-saved b\n+patched b\n*** End Patch";
    fake.enqueue({ toolCalls: [{ name: "apply_patch", input: { patch } }] }, { text: "Failed." });
    await h.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "patch both" }] });
    expect(JSON.stringify(fake.requests[3]!.body.messages.at(-1))).toContain("did not apply");
    // a.ts was written, then given its text back when b.ts was refused.
    expect(h.writes.filter((w) => w.path === a).map((w) => w.content)).toEqual(["patched a\n", "UNSAVED a\n"]);
    expect(h.buffers.get(a)).toBe("UNSAVED a\n");
    expect(readFileSync(b, "utf8")).toBe("saved b\n");

    h.refuseWrites.clear();
    fake.enqueue({ toolCalls: [{ name: "apply_patch", input: { patch } }] }, { text: "Done." });
    await h.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "patch both" }] });
    expect([h.buffers.get(a), h.buffers.get(b)]).toEqual(["patched a\n", "patched b\n"]);
  });

  it("runs a command in the client's terminal when it offers one, and kills it at the timeout", async () => {
    const sessionId = await start({}, { ...FS, terminal: true });
    fake.enqueue({ toolCalls: [{ name: "execute_command", input: { command: "echo hi-from-the-terminal" } }] }, { text: "Ran." });
    await h.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "run it" }] });
    expect(h.terminals[0]).toMatchObject({ sessionId, cwd: root });
    expect(h.terminals[0]!.args?.join(" ")).toContain("echo hi-from-the-terminal");
    const shown = h.updatesOf("tool_call_update").find((u) => u.content?.some((c) => c.type === "terminal"));
    expect(shown?.content).toEqual([{ type: "terminal", terminalId: "term-1" }]);
    const result = JSON.stringify(fake.requests[1]!.body.messages.at(-1));
    expect(result).toContain("hi-from-the-terminal");
    expect(result).toContain("Exit code: 0");

    fake.enqueue({ toolCalls: [{ name: "execute_command", input: { command: "sleep 30", timeout_secs: 0.5 } }] }, { text: "Too slow." });
    const started = Date.now();
    await h.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "wait" }] });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(JSON.stringify(fake.requests[3]!.body.messages.at(-1))).toContain("Killed: it ran longer than");
  });

  it("connects the MCP servers the client sends with session/new, and says which it cannot", async () => {
    fake = await startFakeProvider();
    root = tempProject();
    h = spawnAcp(root, userConfigHome(fakeProviderOptions(fake, { tools: { provider_native: false }, mcp_defer_tools: false, mcp: { discover_timeout_s: 10 } })));
    const init = await h.initialize({ ...FS, session: { notices: {} } });
    expect(init.agentCapabilities?.mcpCapabilities).toEqual({ http: true, sse: false });
    const { sessionId } = await h.agent.request("session/new", {
      cwd: root,
      mcpServers: [
        { name: "everything", command: process.execPath, args: [EVERYTHING], env: [] },
        { type: "sse", name: "old", url: "http://127.0.0.1:9/sse", headers: [] },
      ],
    });
    await waitFor(() => h.updatesOf("notice").length > 0);
    expect(h.updatesOf("notice")[0]!.title).toMatch(/MCP servers not used: old \(SSE servers are not supported/);
    fake.enqueue({ toolCalls: [{ name: "mcp__everything__echo", input: { message: "hello over ACP" } }] }, { text: "Echoed." });
    await h.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "echo" }] });
    expect(fake.requests[0]!.body.tools.map((t: { name: string }) => t.name)).toContain("mcp__everything__echo");
    expect(JSON.stringify(fake.requests[1]!.body.messages.at(-1))).toContain("hello over ACP");
  }, 30_000);

  it("takes resource links and embedded resources as context", async () => {
    const sessionId = await start();
    writeFileSync(path.join(root, "linked.ts"), "export const linked = 1;\n");
    fake.enqueue({ text: "Seen." });
    await h.agent.request("session/prompt", {
      sessionId,
      prompt: [
        { type: "text", text: "look" },
        { type: "resource_link", uri: `file://${root}/linked.ts`, name: "linked.ts" },
        { type: "resource", resource: { uri: `file://${root}/embedded.ts`, text: "export const embedded = 2;" } },
      ],
    });
    const sent = JSON.stringify(fake.requests[0]!.body.messages[0]);
    expect(sent).toContain("export const linked = 1;");
    expect(sent).toContain("export const embedded = 2;");
  });

  it("sets modes, loads a session with its history replayed, and answers bad input with the right errors", async () => {
    const sessionId = await start();
    await h.agent.request("session/set_mode", { sessionId, modeId: "plan" });
    await waitFor(() => h.updatesOf("current_mode_update").length > 0);
    expect(h.updatesOf("current_mode_update")[0]!.currentModeId).toBe("plan");
    await expect(h.agent.request("session/set_mode", { sessionId, modeId: "yolo" })).rejects.toMatchObject({ code: -32602 });
    const set = await h.agent.request("session/set_config_option", { sessionId, configId: "model", value: "anthropic/claude-opus-4-1" });
    expect(set.configOptions[1]).toMatchObject({ id: "model", currentValue: "anthropic/claude-opus-4-1" });
    await expect(h.agent.request("session/set_config_option", { sessionId, configId: "colour", value: "red" })).rejects.toMatchObject({ code: -32602 });
    await expect(h.agent.request("session/set_config_option", { sessionId, configId: "model", value: "nosuchprovider/x" })).rejects.toMatchObject({ code: -32602 });
    const slash = await h.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "/checkpoints" }] });
    expect(slash.stopReason).toBe("end_turn");
    expect(text(h)).toMatch(/checkpoint/i);
    expect(fake.requests).toHaveLength(0); // a slash command is no model call
    h.updates.length = 0;
    await expect(h.agent.request("session/prompt", { sessionId: "nope", prompt: [] })).rejects.toMatchObject({ code: -32602 });
    await expect(h.agent.request("no/such_method", {})).rejects.toMatchObject({ code: -32601 });
    await expect(h.agent.request("session/new", { cwd: "relative", mcpServers: [] })).rejects.toMatchObject({ code: -32602 });
    fake.enqueue({ text: "First answer." });
    await h.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "first question" }] });
    await h.close();

    h = spawnAcp(root, userConfigHome(fakeProviderOptions(fake)));
    await h.initialize(FS);
    // A session in another folder first: the list and the load still look where they are told.
    await h.agent.request("session/new", { cwd: tempProject(), mcpServers: [] });
    const listed = await h.agent.request("session/list", { cwd: root });
    expect(listed.sessions.map((s) => s.sessionId)).toContain(sessionId);
    const loaded = await h.agent.request("session/load", { sessionId, cwd: root, mcpServers: [] });
    expect(loaded.modes?.currentModeId).toBe("plan");
    // The replay came before the answer.
    expect(h.updatesOf("user_message_chunk").map((u) => (u.content.type === "text" ? u.content.text : ""))).toContain("first question");
    expect(text(h)).toBe("First answer.");
    fake.enqueue({ text: "Second answer." });
    await h.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "second question" }] });
    expect(JSON.stringify(fake.requests.at(-1)!.body.messages)).toContain("first question");
  });

  it("a client that disconnects mid-turn ends the server and the agent's processes, with the history kept", async () => {
    const sessionId = await start();
    // Found from outside: in the sandbox the command's own pid belongs to its namespace.
    const duration = uniqueSleep();
    fake.enqueue({ toolCalls: [{ name: "execute_command", input: { command: `sleep ${duration}` } }] });
    void h.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "remember me" }] }).catch(() => undefined);
    const [pid] = await waitForSleepers(duration);
    const exited = new Promise((resolve) => h.child.on("exit", resolve));
    h.child.stdin.end();
    expect(await exited).toBe(0);
    expect(alive(pid)).toBe(false);
    const log = readFileSync(path.join(root, ".agent-lsp", "conversations", `${sessionId}.jsonl`), "utf8");
    expect(log).toContain("remember me");
  });
});
