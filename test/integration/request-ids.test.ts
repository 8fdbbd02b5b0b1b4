/**
 * One answer, one request, over LSP: every permission request and question carries its own
 * random `requestId`, goes out under a random JSON-RPC id, and only its own answer settles it.
 * An answer under a counter's id (what a client of an earlier server would send), or one that
 * names another request, is refused with a message and never applied.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { AgentHarness } from "../helpers/agent-setup.js";
import { waitFor } from "../helpers/wait.js";
import { richCapabilities, safetyHarness, toolResultsSent } from "./safety-helpers.js";

let h: AgentHarness;
afterEach(async () => {
  await h?.dispose();
});

const asked = (method: string) => h.client.requests.filter((r) => r.method === method).map((r) => r.params);

/** Writes one raw JSON-RPC message into the server, as a client would. */
function sendRaw(message: object): void {
  const body = JSON.stringify(message);
  h.serverInput.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
}

describe("request ids", () => {
  it("each permission request and question carries a random requestId of its own", async () => {
    h = await safetyHarness("ask", { capabilities: richCapabilities() });
    h.client.script.requestPermission = (p) => ({ optionId: "allow_once", requestId: p.requestId });
    h.fake.enqueue(
      { toolCalls: [{ name: "execute_command", input: { command: "echo one" } }] },
      { toolCalls: [{ name: "execute_command", input: { command: "echo two" } }] },
      { text: "done" },
    );
    await h.prompt(await h.newSession(), "run both");
    const ids = asked("agent/requestPermission").map((p) => p.requestId);
    expect(ids).toHaveLength(2);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(ids[0]).not.toBe(ids[1]);
    expect(toolResultsSent(h).map((r) => r.text).join("\n")).toContain("two");
  });

  it("an answer naming another request is refused with a message and counts as No", async () => {
    h = await safetyHarness("ask", { capabilities: richCapabilities() });
    h.client.script.requestPermission = () => ({ optionId: "allow_once", requestId: "an-earlier-request" });
    h.fake.enqueue({ toolCalls: [{ name: "execute_command", input: { command: "echo refused-run" } }] }, { text: "ok" });
    await h.prompt(await h.newSession(), "run it");
    const result = toolResultsSent(h)[0]!;
    expect(result.isError).toBe(true);
    expect(result.text).toContain("another request");
    expect(result.text).not.toContain("refused-run\n");
    expect(h.client.messages.some((m) => m.message.includes('"an-earlier-request"'))).toBe(true);
  });

  it("an answer under a counter's id (a client of an earlier server) settles nothing; the request's own answer does", async () => {
    h = await safetyHarness("ask", { capabilities: richCapabilities() });
    let answer!: (value: unknown) => void;
    h.client.script.requestPermission = () => new Promise((resolve) => (answer = resolve));
    h.fake.enqueue({ toolCalls: [{ name: "execute_command", input: { command: "echo late" } }] }, { text: "ok" });
    const session = await h.newSession();
    const turn = h.prompt(session, "run it");
    await waitFor(() => asked("agent/requestPermission").length === 1, 20_000);
    for (let id = 0; id <= 20; id++) sendRaw({ jsonrpc: "2.0", id, result: { optionId: "allow_once" } });
    await waitFor(() => h.client.messages.filter((m) => m.message.includes("not waiting for")).length === 21, 20_000);
    answer({ optionId: "reject", requestId: asked("agent/requestPermission")[0].requestId });
    await turn;
    const result = toolResultsSent(h)[0]!;
    expect(result.isError).toBe(true);
    expect(result.text).toContain("The user declined execute_command");
  });

  it("a question's answer naming another question is not taken", async () => {
    h = await safetyHarness("ask", { capabilities: { ...richCapabilities(), experimental: { agent: { requestPermission: true, askUser: true } } } });
    h.client.script.askUser = () => ({ answer: "Redis", requestId: "another-question" });
    h.fake.enqueue({ toolCalls: [{ name: "ask_user_question", input: { question: "Which cache?", choices: ["SQLite", "Redis"] } }] }, { text: "ok" });
    await h.prompt(await h.newSession(), "ask me");
    expect(asked("agent/askUser")[0].requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(toolResultsSent(h)[0]!.text).not.toContain("Redis");
    expect(h.client.messages.some((m) => m.message.includes('"another-question"'))).toBe(true);
  });
});
