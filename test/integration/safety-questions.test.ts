/** ask_user_question over the LSP: agent/askUser when declared, else showMessageRequest with the choices. */
import { afterEach, describe, expect, it } from "vitest";
import type { AgentHarness } from "../helpers/agent-setup.js";
import { defaultCapabilities } from "../helpers/lsp-client.js";
import { safetyHarness, toolResultsSent } from "./safety-helpers.js";

let h: AgentHarness;
afterEach(async () => {
  await h?.dispose();
});

describe("ask_user_question", () => {
  it("uses agent/askUser when the client declares it, free text allowed", async () => {
    h = await safetyHarness("read_only", { capabilities: defaultCapabilities({ experimental: { agent: { askUser: true } } }) });
    h.client.script.askUser = () => ({ answer: "Use SQLite for now" });
    h.fake.enqueue({ toolCalls: [{ name: "ask_user_question", input: { question: "Which database?", choices: ["Postgres", "SQLite"] } }] }, { text: "ok" });
    await h.prompt(await h.newSession(), "set up storage");
    const asked = h.client.requests.find((r) => r.method === "agent/askUser")!.params;
    expect(asked).toMatchObject({ question: "Which database?", choices: ["Postgres", "SQLite"], allowFreeText: true });
    expect(toolResultsSent(h)[0]).toEqual({ isError: false, text: "The user answered: Use SQLite for now" });
  });

  it("shows the choices as buttons on other clients", async () => {
    h = await safetyHarness("ask");
    h.client.script.showMessageRequest = (p) => p.actions![1]!.title;
    h.fake.enqueue({ toolCalls: [{ name: "ask_user_question", input: { question: "Which database?", choices: ["Postgres", "SQLite"] } }] }, { text: "ok" });
    await h.prompt(await h.newSession(), "set up storage");
    const shown = h.client.requests.find((r) => r.method === "window/showMessageRequest")!.params;
    expect(shown).toMatchObject({ message: "Which database?", actions: [{ title: "Postgres" }, { title: "SQLite" }] });
    expect(toolResultsSent(h)[0]!.text).toBe("The user answered: SQLite");
  });

  // A plain client (no agent protocol) has the chat file, where such a question is a block
  // (test/integration/chat-file.test.ts); one that declares the protocol without askUser has not.
  it("tells the model when the client cannot take a free-text question", async () => {
    h = await safetyHarness("ask", { capabilities: defaultCapabilities({ experimental: { agent: {} } }) });
    h.fake.enqueue({ toolCalls: [{ name: "ask_user_question", input: { question: "What is the API key name?" } }] }, { text: "ok" });
    await h.prompt(await h.newSession(), "configure");
    expect(h.client.requests.some((r) => r.method === "window/showMessageRequest")).toBe(false);
    expect(toolResultsSent(h)[0]).toMatchObject({ isError: true, text: expect.stringContaining("ask again with choices") });
  });
});
