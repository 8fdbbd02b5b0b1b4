/**
 * The agent's MUSTs of the ACP spec (v1: initialization, session setup, session list, prompt
 * turn, cancellation, tool-call permissions, config options, file system), one case each,
 * through the built binary driven by the SDK's own client side, which checks every message
 * against the schema. Order is read from the wire (`h.wire`), as the agent wrote it.
 *
 * Covered elsewhere: MCP servers over stdio from session/new (acp.test.ts), slash commands and
 * replay fidelity (acp-conformance.test.ts).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import * as acp from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { spawnAcp, userConfigHome, type AcpHarness } from "../helpers/acp-client.js";
import { fakeProviderOptions, tempProject } from "../helpers/agent-setup.js";
import { startFakeProvider, type FakeProvider } from "../helpers/fake-provider/index.js";
import { waitFor } from "../helpers/wait.js";

let fake: FakeProvider | undefined;
let h: AcpHarness | undefined;
afterEach(async () => {
  await h?.close();
  await fake?.close();
  h = undefined;
  fake = undefined;
});

const FS = { fs: { readTextFile: true, writeTextFile: true } };

/** A spawned agent in `spawnDir` (a project of its own unless given), initialised with `capabilities`. */
async function agentIn(options: { spawnDir?: string; config?: Record<string, unknown>; capabilities?: acp.ClientCapabilities } = {}): Promise<{ h: AcpHarness; spawnDir: string }> {
  fake = await startFakeProvider();
  const spawnDir = options.spawnDir ?? tempProject();
  h = spawnAcp(spawnDir, userConfigHome(fakeProviderOptions(fake, { tools: { provider_native: false }, ...options.config })));
  await h.initialize(options.capabilities ?? FS);
  return { h, spawnDir };
}

const newSession = async (harness: AcpHarness, cwd: string) => (await harness.agent.request("session/new", { cwd, mcpServers: [] })).sessionId;
const prompt = (harness: AcpHarness, sessionId: string, text: string) => harness.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text }] });

describe("ACP spec: initialization", () => {
  it("answers the client's version when it speaks it, else its latest; says its capabilities and name", async () => {
    const { h } = await agentIn();
    const same = await h.agent.request("initialize", { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
    expect(same.protocolVersion).toBe(acp.PROTOCOL_VERSION);
    const newer = await h.agent.request("initialize", { protocolVersion: acp.PROTOCOL_VERSION + 5, clientCapabilities: {} });
    expect(newer.protocolVersion).toBe(acp.PROTOCOL_VERSION);
    expect(same.agentCapabilities).toMatchObject({ loadSession: true, promptCapabilities: { embeddedContext: true } });
    expect(same.agentInfo).toMatchObject({ name: "agent-lsp", version: expect.any(String) });
  });

  it("takes the baseline prompt content: text and resource links", async () => {
    const { h, spawnDir } = await agentIn();
    const sessionId = await newSession(h, spawnDir);
    writeFileSync(path.join(spawnDir, "base.ts"), "export const baseline = true;\n");
    fake!.enqueue({ text: "Read it." });
    const answer = await h.agent.request("session/prompt", {
      sessionId,
      prompt: [
        { type: "text", text: "what is this" },
        { type: "resource_link", uri: pathToFileURL(path.join(spawnDir, "base.ts")).href, name: "base.ts" },
      ],
    });
    expect(answer.stopReason).toBe("end_turn");
    expect(JSON.stringify(fake!.requests[0]!.body.messages)).toContain("export const baseline = true;");
  });
});

describe("ACP spec: session setup", () => {
  it("gives every session a unique id and works in the session's cwd, wherever the agent was started", async () => {
    const { h, spawnDir } = await agentIn({ config: { safety: "full_access" } });
    const cwd = tempProject();
    writeFileSync(path.join(cwd, "where.txt"), "in the session's folder\n");
    writeFileSync(path.join(spawnDir, "where.txt"), "in the spawn folder\n");
    const ids = [await newSession(h, cwd), await newSession(h, cwd), await newSession(h, spawnDir)];
    expect(new Set(ids).size).toBe(3);
    fake!.enqueue({ toolCalls: [{ name: "read_file", input: { path: "where.txt" } }, { name: "execute_command", input: { command: "pwd" } }] }, { text: "Read." });
    await prompt(h, ids[0]!, "where are you");
    const results = JSON.stringify(fake!.requests[1]!.body.messages.at(-1));
    expect(results).toContain("in the session's folder");
    expect(results).not.toContain("in the spawn folder");
    expect(results).toContain(cwd);
  });

  it("replays the whole conversation before it answers session/load", async () => {
    const { h: first, spawnDir } = await agentIn();
    const sessionId = await newSession(first, spawnDir);
    fake!.enqueue({ text: "First answer." }, { text: "Second answer." });
    await prompt(first, sessionId, "first question");
    await prompt(first, sessionId, "second question");
    await first.close();

    h = spawnAcp(spawnDir, userConfigHome(fakeProviderOptions(fake!)));
    await h.initialize(FS);
    await h.agent.request("session/load", { sessionId, cwd: spawnDir, mcpServers: [] });
    // The load's answer is the one that carries the session's modes (session/new's has its id too).
    const answerAt = h.wire.findIndex((m) => m.result?.modes !== undefined && m.result.sessionId === undefined);
    const replayed = h!.wire
      .map((m, i) => ({ m, i }))
      .filter(({ m }) => m.method === "session/update" && m.params.sessionId === sessionId && /chunk$/.test(m.params.update.sessionUpdate));
    const texts = replayed.map(({ m }) => m.params.update.content.text).join("|");
    for (const said of ["first question", "First answer.", "second question", "Second answer."]) expect(texts).toContain(said);
    expect(answerAt).toBeGreaterThan(-1);
    expect(replayed.every(({ i }) => i < answerAt)).toBe(true);
  });

  it("refuses a relative cwd, and methods it does not offer (resume, close) as not found", async () => {
    const { h } = await agentIn();
    await expect(h.agent.request("session/new", { cwd: "relative/dir", mcpServers: [] })).rejects.toMatchObject({ code: -32602 });
    const init = await h.agent.request("initialize", { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
    expect(init.agentCapabilities?.sessionCapabilities).not.toHaveProperty("resume");
    expect(init.agentCapabilities?.sessionCapabilities).not.toHaveProperty("close");
    const request = h.agent.request as (method: string, params: unknown) => Promise<unknown>;
    await expect(request("session/resume", { sessionId: "s", cwd: tempProject(), mcpServers: [] })).rejects.toMatchObject({ code: -32601 });
    await expect(request("session/close", { sessionId: "s" })).rejects.toMatchObject({ code: -32601 });
  });
});

describe("ACP spec: session list", () => {
  it("answers an empty sessions array when none match", async () => {
    const { h } = await agentIn();
    const listed = await h.agent.request("session/list", { cwd: tempProject() });
    expect(listed.sessions).toEqual([]);
  });
});

describe("ACP spec: prompt turn", () => {
  it("answers each turn with its stop reason: end_turn, max_turn_requests, refusal, max_tokens", async () => {
    const { h, spawnDir } = await agentIn({ config: { max_turns: 1, safety: "full_access" } });
    const sessionId = await newSession(h, spawnDir);
    fake!.enqueue({ text: "Done." });
    expect((await prompt(h, sessionId, "a")).stopReason).toBe("end_turn");
    fake!.enqueue({ toolCalls: [{ name: "list_files", input: { path: "." } }] });
    expect((await prompt(h, sessionId, "b")).stopReason).toBe("max_turn_requests");
    fake!.enqueue({ text: "No.", stop: "refusal" });
    expect((await prompt(h, sessionId, "c")).stopReason).toBe("refusal");
    fake!.enqueue({ text: "Cut", stop: "max_tokens" });
    expect((await prompt(h, sessionId, "d")).stopReason).toBe("max_tokens");
  });
});

describe("ACP spec: cancellation", () => {
  it("withdraws a pending permission request and answers cancelled, nothing run", async () => {
    const { h, spawnDir } = await agentIn({ config: { safety: "ask" } });
    h.permission = "never";
    const sessionId = await newSession(h, spawnDir);
    fake!.enqueue({ toolCalls: [{ name: "write_file", input: { path: "never.txt", content: "no" } }] });
    const running = prompt(h, sessionId, "write it");
    await waitFor(() => h.permissions.length === 1, 15_000);
    await h.agent.notify("session/cancel", { sessionId });
    expect((await running).stopReason).toBe("cancelled");
    expect(existsSync(path.join(spawnDir, "never.txt"))).toBe(false);
    const call = h.updatesOf("tool_call")[0]!;
    const lastStatusAt = h.wire.findLastIndex((m) => m.method === "session/update" && m.params.update.toolCallId === call.toolCallId);
    const answerAt = h.wire.findIndex((m) => m.result?.stopReason === "cancelled");
    expect(lastStatusAt).toBeLessThan(answerAt);
  });

  it("answers cancelled, not an error, when the cancel interrupts the model's stream", async () => {
    const { h, spawnDir } = await agentIn();
    const sessionId = await newSession(h, spawnDir);
    fake!.enqueue({ text: "Thinking about it for a long time", hang: true });
    const running = prompt(h, sessionId, "take your time");
    await waitFor(() => h.updatesOf("agent_message_chunk").length > 0, 15_000);
    await h.agent.notify("session/cancel", { sessionId });
    expect((await running).stopReason).toBe("cancelled");
    // The session goes on.
    fake!.enqueue({ text: "Back." });
    expect((await prompt(h, sessionId, "again")).stopReason).toBe("end_turn");
  });
});

describe("ACP spec: permission requests", () => {
  it("runs nothing when the client answers cancelled, and says the call failed", async () => {
    const { h, spawnDir } = await agentIn({ config: { safety: "ask" } });
    h.permission = "cancelled";
    const sessionId = await newSession(h, spawnDir);
    fake!.enqueue({ toolCalls: [{ name: "write_file", input: { path: "no.txt", content: "no" } }] }, { text: "Stopped." });
    await prompt(h, sessionId, "write it");
    expect(existsSync(path.join(spawnDir, "no.txt"))).toBe(false);
    expect(h.updatesOf("tool_call_update").some((u) => u.status === "failed")).toBe(true);
  });
});

describe("ACP spec: config options", () => {
  it("offers no boolean option, a current value for every option, and the whole list after a set", async () => {
    const { h, spawnDir } = await agentIn();
    const created = await h.agent.request("session/new", { cwd: spawnDir, mcpServers: [] });
    const options = created.configOptions ?? [];
    expect(options.map((o) => o.id).sort()).toEqual(["mode", "model"]);
    for (const o of options) {
      expect(o.type).not.toBe("boolean");
      expect(o.currentValue).toBeTruthy();
    }
    const set = await h.agent.request("session/set_config_option", { sessionId: created.sessionId, configId: "mode", value: "plan" });
    expect(set.configOptions.map((o) => o.id).sort()).toEqual(["mode", "model"]);
    expect(set.configOptions.find((o) => o.id === "model")?.currentValue).toBe(options.find((o) => o.id === "model")?.currentValue);
  });
});

describe("ACP spec: file system", () => {
  it("never calls fs methods a client did not declare: reads and writes the disk instead", async () => {
    const { h, spawnDir } = await agentIn({ config: { safety: "full_access" }, capabilities: {} });
    const sessionId = await newSession(h, spawnDir);
    writeFileSync(path.join(spawnDir, "f.txt"), "before\n");
    fake!.enqueue({ toolCalls: [{ name: "read_file", input: { path: "f.txt" } }] }, { toolCalls: [{ name: "edit_file", input: { path: "f.txt", target_content: "before", replacement_content: "after" } }] }, { text: "Edited." });
    await prompt(h, sessionId, "edit it");
    expect(readFileSync(path.join(spawnDir, "f.txt"), "utf8")).toBe("after\n");
    expect(h.reads).toEqual([]);
    expect(h.writes).toEqual([]);
    expect(h.wire.some((m) => m.method === "fs/read_text_file" || m.method === "fs/write_text_file" || m.method === "terminal/create")).toBe(false);
  });
});
