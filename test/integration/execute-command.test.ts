/**
 * Turns started through workspace/executeCommand, as clients without the agent protocol run
 * them (eglot calls executeCommand synchronously with a 10 s timeout): the request is answered
 * as soon as the turn runs, the end arrives as $/progress end and window/showMessage, the
 * summary reads as text (one paragraph per model call, what did not happen named), and
 * `agent.cancel` without arguments is a way out.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { startAgentHarness, type AgentHarness } from "../helpers/agent-setup.js";
import { defaultCapabilities } from "../helpers/lsp-client.js";
import { waitFor } from "../helpers/wait.js";

let h: AgentHarness;
afterEach(async () => {
  await h?.dispose();
});

const SOURCE = "function add(a, b) {\n  return a - b;\n}\n";
const range = { start: { line: 1, character: 2 }, end: { line: 1, character: 15 } };
const diagnostic = { range, message: "add() subtracts", severity: 1, source: "lint" };

async function start(options: Record<string, unknown> = {}): Promise<string> {
  h = await startAgentHarness({ options: { tools: { provider_native: false }, ...options } });
  writeFileSync(path.join(h.root, "math.js"), SOURCE);
  const uri = pathToFileURL(path.join(h.root, "math.js")).href;
  h.client.open(uri, SOURCE, "javascript");
  return uri;
}

const execute = (command: string, args: unknown[]) => h.client.connection.sendRequest("workspace/executeCommand", { command, arguments: args }) as Promise<any>;
const progressValues = () => h.client.requests.filter((r) => r.method === "$/progress").map((r) => r.params);
const progressEnd = () => progressValues().find((p) => p.value.kind === "end");

describe("executeCommand turns", () => {
  it("answers as soon as the turn runs, and agent.cancel without arguments stops it", async () => {
    const uri = await start();
    h.fake.enqueue({ text: "Thinking about it", hang: true });
    const res = await execute("agent.explain", [{ uri, range }]);
    expect(res).toEqual({ status: "started", sessionId: expect.stringMatching(/^s-/) });
    // The model is still streaming: the turn runs on after the answer.
    expect(h.server.runtime()!.agent.get(res.sessionId).turn).toBeDefined();
    await waitFor(() => h.fake.requests.length === 1);
    expect(await execute("agent.cancel", [])).toEqual({ cancelled: [res.sessionId] });
    await waitFor(() => progressEnd() !== undefined);
    expect(progressEnd()!.value).toMatchObject({ message: "cancelled" });
    await waitFor(() => h.client.messages.length > 0);
    expect(h.client.messages.at(-1)).toMatchObject({ type: 2, message: expect.stringContaining("Agent: explain math.js:2: cancelled") });
  });

  it("agent.prompt takes a context, answers at once, and a showMessage carries the answer", async () => {
    const uri = await start();
    const sessionId = (await execute("agent.newSession", [{}])).sessionId as string;
    h.fake.enqueue({ text: "It subtracts b from a." });
    const res = await execute("agent.prompt", [sessionId, "What does this line do?", { uri, range }]);
    expect(res).toEqual({ status: "started", sessionId });
    await waitFor(() => h.client.messages.length > 0);
    // The headline carries the cost when the model's price is known (the fake plays a priced model).
    expect(h.client.messages[0]).toEqual({ type: 3, message: expect.stringMatching(/^Agent: What does this line do\?: done, \$\d+\.\d{2,4}\n\nIt subtracts b from a\.$/) });
    const sent = JSON.stringify(h.fake.requests[0]!.body.messages.at(-1).content);
    expect(sent).toContain("File: math.js");
    expect(sent).toContain("return a - b");
    expect(progressValues()[0]!.value).toMatchObject({ kind: "begin", title: "Agent: What does this line do?" });
    await expect(execute("agent.prompt", [sessionId, "x", { range: "bad" }])).rejects.toMatchObject({ code: -32602 });
  });

  it("a busy session is refused as a JSON-RPC error before anything starts", async () => {
    const uri = await start();
    h.fake.enqueue({ text: "slow", hang: true });
    const { sessionId } = await execute("agent.explain", [{ uri, range }]);
    await expect(execute("agent.explain", [{ uri, range }])).rejects.toMatchObject({ code: -32803 });
    await execute("agent.cancel", [sessionId]);
  });

  it("agent/cancel withdraws the question a run asks before its turn ($/cancelRequest)", async () => {
    h = await startAgentHarness({ capabilities: { ...defaultCapabilities(), experimental: { agent: { askUser: true } } } });
    writeFileSync(path.join(h.root, "math.js"), SOURCE);
    const uri = pathToFileURL(path.join(h.root, "math.js")).href;
    h.client.open(uri, SOURCE, "javascript");
    h.client.script.askUser = () => new Promise(() => undefined); // the user is away
    const sessionId = await h.newSession();
    const run = execute("agent.refactor", [{ uri, range, sessionId, wait: true }]);
    await waitFor(() => h.client.requests.some((r) => r.method === "agent/askUser"));
    await h.client.connection.sendNotification("agent/cancel", { sessionId });
    expect(await run).toMatchObject({ status: "ended", stopReason: "cancelled" });
    expect(h.client.cancelledRequests()).toEqual(["agent/askUser"]);
    expect(h.fake.requests).toHaveLength(0);
  });

  it("progress tokens and titles are words a person can read", async () => {
    const uri = await start();
    h.fake.enqueue({ text: "ok" });
    await execute("agent.explain", [{ uri, range }]);
    await waitFor(() => progressEnd() !== undefined);
    const creates = h.client.requests.filter((r) => r.method === "window/workDoneProgress/create");
    expect(creates[0]!.params.token).toMatch(/^agent-lsp \d+$/);
    expect(progressValues()[0]).toMatchObject({ token: creates[0]!.params.token, value: { kind: "begin", title: "Agent: explain math.js:2" } });
  });
});

describe("the summary a plain client reads", () => {
  it("keeps each model call's text as its own paragraph and names what did not happen", async () => {
    const uri = await start({ safety: "ask" });
    // The edit is declined, the command runs and fails.
    h.client.script.showMessageRequest = (p) => (p.message.startsWith("edit_file") ? "No" : "Yes");
    h.fake.enqueue(
      { text: "I will change the operator.", toolCalls: [{ name: "edit_file", input: { path: "math.js", target_content: "a - b", replacement_content: "a + b" } }] },
      { text: "Then I run the tests.", toolCalls: [{ name: "execute_command", input: { command: "exit 3" } }] },
      { text: "The tests could not run.\n\nPlease check them." },
    );
    await execute("agent.fix", [{ uri, range, diagnostics: [diagnostic] }]);
    await waitFor(() => h.client.messages.length > 0);
    const { type, message } = h.client.messages[0]!;
    expect(type).toBe(2);
    expect(message).toMatch(
      new RegExp(
        [
          "^Agent: fix math\\.js:2: finished, but 2 steps did not happen, \\$\\d+\\.\\d{2,4}",
          "I will change the operator\\.",
          "Then I run the tests\\.",
          "The tests could not run\\.",
          "Please check them\\.",
          "Not done:\\n- Edit math\\.js: declined \\(The change was not applied: The user declined edit_file: math\\.js \\(\\+1 -1\\)\\.\\)\\n- Run exit 3: failed \\(Exit code: 3 .*\\)$",
        ].join("\\n\\n"),
      ),
    );
    expect(progressEnd()!.value).toMatchObject({ message: "finished, but 2 steps did not happen" });
  });
});
