/**
 * Model routing through the server: agent/setModel and agent/listModels, /model for the session
 * and per purpose, and model_routing_config from the model (refused where it would pick its own
 * safety check in auto mode), with unknown models answered by a message naming them.
 */
import { rmSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startAgentHarness, tempProject, type AgentHarness } from "../helpers/agent-setup.js";

let h: AgentHarness;
beforeEach(async () => {
  h = await startAgentHarness();
});
afterEach(async () => {
  await h.dispose();
});

const send = (method: string, params: unknown) => h.client.connection.sendRequest(method, params) as Promise<any>;
const command = (sessionId: string, name: string, args: string[] = []) => send("agent/command", { sessionId, command: name, args }) as Promise<{ message: string }>;
const modelOf = (n: number) => h.fake.requests[n]!.body.model as string;
function toolResultsIn(n: number): string[] {
  return (h.fake.requests[n]!.body.messages as any[])
    .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
    .filter((b: any) => b.type === "tool_result")
    .map((b: any) => (typeof b.content === "string" ? b.content : b.content.map((c: any) => c.text).join("")));
}

describe("agent/setModel and agent/listModels", () => {
  it("switch the model of the next call and list the choices", async () => {
    const id = await h.newSession();
    expect(await send("agent/setModel", { sessionId: id, model: "anthropic/claude-opus-4-1" })).toEqual({ sessionId: id, mode: "full_access", model: "anthropic/claude-opus-4-1" });
    h.fake.enqueue({ text: "hi" });
    await h.prompt(id, "hello");
    expect(modelOf(0)).toBe("claude-opus-4-1");
    const listed = await send("agent/listModels", { sessionId: id });
    expect(listed.model).toBe("anthropic/claude-opus-4-1");
    expect(listed.routes).toEqual({ safety_check: "anthropic/claude-opus-4-1", compaction: "anthropic/claude-opus-4-1", subagent: "anthropic/claude-opus-4-1" });
    const anthropic = listed.providers.find((p: any) => p.provider === "anthropic");
    expect(anthropic.models).toContain("anthropic/claude-sonnet-4-6");
    expect(anthropic.models.every((m: string) => m.startsWith("anthropic/claude"))).toBe(true);
  });

  it("refuse an unknown provider or a provider without its key with -32602 naming the value; the session keeps its model", async () => {
    const id = await h.newSession();
    await expect(send("agent/setModel", { sessionId: id, model: "nosuch/x" })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('"nosuch/x"') });
    if (!process.env.OPENAI_API_KEY) {
      await expect(send("agent/setModel", { sessionId: id, model: "openai/gpt-5" })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('"openai/gpt-5" needs the provider openai, which cannot be called') });
    }
    expect((await send("agent/listModels", { sessionId: id })).model).toBe("anthropic/claude-sonnet-4-6");
  });
});

describe("/model", () => {
  it("the compaction route writes the summary of /compact; the session's model answers the turns", async () => {
    const id = await h.newSession();
    h.fake.enqueue({ text: "First answer." });
    await h.prompt(id, "a first question");
    await command(id, "model", ["compaction", "anthropic/claude-haiku-4-5"]);
    h.fake.enqueue({ text: "SUMMARY of the first exchange." });
    expect((await command(id, "compact")).message).toMatch(/^Compacted \(checkpoint 1\)/);
    expect(modelOf(1)).toBe("claude-haiku-4-5");
    h.fake.enqueue({ text: "Second answer." });
    await h.prompt(id, "a second question");
    expect(modelOf(2)).toBe("claude-sonnet-4-6");
    expect(JSON.stringify(h.fake.requests[2]!.body.messages)).toContain("SUMMARY of the first exchange.");
  });

  it("routes are kept in the session's log: a reloaded session routes as it did, a reset stays reset", async () => {
    await h.dispose();
    const root = tempProject();
    h = await startAgentHarness({ root });
    const id = await h.newSession();
    h.fake.enqueue({ text: "First answer." });
    await h.prompt(id, "a first question");
    await command(id, "model", ["subagent", "anthropic/claude-haiku-4-5"]);
    await command(id, "model", ["compaction", "anthropic/claude-opus-4-1"]);
    await command(id, "model", ["compaction", "default"]);
    await h.dispose();
    h = await startAgentHarness({ root });
    await send("agent/loadSession", { sessionId: id });
    const { routes } = await send("agent/listModels", { sessionId: id });
    expect(routes).toEqual({ safety_check: "anthropic/claude-sonnet-4-6", compaction: "anthropic/claude-sonnet-4-6", subagent: "anthropic/claude-haiku-4-5" });
    rmSync(root, { recursive: true, force: true });
  });

  it("shows the routing, switches the session and routes a purpose; default resets it", async () => {
    const id = await h.newSession();
    expect((await command(id, "model")).message).toMatch(/^Session model: anthropic\/claude-sonnet-4-6\nSafety check \(auto mode\): anthropic\/claude-sonnet-4-6 \(default\)/);
    expect((await command(id, "model", ["subagent", "anthropic/claude-haiku-4-5"])).message).toBe("subagent now uses anthropic/claude-haiku-4-5.");
    expect((await send("agent/listModels", { sessionId: id })).routes.subagent).toBe("anthropic/claude-haiku-4-5");
    expect((await command(id, "model", ["subagent", "default"])).message).toBe("subagent uses its default model again.");
    expect((await command(id, "model", ["anthropic/claude-opus-4-1"])).message).toBe("Model set to anthropic/claude-opus-4-1.");
    await expect(command(id, "model", ["compaction", "nosuch/x"])).rejects.toMatchObject({ message: expect.stringContaining("nosuch/x") });
  });
});

describe("the safety-check route", () => {
  it("is the model auto mode's safety check calls", async () => {
    const id = await h.newSession({ mode: "auto" });
    await command(id, "model", ["safety_check", "anthropic/claude-haiku-4-5"]);
    h.fake.enqueue(
      // Outside the sandbox, so that it goes to the safety check (a sandboxed one does not).
      { toolCalls: [{ name: "execute_command", input: { command: "echo hi", outside_sandbox: "it must run on the machine itself" } }] },
      { text: '{"decision":"allow","reason":"harmless"}' },
      { text: "ok" },
    );
    await h.prompt(id, "say hi");
    expect([modelOf(0), modelOf(1), modelOf(2)]).toEqual(["claude-sonnet-4-6", "claude-haiku-4-5", "claude-sonnet-4-6"]);
    expect(toolResultsIn(2)[0]).toContain("hi");
  });
});

describe("the subagent route", () => {
  it("is the model of the session's subagents", async () => {
    const id = await h.newSession();
    await command(id, "model", ["subagent", "anthropic/claude-haiku-4-5"]);
    h.fake.enqueue({ toolCalls: [{ name: "agent", input: { prompt: "Find the answer." } }] }, { text: "The answer is 42." }, { text: "It is 42." });
    await h.prompt(id, "delegate it");
    expect([modelOf(0), modelOf(1), modelOf(2)]).toEqual(["claude-sonnet-4-6", "claude-haiku-4-5", "claude-sonnet-4-6"]);
  });
});

describe("model_routing_config", () => {
  it("reads and changes the routing; the session's next turn uses the new model", async () => {
    const id = await h.newSession();
    h.fake.enqueue(
      { toolCalls: [{ name: "model_routing_config", input: {} }] },
      { toolCalls: [{ name: "model_routing_config", input: { model: "anthropic/claude-opus-4-1" } }, { name: "model_routing_config", input: { purpose: "compaction", model: "nope/x" } }] },
      { text: "switched" },
      { text: "now on opus" },
    );
    await h.prompt(id, "use opus");
    await h.prompt(id, "next");
    expect(toolResultsIn(1)[0]).toContain("Session model: anthropic/claude-sonnet-4-6");
    expect(toolResultsIn(1)[0]).toContain("Models that can be chosen:");
    const [switched, bad] = toolResultsIn(2).slice(-2);
    expect(switched).toContain("Session model: anthropic/claude-opus-4-1");
    expect(bad).toContain('Not changed: Cannot tell which provider serves "nope/x"');
    // A turn keeps the model it started with; the next one starts with the new one.
    expect([modelOf(2), modelOf(3)]).toEqual(["claude-sonnet-4-6", "claude-opus-4-1"]);
  });

  it("may not pick its own safety-check model in auto mode", async () => {
    const id = await h.newSession({ mode: "auto" });
    // Auto mode asks the safety check (the session's own model here) about the call: it allows it.
    h.fake.enqueue(
      { toolCalls: [{ name: "model_routing_config", input: { purpose: "safety_check", model: "anthropic/claude-haiku-4-5" } }] },
      { text: '{"decision":"allow","reason":"fine"}' },
      { text: "ok" },
    );
    await h.prompt(id, "route it");
    const results = h.fake.requests.flatMap((_, n) => toolResultsIn(n));
    expect(results.some((r) => r.includes("in auto mode the model may not choose the model of its own safety check"))).toBe(true);
    expect((await send("agent/listModels", { sessionId: id })).routes.safety_check).toBe("anthropic/claude-sonnet-4-6");
  });
});
