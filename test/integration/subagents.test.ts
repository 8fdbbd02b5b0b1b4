/**
 * Subagents (`agent`, `use_subagents`) through real turns: what the nested request offers, a
 * refused write, the concurrency cap, cancel reaching every child, usage counted into the
 * session, an error returned as a result, and the tagged updates the editor nests.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentHarness } from "../helpers/agent-setup.js";
import { waitFor } from "../helpers/wait.js";
import { richCapabilities, safetyHarness, toolResultsSent } from "./safety-helpers.js";

let h: AgentHarness;
afterEach(async () => {
  await h?.dispose();
});

const WRITE_TOOLS = ["write_file", "edit_file", "replace_in_file", "apply_patch", "delete_file", "create_directory", "replace_text"];
const toolNames = (request: { body: any }) => (request.body.tools ?? []).map((t: any) => t.name as string);
const promptOf = (request: { body: any }) => JSON.stringify(request.body.messages[0].content);

describe("a subagent", () => {
  it("runs with a fresh context and no write, desktop or delegation tools, and its answer is the call's result", async () => {
    h = await safetyHarness("full_access", { extra: { tools: { provider_native: false, computer: true } } });
    h.fake.enqueue(
      { toolCalls: [{ id: "toolu_parent", name: "agent", input: { prompt: "Find the config parser.", description: "find parser" } }] },
      { toolCalls: [{ name: "list_files", input: {} }] },
      { text: "It is in src/config.ts." },
      { text: "Thanks, done." },
    );
    const res = await h.prompt(await h.newSession(), "where is the config parsed?");
    expect(res.stopReason).toBe("end_turn");
    const [parentReq, childReq] = h.fake.requests;
    const offered = toolNames(childReq!);
    expect(offered).toEqual(expect.arrayContaining(["read_file", "search_files", "execute_command"]));
    for (const name of [...WRITE_TOOLS, "computer", "agent", "use_subagents", "spawn_task", "task_create", "attempt_completion"]) expect(offered).not.toContain(name);
    // The parent has them; the child starts from its own prompt alone.
    expect(toolNames(parentReq!)).toEqual(expect.arrayContaining(["write_file", "agent", "spawn_task"]));
    expect(childReq!.body.messages).toHaveLength(1);
    expect(promptOf(childReq!)).toContain("Find the config parser.");
    expect(toolResultsSent(h).at(-1)).toEqual({ isError: false, text: "It is in src/config.ts." });
    // The child's steps reach the editor tagged with the parent's call, never as the parent's answer.
    const tagged = h.client.updates.map((u) => u.update).filter((u) => u.parentToolCallId === "toolu_parent");
    expect(tagged.map((u) => u.kind)).toEqual(expect.arrayContaining(["tool_call", "tool_call_update", "text"]));
    expect(tagged.every((u) => u.subagent === 1)).toBe(true);
    expect(h.client.updatesOf("tool_call").find((u) => u.name === "list_files")).toMatchObject({ parentToolCallId: "toolu_parent" });
    expect(h.fake.violations).toEqual([]);
  });

  it("in ask mode runs a command once the user allows it, asked in the parent session's name", async () => {
    h = await safetyHarness("ask", { capabilities: richCapabilities() });
    const asked: any[] = [];
    h.client.script.requestPermission = (p) => {
      asked.push(p);
      return { optionId: "allow_once" };
    };
    h.fake.enqueue(
      { toolCalls: [{ name: "agent", input: { prompt: "Count the files" } }] },
      { toolCalls: [{ name: "execute_command", input: { command: "echo from-the-subagent" } }] },
      { text: "Ran it." },
      { text: "ok" },
    );
    const id = await h.newSession();
    await h.prompt(id, "go");
    // Delegating is asked about (it costs model calls), then the child's command.
    expect(asked.map((p) => [p.sessionId, p.toolCall.name])).toEqual([
      [id, "agent"],
      [id, "execute_command"],
    ]);
    expect(toolResultsSent(h)[0]).toMatchObject({ isError: false, text: expect.stringContaining("from-the-subagent") });
  });

  it("is refused a write, and the file stays unwritten", async () => {
    h = await safetyHarness("full_access");
    h.fake.enqueue(
      { toolCalls: [{ name: "agent", input: { prompt: "Write notes.txt" } }] },
      { toolCalls: [{ name: "write_file", input: { path: "notes.txt", content: "x" } }] },
      { text: "I could not write it." },
      { text: "ok" },
    );
    await h.prompt(await h.newSession(), "go");
    const childResults = toolResultsSent(h);
    expect(childResults[0]).toMatchObject({ isError: true, text: expect.stringContaining('There is no tool "write_file"') });
    expect(existsSync(path.join(h.root, "notes.txt"))).toBe(false);
  });

  it("returns its error to the parent as a tool result", async () => {
    h = await safetyHarness("full_access");
    h.fake.enqueue(
      { toolCalls: [{ name: "agent", input: { prompt: "Look around" } }] },
      { error: { status: 400, message: "context too long" } },
      { text: "The subagent failed; I will do it myself." },
    );
    const res = await h.prompt(await h.newSession(), "go");
    expect(res.stopReason).toBe("end_turn");
    expect(toolResultsSent(h)[0]).toMatchObject({ isError: true, text: expect.stringContaining("The subagent failed: ") });
    expect(toolResultsSent(h)[0]!.text).toContain("context too long");
  });

  it("counts its tokens into the session's usage", async () => {
    h = await safetyHarness("full_access");
    h.fake.enqueue(
      { toolCalls: [{ name: "agent", input: { prompt: "Look" } }], usage: { input: 100, output: 10 } },
      { text: "Seen.", usage: { input: 1000, output: 50 } },
      { text: "ok", usage: { input: 200, output: 20 } },
    );
    const id = await h.newSession();
    const res = await h.prompt(id, "go");
    expect(res.usage).toMatchObject({ inputTokens: 1300, outputTokens: 80 });
    const usage = (await h.client.connection.sendRequest("agent/command", { sessionId: id, command: "usage" })) as { message: string };
    expect(usage.message).toMatch(/^Input 1300 tokens \(0 cached\), output 80 tokens/);
    // The subagent's own usage update is tagged; the parent's last one counts the whole session.
    const updates = h.client.updatesOf("usage");
    expect(updates.filter((u) => u.parentToolCallId).map((u) => u.inputTokens)).toEqual([1000]);
    expect(updates.at(-1)).toMatchObject({ inputTokens: 300, sessionCost: expect.any(Number) });
    expect(updates.at(-1).sessionCost).toBeCloseTo(updates.reduce((sum, u) => sum + u.cost, 0), 10);
  });

  it("stops at its own turn limit and says so to the parent", async () => {
    h = await safetyHarness("full_access", { extra: { subagents: { max_turns: 1 } } });
    h.fake.enqueue(
      { toolCalls: [{ name: "agent", input: { prompt: "Look" } }] },
      { text: "Listing first.", toolCalls: [{ name: "list_files", input: {} }] },
      { text: "ok" },
    );
    await h.prompt(await h.newSession(), "go");
    expect(toolResultsSent(h).at(-1)).toMatchObject({ isError: true, text: "The subagent reached its turn limit before finishing. Its last answer:\nListing first." });
    expect(h.fake.requests).toHaveLength(3);
  });
});

describe("use_subagents", () => {
  it("runs at most [subagents] max_concurrent at once, and a cancel stops every child and every waiting one", async () => {
    h = await safetyHarness("full_access", { extra: { subagents: { max_concurrent: 2 } } });
    const tasks = [1, 2, 3].map((n) => ({ prompt: `Task ${n}`, description: `t${n}` }));
    // Two hanging children; a third child that started would find no turn queued (a violation).
    h.fake.enqueue({ toolCalls: [{ name: "use_subagents", input: { tasks } }] }, { hang: true }, { hang: true });
    const id = await h.newSession();
    const turn = h.prompt(id, "go");
    await h.fake.waitForRequests(3);
    await h.client.connection.sendNotification("agent/cancel", { sessionId: id });
    expect((await turn).stopReason).toBe("cancelled");
    // The next prompt starts only once the cancelled turn (and so every child) has finished.
    h.fake.enqueue({ text: "after" });
    expect((await h.prompt(id, "again")).stopReason).toBe("end_turn");
    expect(h.fake.requests).toHaveLength(4);
    expect(JSON.stringify(h.fake.requests[3]!.body.messages)).toContain("again");
    expect(h.fake.violations).toEqual([]);
  });

  it("returns every answer in order, each labelled, and runs them side by side", async () => {
    h = await safetyHarness("full_access");
    const tasks = [{ prompt: "A?", description: "first" }, { prompt: "B?", description: "second" }];
    h.fake.enqueue({ toolCalls: [{ name: "use_subagents", input: { tasks } }] }, { text: "answer", chunkDelayMs: 20 }, { text: "answer", chunkDelayMs: 20 }, { text: "ok" });
    await h.prompt(await h.newSession(), "go");
    expect(toolResultsSent(h)[0]!.text).toBe("## Subagent 1: first\nanswer\n\n## Subagent 2: second\nanswer");
    // Both children's requests came before either finished: they ran at once.
    await waitFor(() => h.fake.requests.length === 4);
    expect([promptOf(h.fake.requests[1]!), promptOf(h.fake.requests[2]!)].sort()).toEqual([expect.stringContaining("A?"), expect.stringContaining("B?")]);
  });
});
