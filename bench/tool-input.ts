/**
 * A large tool input streamed by the model: a write_file (create) whose content arrives as 1 MB
 * input_json_delta chunks, at 10 and 50 MB, through the built binary with the fake provider. How
 * long the turn takes beside the same stream read and parsed alone in this process (the
 * transfer), and the slowest answer the server gave meanwhile to a cheap request sent every 5 ms
 * (target: < 100 ms; the create finishes within 2 s of the transfer at 50 MB). And the server's
 * resident memory before the turn, at its peak, and after a pause once the turn is over (memory
 * the large message took is released; the message itself stays in the session's history).
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fakeProviderOptions, tempProject, type FakeApi } from "../test/helpers/agent-setup.js";
import type { FakeProvider } from "../test/helpers/fake-provider/index.js";
import type { FakeTurn } from "../test/helpers/fake-provider/types.js";
import { startWorkerFake } from "./fake-worker.js";
import { answerTimes, slowest } from "../test/helpers/large-rewrite.js";
import { agentLoaded, initialize, spawnServer, type SpawnedServer } from "../test/helpers/spawn-server.js";

/** A request that may take long on a loaded machine (a 50 MB turn): answered within 5 minutes. */
function longRequest(server: SpawnedServer, method: string, params: unknown): Promise<any> {
  const id = `long-${Math.random()}`;
  server.send({ jsonrpc: "2.0", id, method, params });
  return server.waitFor((m) => m.id === id && m.method === undefined, 300_000);
}

const MB = 1 << 20;

/** How long the server is left idle after the turn before its memory is read: time for V8 to collect. */
const SETTLE_MS = 3000;

/** A process's resident memory and its peak so far, in MB (from /proc: Linux). */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
  return { rss: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024 };
}

/** The server's memory around a large turn, in MB. */
interface TurnMemory {
  before: number;
  peak: number;
  after: number;
}

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

/** TOOL_INPUT_TRACE: when in the turn each answer slower than 50 ms was asked (stderr). */
function traceSlowAnswers(api: string, times: { at: number; ms: number }[], t0: number, turn: number): void {
  const slow = times.filter((t) => t.ms > 50).map((t) => `${(t.at - t0).toFixed(0)}+${t.ms.toFixed(0)}`);
  console.error(`${api}: turn ${turn.toFixed(0)} ms, ${times.length} answers; slower than 50 ms (asked at+took): ${slow.join(" ") || "none"}`);
}

/** One create of `bytes` through the server: the turn's time and the slowest answer during it. */
async function createOnce(bytes: number, api: FakeApi = "anthropic"): Promise<{ turn: number; slowest: number; memory: TurnMemory }> {
  const fake = await startWorkerFake();
  const root = tempProject("agent-lsp-bench-input-");
  const server = spawnServer(root);
  try {
    await initialize(server, root, fakeProviderOptions(fake as unknown as FakeProvider, { tools: { provider_native: false }, safety: "full_access" }, api));
    const { result } = await server.request("agent/newSession", {});
    await agentLoaded(server);
    const { turn: create, content } = createTurn(bytes);
    await fake.enqueue(create, { text: "done" });
    const before = memoryOf(server.child.pid!).rss;
    const t0 = performance.now();
    const prompt = longRequest(server, "agent/prompt", { sessionId: result.sessionId, prompt: "write it" });
    const times = await answerTimes(() => server.request("agent/listSessions", {}), prompt);
    const answer = await prompt;
    const turn = performance.now() - t0;
    if (answer.result?.stopReason !== "end_turn") throw new Error(`create turn ended ${JSON.stringify(answer).slice(0, 300)}`);
    const file = path.join(root, "big.txt");
    if (!existsSync(file) || statSync(file).size !== content.length) throw new Error("the create did not write the whole file");
    const { peak } = memoryOf(server.child.pid!);
    if (process.env.TOOL_INPUT_TRACE) traceSlowAnswers(api, times, t0, turn);
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    return { turn, slowest: slowest(times), memory: { before, peak, after: memoryOf(server.child.pid!).rss } };
  } finally {
    await stopServer(server);
    await fake.close();
  }
}

/** Kills the server; a profiled one (BENCH_SERVER_NODE_ARGS) is asked to exit, so that it writes its profile. */
async function stopServer(server: SpawnedServer): Promise<void> {
  if (!process.env.BENCH_SERVER_NODE_ARGS) return void server.child.kill("SIGKILL");
  await server.request("shutdown", null).catch(() => undefined);
  server.send({ jsonrpc: "2.0", method: "exit" });
  await server.exited;
}

/** The other wire formats the 50 MB create is timed through, as the bench line names them. */
const OTHER_APIS: Record<string, string> = {
  "openai-compatible": "a chat-completions server",
  gemini: "Gemini (the whole call in one event)",
  openai: "OpenAI's Responses API (pieces, then the arguments whole three more times)",
};

export async function benchToolInput(): Promise<string[]> {
  const out: string[] = [];
  for (const mb of (process.env.TOOL_INPUT_MB ?? "10,50").split(",").map(Number)) {
    const transfer = await transferAlone(mb * MB);
    const run = await createOnce(mb * MB);
    out.push(`tool_input_${mb}mb_transfer ${transfer.toFixed(0)} ms (the stream fetched and parsed alone, this process)`);
    out.push(`tool_input_${mb}mb_create ${run.turn.toFixed(0)} ms (${(run.turn / transfer).toFixed(2)}x transfer; ${((run.turn - transfer) / 1000).toFixed(2)} s beyond it; target < 2 s at 50 MB)`);
    out.push(`tool_input_${mb}mb_slowest_answer ${run.slowest.toFixed(0)} ms (agent/listSessions every 5 ms during the turn; target < 100 ms)`);
    const m = run.memory;
    out.push(`tool_input_${mb}mb_rss_after ${m.after.toFixed(0)} MB (${SETTLE_MS / 1000} s after the turn; ${m.before.toFixed(0)} MB before it, peak ${m.peak.toFixed(0)} MB; the ${mb} MB message stays in the session's history)`);
  }
  // The same 50 MB create through the other wire formats: chat completions (arguments in pieces),
  // Gemini (the whole call in one event) and OpenAI's Responses API (both). TOOL_INPUT_APIS picks them ("none" for neither).
  for (const api of (process.env.TOOL_INPUT_APIS ?? (process.env.TOOL_INPUT_MB ? "none" : "openai-compatible,gemini,openai")).split(",")) {
    if (api === "none") continue;
    const other = await createOnce(50 * MB, api as FakeApi);
    const name = api.replace(/-/g, "_");
    const m = other.memory;
    out.push(`tool_input_50mb_${name}_slowest_answer ${other.slowest.toFixed(0)} ms (the same create from ${OTHER_APIS[api] ?? api}; turn ${other.turn.toFixed(0)} ms; RSS ${m.before.toFixed(0)} MB before, peak ${m.peak.toFixed(0)}, ${m.after.toFixed(0)} ${SETTLE_MS / 1000} s after; target < 100 ms)`);
  }
  return out;
}
