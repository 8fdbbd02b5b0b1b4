/**
 * What a failed turn leaves behind: a prompt the model never answered is not sent again with the
 * next one (the log keeps it, marked failed, and a resumed session shows it as failed); a turn
 * that failed after tools ran keeps that work; a cancelled turn still counts the tokens the
 * provider reported; and a turn that used nothing prints no "$0.0000" cost line. Edit and re-send
 * (`agent/prompt` with `replaceLast`) drops the last exchange, answered or failed, the same way:
 * out of what the model sees, kept in the log with a `rewind` record.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createRuntime } from "../../server/src/agent/runtime.js";
import { mergeLayers } from "../../server/src/config/load.js";
import { HeadlessEditor } from "../../server/src/editor/headless.js";
import { defineTool } from "../../server/src/tools/define-tool.js";
import { fakeProviderOptions, startAgentHarness, tempProject, type AgentHarness } from "../helpers/agent-setup.js";
import { startFakeProvider } from "../helpers/fake-provider/index.js";
import { waitFor } from "../helpers/wait.js";

let harnesses: AgentHarness[] = [];
afterEach(async () => {
  const open = harnesses;
  harnesses = [];
  // The last started first: a resumed session's harness shares the first one's project folder.
  for (const h of open.reverse()) await h.dispose();
});

async function harness(root?: string): Promise<AgentHarness> {
  const h = await startAgentHarness(root ? { root } : {});
  harnesses.push(h);
  return h;
}

/** Every user text the model was sent in a recorded Anthropic request. */
function userTexts(body: any): string[] {
  return body.messages
    .filter((m: any) => m.role === "user")
    .flatMap((m: any) => (typeof m.content === "string" ? [m.content] : m.content.filter((b: any) => b.type === "text").map((b: any) => b.text)));
}

function logOf(h: AgentHarness, id: string): any[] {
  const file = path.join(h.root, ".agent-lsp", "conversations", `${id}.jsonl`);
  return readFileSync(file, "utf8").trim().split("\n").map((l) => JSON.parse(l));
}

describe("a prompt whose turn failed before the model answered", () => {
  it("is not sent again with the next prompt, and the editor is told it can be re-sent", async () => {
    const h = await harness();
    const id = await h.newSession();
    h.fake.enqueue({ error: { status: 401, message: "invalid x-api-key" } });
    expect((await h.prompt(id, "delete the build folder")).stopReason).toBe("error");
    expect(h.client.updatesOf("error")[0].message).toMatch(/invalid x-api-key[\s\S]*not sent to the model[\s\S]*send it again/);

    h.fake.enqueue({ text: "Hello." });
    expect((await h.prompt(id, "say hello")).stopReason).toBe("end_turn");
    expect(h.fake.requests).toHaveLength(2);
    expect(userTexts(h.fake.requests[1]!.body).join("\n")).not.toContain("delete the build folder");
    expect(h.fake.requests[1]!.body.messages).toHaveLength(1);
    expect(userTexts(h.fake.requests[1]!.body)).toEqual([expect.stringContaining("say hello")]);

    // The log keeps the failed prompt, marked failed, and numbers on after it.
    const log = logOf(h, id);
    expect(log.filter((r) => r.type === "message").map((r) => r.seq)).toEqual([1, 2, 3]);
    expect(log.find((r) => r.type === "failed")).toMatchObject({ seq: 1, error: expect.stringContaining("invalid x-api-key") });
  });

  it("shows as failed when the session is resumed, and stays out of the model's context", async () => {
    const first = await harness();
    const id = await first.newSession();
    first.fake.enqueue({ error: { status: 400, message: "model does not exist" } }, { text: "Done." });
    await first.prompt(id, "the failed one");
    await first.prompt(id, "the answered one");

    const second = await harness(first.root);
    await second.client.connection.sendRequest("agent/loadSession", { sessionId: id });
    const replay = second.client.updates.map((u) => u.update);
    expect(replay.map((u) => u.kind)).toEqual(["user_message", "error", "user_message", "text"]);
    expect(replay[0]).toMatchObject({ text: expect.stringContaining("the failed one") });
    expect(replay[1].message).toMatch(/failed and was not sent to the model: .*model does not exist/);

    second.fake.enqueue({ text: "Next." });
    await second.prompt(id, "the next one");
    const sent = userTexts(second.fake.requests[0]!.body).join("\n");
    expect(sent).toContain("the answered one");
    expect(sent).toContain("the next one");
    expect(sent).not.toContain("the failed one");
    // Appending goes on after every logged message, the failed one included.
    expect(logOf(second, id).filter((r) => r.type === "message").map((r) => r.seq)).toEqual([1, 2, 3, 4, 5]);
  });
});

describe("a turn that failed after the model answered part of it", () => {
  it("keeps the prompt, the tool call and its result for the next prompt", async () => {
    const h = await harness();
    h.server.runtime()!.registry.register(
      defineTool({
        name: "echo",
        description: "Echoes its input",
        input: z.object({ value: z.string() }),
        policyClass: "read_only",
        category: "test",
        execute: async ({ value }) => `echo: ${value}`,
      }),
    );
    const id = await h.newSession();
    h.fake.enqueue({ toolCalls: [{ name: "echo", input: { value: "ran" } }] }, { error: { status: 400, message: "bad request" } });
    expect((await h.prompt(id, "use the tool")).stopReason).toBe("error");
    expect(h.client.updatesOf("error")[0].message).not.toContain("not sent to the model");

    h.fake.enqueue({ text: "ok" });
    await h.prompt(id, "go on");
    const body = JSON.stringify(h.fake.requests[2]!.body.messages);
    expect(body).toContain("use the tool");
    expect(body).toContain("echo: ran");
    expect(body).toContain("go on");
    expect(logOf(h, id).some((r) => r.type === "failed")).toBe(false);
  });
});

describe("usage and cost of turns that did not finish", () => {
  it("a cancelled turn counts the input tokens the provider reported at message_start", async () => {
    const h = await harness();
    const id = await h.newSession();
    h.fake.enqueue({ text: "Starting, and then nothing", hang: true, usage: { input: 4321 } });
    const answer = h.prompt(id, "long task");
    await waitFor(() => h.client.updatesOf("text").length > 0);
    await h.client.connection.sendNotification("agent/cancel", { sessionId: id });
    expect((await answer).stopReason).toBe("cancelled");
    await waitFor(() => h.client.updatesOf("usage").length > 0);
    expect(h.client.updatesOf("usage")[0]).toMatchObject({ inputTokens: 4321 });
    const usage = (await h.client.connection.sendRequest("agent/command", { sessionId: id, command: "usage" })) as { message: string };
    expect(usage.message).toContain("Input 4321 tokens");
  });

  it("a failed turn that used no tokens sends no usage update and prints no $0.0000 line", async () => {
    const fake = await startFakeProvider();
    const root = tempProject();
    const stderr = new PassThrough();
    let printed = "";
    stderr.on("data", (d: Buffer) => (printed += d.toString()));
    const editor = new HeadlessEditor({ stdout: new PassThrough(), stderr });
    const config = mergeLayers([fakeProviderOptions(fake)]);
    const runtime = createRuntime({ editor, root, config: () => config });
    editor.follow(runtime.events);
    try {
      const { sessionId } = runtime.agent.newSession({});
      fake.enqueue({ error: { status: 401, message: "invalid x-api-key" } });
      expect((await runtime.agent.prompt({ sessionId, prompt: "hi" })).stopReason).toBe("error");
      expect(printed).toContain("error: ");
      expect(printed).not.toContain("$0.0000");
      expect(printed).not.toContain("tokens:");

      // The line is there when the model did answer: the check above is not vacuous.
      fake.enqueue({ text: "Hi.", usage: { input: 10, output: 2 } });
      await runtime.agent.prompt({ sessionId, prompt: "hi again" });
      expect(printed).toMatch(/tokens: 10 in, 2 out, ~\$0\.\d{4}/);
    } finally {
      await runtime.dispose();
      await fake.close();
    }
  });
});

/** Every text the model was sent in a recorded Anthropic request, user and assistant alike. */
function texts(body: any): string[] {
  return body.messages.flatMap((m: any) =>
    typeof m.content === "string" ? [m.content] : m.content.filter((b: any) => b.type === "text").map((b: any) => b.text),
  );
}

describe("agent/prompt with replaceLast", () => {
  it("drops the last exchange (tool calls included) from what the model sees, and keeps it in the log", async () => {
    const h = await harness();
    const id = await h.newSession();
    h.fake.enqueue({ text: "First answer." });
    await h.prompt(id, "first question");
    h.fake.enqueue({ toolCalls: [{ name: "read_file", input: { path: "missing.txt" } }] }, { text: "Second answer." });
    await h.prompt(id, "second question, badly put");
    h.fake.enqueue({ text: "Better answer." });
    expect((await h.prompt(id, "second question, well put", { replaceLast: true })).stopReason).toBe("end_turn");

    const sent = texts(h.fake.requests.at(-1)!.body).join("\n");
    expect(sent).toContain("first question");
    expect(sent).toContain("First answer.");
    expect(sent).toContain("second question, well put");
    expect(sent).not.toContain("badly put");
    expect(sent).not.toContain("Second answer.");
    expect(JSON.stringify(h.fake.requests.at(-1)!.body.messages)).not.toContain("missing.txt");

    const log = logOf(h, id);
    // Nothing is deleted: the rewound prompt (seq 3) and its tool call, result and answer stay.
    expect(log.filter((r) => r.type === "message").map((r) => r.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(log.filter((r) => r.type === "rewind")).toEqual([{ type: "rewind", seq: 3, time: expect.any(String) }]);
  });

  it("is an ordinary prompt when there is nothing to replace", async () => {
    const h = await harness();
    const id = await h.newSession();
    h.fake.enqueue({ text: "Hi." });
    expect((await h.prompt(id, "hello", { replaceLast: true })).stopReason).toBe("end_turn");
    expect(logOf(h, id).some((r) => r.type === "rewind")).toBe(false);
  });

  it("replaces a prompt that failed, and a resumed session replays the rewound state", async () => {
    const first = await harness();
    const id = await first.newSession();
    first.fake.enqueue({ text: "Kept." }, { error: { status: 400, message: "model does not exist" } }, { text: "Fixed." });
    await first.prompt(id, "the kept one");
    await first.prompt(id, "the failed one");
    await first.prompt(id, "the edited one", { replaceLast: true });

    const second = await harness(first.root);
    await second.client.connection.sendRequest("agent/loadSession", { sessionId: id });
    const replay = second.client.updates.map((u) => u.update);
    // The failed prompt and its error are gone from the replay: it was edited into the next one.
    expect(replay.map((u) => u.kind)).toEqual(["user_message", "text", "user_message", "text"]);
    expect(replay[2]).toMatchObject({ text: expect.stringContaining("the edited one") });

    // Resumed, replacing again drops the edited exchange, not the kept one.
    second.fake.enqueue({ text: "Third." });
    await second.prompt(id, "edited twice", { replaceLast: true });
    const sent = texts(second.fake.requests.at(-1)!.body).join("\n");
    expect(sent).toContain("the kept one");
    expect(sent).not.toContain("the edited one");
    expect(sent).toContain("edited twice");
    // Messages: 1 kept prompt, 2 its answer, 3 failed prompt, 4 edited prompt, 5 its answer, 6, 7.
    expect(logOf(second, id).filter((r) => r.type === "rewind").map((r) => r.seq)).toEqual([3, 4]);
  });
});
