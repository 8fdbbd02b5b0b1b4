/**
 * Core benchmarks: cold start of the built binary against bare node, idle RSS, and the agent
 * loop's own overhead per tool round trip beyond the fake provider's time.
 */
import { spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { z } from "zod";
import { createAnthropicProvider } from "../server/src/providers/anthropic.js";
import { createProvider } from "../server/src/providers/registry.js";
import type { Message } from "../server/src/vocabulary/messages.js";
import { defineTool } from "../server/src/tools/define-tool.js";
import { startAgentHarness, tempProject } from "../test/helpers/agent-setup.js";
import { BINARY } from "../test/helpers/spawn-server.js";
import { median } from "./stats.js";

const INIT = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { processId: null, rootUri: null, capabilities: {} } });

/**
 * Milliseconds from spawn to the answer of request 1, `request` being the initialize message as
 * the front end chosen by `args` frames it.
 */
export function timeInitialize(cwd: string, args = ["--stdio"], request = `Content-Length: ${Buffer.byteLength(INIT)}\r\n\r\n${INIT}`): Promise<{ ms: number; pid: number; kill: () => void }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [BINARY, ...args], { cwd, stdio: ["pipe", "pipe", "ignore"] });
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      if (out.includes('"id":1')) resolve({ ms: performance.now() - t0, pid: child.pid!, kill: () => child.kill("SIGKILL") });
    });
    child.on("error", reject);
    child.stdin.write(request);
  });
}

/** Milliseconds `node -e 0` takes, the baseline of every start-up figure. */
export function timeBareNode(): number {
  const t0 = performance.now();
  spawnSync(process.execPath, ["-e", "0"]);
  return performance.now() - t0;
}

/** Cold start: median of 7, beside `node -e 0` in the same run. */
export async function benchColdStart(): Promise<string[]> {
  const cwd = tempProject("agent-lsp-bench-");
  const server: number[] = [];
  const node: number[] = [];
  for (let i = 0; i < 8; i++) {
    // Interleaved, so a noisy moment hits both; the first pair warms the file cache.
    const run = await timeInitialize(cwd);
    run.kill();
    const bare = timeBareNode();
    if (i === 0) continue;
    server.push(run.ms);
    node.push(bare);
  }
  const s = median(server);
  const n = median(node);
  return [`cold_start_initialize ${s.toFixed(1)} ms`, `cold_start_node_baseline ${n.toFixed(1)} ms`, `cold_start_ratio ${(s / n).toFixed(2)} x`];
}

/** Resident memory after initialized, idle. */
export async function benchIdleRss(): Promise<string[]> {
  const cwd = tempProject("agent-lsp-bench-");
  const run = await timeInitialize(cwd);
  await new Promise((r) => setTimeout(r, 1000));
  const status = readFileSync(`/proc/${run.pid}/status`, "utf8");
  run.kill();
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return [`idle_rss ${(kb / 1024).toFixed(1)} MB`];
}

/**
 * Loop overhead: 100 tool round trips through the whole in-process server (LSP, agent, gate,
 * tool runner, history log). The provider is wrapped to time its own share (the SDK, the HTTP
 * exchange and the fake); what remains per round trip is the loop's. The same calls made straight
 * through the adapter are printed beside it for reference.
 */
export async function benchLoopOverhead(rounds = 100): Promise<string[]> {
  let providerMs = 0;
  const h = await startAgentHarness({
    options: { max_turns: rounds + 10 },
    createProvider: async (settings) => {
      const inner = await createProvider(settings);
      return {
        name: inner.name,
        type: inner.type,
        async *stream(request, signal) {
          const t0 = performance.now();
          try {
            yield* inner.stream(request, signal);
          } finally {
            providerMs += performance.now() - t0;
          }
        },
      };
    },
  });
  try {
    h.server.runtime()!.registry.register(
      defineTool({ name: "noop", description: "does nothing", input: z.object({}), policyClass: "read_only", category: "bench", execute: async () => "ok" }),
    );
    const script = () => {
      for (let i = 0; i < rounds; i++) h.fake.enqueue({ toolCalls: [{ name: "noop", input: {} }], chunkSize: 64 });
      h.fake.enqueue({ text: "done", chunkSize: 64 });
    };
    // Warm-up turn so module loading and JIT are not measured.
    h.fake.enqueue({ toolCalls: [{ name: "noop", input: {} }] }, { text: "warm" });
    await h.prompt(await h.newSession(), "warm up");

    script();
    const id = await h.newSession();
    providerMs = 0;
    const t0 = performance.now();
    const res = await h.prompt(id, "go");
    const loopMs = performance.now() - t0;
    if (res.stopReason !== "end_turn") throw new Error(`bench turn ended ${res.stopReason}`);
    const inProvider = providerMs;
    const directMs = await directCalls(h.fake.url, rounds, script);
    return [
      `loop_total ${loopMs.toFixed(1)} ms`,
      `loop_in_provider ${inProvider.toFixed(1)} ms`,
      `loop_direct_provider_calls ${directMs.toFixed(1)} ms`,
      `loop_overhead_per_round_trip ${((loopMs - inProvider) / rounds).toFixed(3)} ms`,
    ];
  } finally {
    await h.dispose();
  }
}

/** The same model calls made straight through the provider adapter: the fake's (and SDK's) own time. */
async function directCalls(url: string, rounds: number, script: () => void): Promise<number> {
  script();
  const provider = createAnthropicProvider({ name: "anthropic", type: "anthropic", apiKey: "sk-ant-bench", baseUrl: url, options: {} });
  const messages: Message[] = [{ role: "user", content: [{ type: "text", text: "go" }] }];
  const signal = new AbortController().signal;
  const t0 = performance.now();
  for (let i = 0; i <= rounds; i++) {
    for await (const ev of provider.stream({ model: "claude-sonnet-4-6", system: "s", messages, tools: [{ name: "noop", description: "d", inputSchema: { type: "object" } }], maxTokens: 1024 }, signal)) {
      if (ev.type === "tool_call_end") {
        messages.push({ role: "assistant", content: [{ type: "tool_call", id: ev.id, name: ev.name, input: ev.input }] });
        messages.push({ role: "tool", content: [{ type: "tool_result", toolCallId: ev.id, name: ev.name, isError: false, content: [{ type: "text", text: "ok" }] }] });
      }
    }
  }
  return performance.now() - t0;
}
