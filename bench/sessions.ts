/**
 * Long sessions: agent/loadSession of a 10,000-message log (target under 500 ms), a
 * context_archive search over it (target under 50 ms), each beside a same-process baseline (reading
 * and JSON-parsing every line of the same log); and the memory a loaded session keeps, which must
 * not grow with the archived part of its history (a log whose first 9,000 messages are archived
 * against a 1,000-message log with the same working context, and a 10,000-message log without a
 * compaction for contrast).
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { logArchive } from "../server/src/agent/history/archive.js";
import { startAgentHarness, tempProject } from "../test/helpers/agent-setup.js";
import { median } from "./stats.js";

const MESSAGES = 10_000;
const ARCHIVED = 9_000;

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

export async function benchSessions(): Promise<string[]> {
  const root = tempProject("agent-lsp-bench-sessions-");
  try {
    const full = writeLog(root, "s-compacted", MESSAGES, ARCHIVED);
    writeLog(root, "s-short", MESSAGES - ARCHIVED, 0, ARCHIVED);
    writeLog(root, "s-uncompacted", MESSAGES, 0);
    const baseline = best(() => parseEveryLine(full), 7);
    const load = await timeLoads(root, "s-compacted", 5);
    const archive = logArchive(full);
    const search = best(() => archive.search("needle-4321", 0, 25), 9);
    const hits = archive.search("needle-4321", 0, 25).total;
    // A warm-up load first: the first one also loads code, which would count as the session's.
    await retainedBytes(root, "s-short");
    const kept = {
      short: await medianRetained(root, "s-short"),
      compacted: await medianRetained(root, "s-compacted"),
      uncompacted: await medianRetained(root, "s-uncompacted"),
    };
    const mb = (b: number) => (b / 1024 / 1024).toFixed(2);
    return [
      `sessions_parse_baseline ${baseline.toFixed(1)} ms (read + JSON.parse of every line, ${MESSAGES} messages, ${mb(fileSize(full))} MB)`,
      `sessions_load_10k ${load.toFixed(1)} ms (agent/loadSession with replay; target < 500 ms; ${(load / baseline).toFixed(2)}x baseline)`,
      `sessions_archive_search ${search.toFixed(1)} ms (${hits} hit(s) in ${MESSAGES} messages; target < 50 ms; ${(search / baseline).toFixed(2)}x baseline)`,
      `sessions_heap_compacted ${mb(kept.compacted)} MB (10,000 messages, 9,000 archived)`,
      `sessions_heap_short ${mb(kept.short)} MB (1,000 messages, same working context)`,
      `sessions_heap_uncompacted ${mb(kept.uncompacted)} MB (10,000 messages, none archived; for contrast)`,
    ];
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/**
 * Writes a log of `count` messages (prompt, answer with a tool call, tool result, in turn), about
 * 600 characters each, with a compaction archiving the first `archived`. `firstSeq` numbers on from
 * an earlier part (a short log whose working context matches the long one's).
 */
function writeLog(root: string, id: string, count: number, archived: number, firstSeq = 0): string {
  const dir = path.join(root, ".agent-lsp", "conversations");
  mkdirSync(dir, { recursive: true });
  const lines = [JSON.stringify({ type: "session", sessionId: id, created: new Date().toISOString(), cwd: root, mode: "full_access", model: "anthropic/claude-sonnet-4-6" })];
  const filler = "lorem ipsum dolor sit amet ".repeat(20);
  for (let i = 1; i <= count; i++) {
    const seq = firstSeq + i;
    const message = messageAt(seq, filler);
    lines.push(JSON.stringify({ type: "message", seq, time: new Date(1_700_000_000_000 + seq * 1000).toISOString(), message }));
    if (i === archived) {
      lines.push(JSON.stringify({ type: "compaction", n: 1, time: new Date().toISOString(), through: seq, summary: `SUMMARY ${filler}`, trigger: "auto", tokensBefore: 170_000, tokensAfter: 20_000, archived }));
    }
  }
  // A short log stands for the same working context: its checkpoint comes first.
  if (firstSeq > 0) lines.splice(1, 0, JSON.stringify({ type: "compaction", n: 1, time: new Date().toISOString(), through: firstSeq, summary: `SUMMARY ${filler}`, trigger: "auto", tokensBefore: 170_000, tokensAfter: 20_000, archived: firstSeq }));
  const file = path.join(dir, `${id}.jsonl`);
  writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
}

function messageAt(seq: number, filler: string) {
  const turn = seq % 3;
  if (turn === 1) return { role: "user", content: [{ type: "text", text: `prompt ${seq} needle-${seq} ${filler}` }] };
  if (turn === 2) return { role: "assistant", content: [{ type: "text", text: `answer ${seq} ${filler}` }, { type: "tool_call", id: `call-${seq}`, name: "read_file", input: { path: `src/f${seq}.ts` } }] };
  return { role: "tool", content: [{ type: "tool_result", toolCallId: `call-${seq - 1}`, name: "read_file", isError: false, content: [{ type: "text", text: `contents ${seq} ${filler}` }] }] };
}

function parseEveryLine(file: string): number {
  let n = 0;
  for (const line of readFileSync(file, "utf8").split("\n")) if (line) n += (JSON.parse(line) as { type: string }).type.length;
  return n;
}

function fileSize(file: string): number {
  return readFileSync(file).length;
}

/** The best of `rounds` runs (noise only ever adds time), after one warm-up. */
function best(fn: () => unknown, rounds: number): number {
  fn();
  let min = Infinity;
  for (let i = 0; i < rounds; i++) {
    const start = performance.now();
    fn();
    min = Math.min(min, performance.now() - start);
  }
  return min;
}

/** Median time of agent/loadSession, each on a fresh server (a loaded session stays in memory). */
async function timeLoads(root: string, id: string, rounds: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const h = await startAgentHarness({ root });
    try {
      const start = performance.now();
      await h.client.connection.sendRequest("agent/loadSession", { sessionId: id });
      times.push(performance.now() - start);
    } finally {
      await h.dispose();
    }
  }
  return median(times);
}

async function medianRetained(root: string, id: string): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < 3; i++) samples.push(await retainedBytes(root, id));
  return median(samples);
}

/** Heap a loaded session keeps: the heap after loading, less before, both after a full GC. */
async function retainedBytes(root: string, id: string): Promise<number> {
  const h = await startAgentHarness({ root });
  try {
    gc();
    const before = process.memoryUsage().heapUsed;
    await h.client.connection.sendRequest("agent/loadSession", { sessionId: id });
    // The replayed updates the test client collected are not the session's: drop them first.
    h.client.updates.length = 0;
    gc();
    gc();
    return Math.max(process.memoryUsage().heapUsed - before, 0);
  } finally {
    await h.dispose();
  }
}
