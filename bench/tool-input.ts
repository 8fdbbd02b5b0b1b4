/**
 * A large tool input streamed by the model: a write_file (create) whose content arrives as 1 MB
 * input_json_delta chunks, at 10 and 50 MB, through the built binary with the fake provider. How
 * long the turn takes beside the same stream read and parsed alone in this process (the
 * transfer), and the slowest answer the server gave meanwhile to a cheap request sent every 5 ms
 * (target: < 100 ms; the create finishes within 2 s of the transfer at 50 MB).
 */
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { fakeProviderOptions, tempProject } from "../test/helpers/agent-setup.js";
import type { FakeProvider } from "../test/helpers/fake-provider/index.js";
import type { FakeTurn } from "../test/helpers/fake-provider/types.js";
import { startWorkerFake } from "./fake-worker.js";
import { answerTimes, slowest } from "../test/helpers/large-rewrite.js";
import { initialize, spawnServer } from "../test/helpers/spawn-server.js";

const MB = 1 << 20;

/** The same scripted turn, fetched and parsed alone: what the transfer costs in this process. */
async function transferAlone(bytes: number): Promise<number> {
  const fake = await startWorkerFake();
  try {
    await fake.enqueue(createTurn(bytes).turn);
    const t0 = performance.now();
    const res = await fetch(`${fake.url}/v1/messages`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": "sk-ant-test-key-0000", "anthropic-version": "2023-06-01" },
      body: JSON.stringify({ model: "claude-sonnet-4-5", max_tokens: 1000, stream: true, messages: [{ role: "user", content: "write" }] }),
    });
    let json = "";
    let rest = "";
    const decoder = new TextDecoder();
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      const lines = (rest + decoder.decode(chunk, { stream: true })).split("\n");
      rest = lines.pop()!;
      for (const line of lines) {
        if (!line.startsWith("data: ")) continue;
        const event = JSON.parse(line.slice(6));
        if (event.delta?.type === "input_json_delta") json += event.delta.partial_json;
      }
    }
    JSON.parse(json);
    return performance.now() - t0;
  } finally {
    await fake.close();
  }
}

/** The model's turn: write_file of about `bytes` of 64-character lines, streamed 1 MB a delta. */
function createTurn(bytes: number): { turn: FakeTurn; content: string } {
  const content = ("y".repeat(63) + "\n").repeat(Math.round(bytes / 64));
  return { content, turn: { toolCalls: [{ name: "write_file", input: { path: "big.txt", content } }], chunkSize: MB, usage: { input: 2000, output: 4000 } } };
}

/** One create of `bytes` through the server: the turn's time and the slowest answer during it. */
async function createOnce(bytes: number): Promise<{ turn: number; slowest: number }> {
  const fake = await startWorkerFake();
  const root = tempProject("agent-lsp-bench-input-");
  const server = spawnServer(root);
  try {
    await initialize(server, root, fakeProviderOptions(fake as unknown as FakeProvider, { tools: { provider_native: false }, safety: "full_access" }));
    const { result } = await server.request("agent/newSession", {});
    const { turn: create, content } = createTurn(bytes);
    await fake.enqueue(create, { text: "done" });
    const t0 = performance.now();
    const prompt = server.request("agent/prompt", { sessionId: result.sessionId, prompt: "write it" });
    const times = await answerTimes(() => server.request("agent/listSessions", {}), prompt);
    const answer = await prompt;
    const turn = performance.now() - t0;
    if (answer.result?.stopReason !== "end_turn") throw new Error(`create turn ended ${JSON.stringify(answer).slice(0, 300)}`);
    const file = path.join(root, "big.txt");
    if (!existsSync(file) || statSync(file).size !== content.length) throw new Error("the create did not write the whole file");
    return { turn, slowest: slowest(times) };
  } finally {
    server.child.kill("SIGKILL");
    await fake.close();
  }
}

export async function benchToolInput(): Promise<string[]> {
  const out: string[] = [];
  for (const mb of (process.env.TOOL_INPUT_MB ?? "10,50").split(",").map(Number)) {
    const transfer = await transferAlone(mb * MB);
    const run = await createOnce(mb * MB);
    out.push(`tool_input_${mb}mb_transfer ${transfer.toFixed(0)} ms (the stream fetched and parsed alone, this process)`);
    out.push(`tool_input_${mb}mb_create ${run.turn.toFixed(0)} ms (${(run.turn / transfer).toFixed(2)}x transfer; ${((run.turn - transfer) / 1000).toFixed(2)} s beyond it; target < 2 s at 50 MB)`);
    out.push(`tool_input_${mb}mb_slowest_answer ${run.slowest.toFixed(0)} ms (agent/listSessions every 5 ms during the turn; target < 100 ms)`);
  }
  return out;
}
