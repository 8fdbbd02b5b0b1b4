/**
 * MCP tools in real turns (in-process server, fake provider, real MCP servers): deferred
 * discovery with mcp_tools and with tool_search, direct advertisement, resources, the gate,
 * activation surviving agent/loadSession, a crash mid-call, a cancelled call, a 5 MB answer.
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startAgentHarness, tempProject, type AgentHarness } from "../helpers/agent-setup.js";
import { EVERYTHING, hostile, MODERN, nodeServer } from "../helpers/mcp/servers.js";
import { waitFor } from "../helpers/wait.js";

let harnesses: AgentHarness[] = [];
let roots: string[] = [];
afterEach(async () => {
  for (const h of harnesses) await h.dispose();
  for (const r of roots) rmSync(r, { recursive: true, force: true });
  harnesses = [];
  roots = [];
});

async function harness(options: Record<string, unknown>, root?: string): Promise<AgentHarness> {
  const h = await startAgentHarness({ options: { mcp: { discover_timeout_s: 10 }, ...options }, ...(root ? { root } : {}) });
  harnesses.push(h);
  return h;
}

const notes = { mcp_servers: { notes: nodeServer(MODERN) } };
const toolNames = (req: { body: any }) => (req.body.tools ?? []).map((t: any) => t.name as string);
const systemText = (req: { body: any }) => JSON.stringify(req.body.system);
/** The text of the tool results in the last message of a request. */
const resultText = (req: { body: any }) => JSON.stringify(req.body.messages.at(-1).content);

describe("deferred discovery with mcp_tools (the default)", () => {
  it("query -> activate -> the model calls the activated tool -> its result reaches the model", async () => {
    const h = await harness(notes);
    h.fake.enqueue(
      { toolCalls: [{ name: "mcp_tools", input: { query: "add numbers" } }] },
      { toolCalls: [{ name: "mcp_tools", input: { activate: ["notes.add", "notes.add", "notes.nope"] } }] },
      { toolCalls: [{ name: "mcp__notes__add", input: { a: 2, b: 40 } }] },
      { text: "The sum is 42." },
    );
    const id = await h.newSession();
    const res = await h.prompt(id, "add 2 and 40 with the notes server");
    expect(res.stopReason).toBe("end_turn");
    const [first, second, third, fourth] = h.fake.requests;
    // Deferred: the tool is named in the system prompt, its schema is not sent.
    expect(toolNames(first!)).toContain("mcp_tools");
    expect(toolNames(first!)).not.toContain("mcp__notes__add");
    expect(systemText(first!)).toContain("- notes: add, weather, picture, poster, links, confirm");
    expect(resultText(second!)).toContain("tool notes.add — Add two numbers");
    expect(resultText(second!)).toContain("required: a, b");
    expect(resultText(third!)).toContain("notes.add: loaded (call it as mcp__notes__add)");
    expect(resultText(third!)).toContain("notes.nope: not loaded — the MCP server \\\"notes\\\" has no tool \\\"nope\\\"");
    // Advertised directly from the next model call on, and gone from the prompt's list.
    expect(toolNames(third!)).toContain("mcp__notes__add");
    expect(systemText(third!)).not.toContain("notes: add,");
    expect(resultText(fourth!)).toContain("42");
    expect(resultText(fourth!)).toContain("untrusted data");
    expect(h.fake.violations).toEqual([]);
    // The user saw the servers start ($/progress) and this one become ready.
    const progress = h.client.requests.filter((r) => r.method === "$/progress").map((r) => JSON.stringify(r.params.value));
    expect(progress.some((p) => p.includes("Starting MCP servers"))).toBe(true);
    expect(progress.some((p) => p.includes("1 of 1 MCP servers ready"))).toBe(true);
    expect(h.client.updatesOf("status").map((u) => u.text)).toContainEqual(expect.stringMatching(/^MCP server "notes" ready: 6 tools, 2 resources, 1 prompt \(2026-07-28/));
  }, 30_000);

  it("activated tools survive agent/loadSession", async () => {
    const root = tempProject();
    roots.push(root);
    const h1 = await harness(notes, root);
    h1.fake.enqueue({ toolCalls: [{ name: "mcp_tools", input: { activate: ["mcp__notes__weather"] } }] }, { text: "ok" });
    const id = await h1.newSession();
    await h1.prompt(id, "load the weather tool");
    await h1.dispose();
    harnesses = [];
    const h2 = await harness(notes, root);
    await h2.client.connection.sendRequest("agent/loadSession", { sessionId: id });
    h2.fake.enqueue({ text: "still here" });
    await h2.prompt(id, "again");
    expect(toolNames(h2.fake.requests[0]!)).toContain("mcp__notes__weather");
    expect(toolNames(h2.fake.requests[0]!)).not.toContain("mcp__notes__add");
  }, 30_000);

  it("reads resources and templates, and completes a template variable", async () => {
    const h = await harness(notes);
    h.fake.enqueue(
      {
        toolCalls: [
          { name: "mcp_tools", input: { read: { server: "notes", uri: "notes://readme" } } },
          { name: "mcp_tools", input: { read: { server: "notes", template: "notes://{topic}", arguments: { topic: "errors" } } } },
          { name: "mcp_tools", input: { complete: { server: "notes", template: "notes://{topic}", argument: { name: "topic", value: "e" } } } },
          { name: "mcp_tools", input: { query: "x", read: { server: "notes", uri: "notes://readme" } } },
        ],
      },
      { text: "done" },
    );
    const id = await h.newSession();
    await h.prompt(id, "read");
    const results = h.fake.requests[1]!.body.messages.at(-1).content.map((r: any) => JSON.stringify(r.content));
    expect(results[0]).toContain("Notes are kept by topic.");
    expect(results[1]).toContain("Template notes://{topic}, arguments {\\\"topic\\\":\\\"errors\\\"}, URI notes://errors");
    expect(results[1]).toContain("Notes about errors.");
    expect(results[2]).toContain('\\"values\\":[\\"events\\",\\"errors\\",\\"environment\\"]');
    expect(results[3]).toContain("give exactly one of query, activate, read or complete (got query, read)");
  }, 30_000);

  it("advertises tools directly with mcp_defer_tools = false, and registers the resource tools while a resources server is ready", async () => {
    const h = await harness({ ...notes, mcp_defer_tools: false });
    h.fake.enqueue({ text: "hi" });
    await h.prompt(await h.newSession(), "hi");
    const names = toolNames(h.fake.requests[0]!);
    expect(names).toEqual(expect.arrayContaining(["mcp__notes__add", "mcp__notes__weather", "list_mcp_resources", "read_mcp_resource"]));
    expect(systemText(h.fake.requests[0]!)).not.toContain("not loaded");
  }, 30_000);
});

describe("deferred discovery with tool_search", () => {
  it("tool_search promotes matches; tool_call is unwrapped so the gate, the editor and the history see the real tool", async () => {
    const h = await harness({ ...notes, mcp: { discovery: "tool_search", discover_timeout_s: 10 } });
    h.fake.enqueue(
      { toolCalls: [{ name: "tool_search", input: { query: "weather forecast" } }] },
      { toolCalls: [{ name: "tool_describe", input: { name: "mcp__notes__add" } }] },
      { toolCalls: [{ id: "toolu_call1", name: "tool_call", input: { name: "mcp__notes__add", arguments: { a: 1, b: 2 } } }] },
      { text: "3" },
    );
    const id = await h.newSession();
    await h.prompt(id, "go");
    const [first, second, third, fourth] = h.fake.requests;
    expect(toolNames(first!)).toEqual(expect.arrayContaining(["tool_search", "tool_describe", "tool_call"]));
    expect(toolNames(first!)).not.toContain("mcp_tools");
    expect(systemText(first!)).toContain("Find them with tool_search");
    expect(resultText(second!)).toContain("mcp__notes__weather");
    expect(toolNames(third!)).toContain("mcp__notes__weather");
    expect(resultText(third!)).toContain('\\"required\\": [');
    // The editor saw the real tool, the model's history replays the call as it wrote it.
    expect(h.client.updatesOf("tool_call").map((u) => u.name)).toContain("mcp__notes__add");
    // Not a provider-native call: no model name or input that would show it as "tool_call".
    const add = h.client.updatesOf("tool_call").find((u) => u.name === "mcp__notes__add");
    expect(add).toMatchObject({ input: { a: 1, b: 2 } });
    expect(add.modelName).toBeUndefined();
    expect(add.modelInput).toBeUndefined();
    const replayed = fourth!.body.messages.at(-2).content.find((b: any) => b.type === "tool_use");
    expect(replayed).toMatchObject({ id: "toolu_call1", name: "tool_call", input: { name: "mcp__notes__add", arguments: { a: 1, b: 2 } } });
    expect(resultText(fourth!)).toContain("3");
    expect(toolNames(fourth!)).toContain("mcp__notes__add");
    expect(h.fake.violations).toEqual([]);
  }, 30_000);
});

describe("the gate", () => {
  it("ask mode asks every MCP call, with no 'don't ask again'; read_only refuses them and mcp_tools reads", async () => {
    const h = await harness({ ...notes, mcp_defer_tools: false, safety: "ask" }, undefined);
    h.client.script.showMessageRequest = () => "Yes";
    h.fake.enqueue({ toolCalls: [{ name: "mcp__notes__add", input: { a: 1, b: 1 } }] }, { toolCalls: [{ name: "mcp__notes__add", input: { a: 2, b: 2 } }] }, { text: "ok" });
    const id = await h.newSession();
    await h.prompt(id, "add twice");
    const prompts = h.client.requests.filter((r) => r.method === "window/showMessageRequest");
    expect(prompts).toHaveLength(2);
    expect(prompts[0]!.params.actions.map((a: any) => a.title)).toEqual(["Yes", "No"]);
    expect(resultText(h.fake.requests[2]!)).toContain("4");

    await h.client.connection.sendRequest("agent/setMode", { sessionId: id, mode: "read_only" });
    h.fake.enqueue(
      { toolCalls: [{ name: "mcp__notes__add", input: { a: 1, b: 1 } }, { name: "mcp_tools", input: { read: { server: "notes", uri: "notes://readme" } } }, { name: "mcp_tools", input: { query: "add" } }] },
      { text: "refused" },
    );
    await h.prompt(id, "again");
    const results = h.fake.requests.at(-1)!.body.messages.at(-1).content;
    expect(JSON.stringify(results[0])).toContain("is not allowed: the session is read-only");
    expect(JSON.stringify(results[1])).toContain('Reaching the MCP server \\"notes\\" is not allowed: the session is read-only');
    expect(results[2].is_error).toBeFalsy();
    expect(h.client.requests.filter((r) => r.method === "window/showMessageRequest")).toHaveLength(2);
    // The servers started once: the second turn showed no start-up progress.
    const begins = h.client.requests.filter((r) => r.method === "$/progress" && r.params.value?.kind === "begin" && /MCP/.test(r.params.value.title));
    expect(begins).toHaveLength(1);
  }, 30_000);
});

describe("servers that fail during a turn", () => {
  it("a crash mid-call: the model gets a clear error, the turn goes on, the user hears the restart", async () => {
    const log = path.join(os.tmpdir(), `mcp-crash-${process.pid}-${Date.now()}`);
    writeFileSync(log, "");
    roots.push(log);
    const h = await harness({ mcp_defer_tools: false, mcp_servers: { crashy: hostile("crash", log) } });
    h.fake.enqueue({ toolCalls: [{ name: "mcp__crashy__crash", input: {} }] }, { text: "It crashed; moving on." });
    const res = await h.prompt(await h.newSession(), "crash it");
    expect(res.stopReason).toBe("end_turn");
    const result = h.fake.requests[1]!.body.messages.at(-1).content[0];
    expect(result.is_error).toBe(true);
    expect(JSON.stringify(result.content)).toContain('The MCP server \\"crashy\\" closed the connection');
    await waitFor(() => h.client.updatesOf("status").some((u) => /crashy" restarting: exited unexpectedly/.test(u.text)), 5000);
  }, 30_000);

  it("a hanging call ends when the turn is cancelled, and the server is told", async () => {
    const log = path.join(os.tmpdir(), `mcp-hang-${process.pid}-${Date.now()}`);
    writeFileSync(log, "");
    roots.push(log);
    const h = await harness({ mcp_defer_tools: false, mcp_servers: { slow: hostile("hang", log) }, mcp: { discover_timeout_s: 0.5 } });
    h.fake.enqueue({ toolCalls: [{ name: "mcp__slow__hang", input: {} }] }, { text: "never" });
    const id = await h.newSession();
    const turn = h.prompt(id, "hang");
    await waitFor(() => readFileSync(log, "utf8").includes("hanging"), 10_000);
    void h.client.connection.sendNotification("agent/cancel", { sessionId: id });
    expect((await turn).stopReason).toBe("cancelled");
    await waitFor(() => readFileSync(log, "utf8").includes("cancelled"), 5000);
  }, 30_000);

  it("a long call's progress reports reach the editor as the running tool's output", async () => {
    const h = await harness({ mcp_defer_tools: false, mcp_servers: { everything: nodeServer(EVERYTHING, "stdio") } });
    h.fake.enqueue({ toolCalls: [{ name: "mcp__everything__trigger-long-running-operation", input: { duration: 1, steps: 4 } }] }, { text: "done" });
    await h.prompt(await h.newSession(), "run the long operation");
    const outputs = h.client.updatesOf("tool_call_update").filter((u) => u.status === "running").map((u) => u.output);
    expect(outputs).toContainEqual("progress 1/4");
  }, 30_000);

  it("a 5 MB answer is cut to the output budget, keeping head and tail", async () => {
    const h = await harness({ mcp_defer_tools: false, mcp_servers: { big: hostile("big") } });
    h.fake.enqueue({ toolCalls: [{ name: "mcp__big__big", input: {} }] }, { text: "ok" });
    await h.prompt(await h.newSession(), "big");
    const text = JSON.stringify(h.fake.requests[1]!.body.messages.at(-1).content[0].content);
    expect(text.length).toBeLessThan(60_000);
    expect(text).toContain("HEAD");
    expect(text).toContain("TAIL");
    expect(text).toContain("characters cut from the middle");
  }, 30_000);
});
