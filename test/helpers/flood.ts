/**
 * A flood of prompts on one busy session, through either front end, for the fair-scheduling test
 * and bench (bench/flood.ts): a server with two sessions, one running a turn that hangs until
 * cancelled, and bursts of prompts to it written in one write (each refused), through the linear
 * client of wire-client.ts.
 */
import { rmSync } from "node:fs";
import { userConfigHome } from "./acp-client.js";
import { fakeProviderOptions, tempProject } from "./agent-setup.js";
import type { FakeTurn } from "./fake-provider/types.js";
import { spawnWire, type WireClient, type WireMessage } from "./wire-client.js";

/** What the flood needs of a fake provider (in this process or a worker). */
export interface FloodFake {
  url: string;
  enqueue(...turns: FakeTurn[]): unknown;
}

/** One front end's way to start and its methods' names and params. */
export interface FloodFront {
  name: "lsp" | "acp";
  start(root: string, fake: FloodFake): Promise<WireClient>;
  newSession(c: WireClient, root: string): Promise<string>;
  prompt(sessionId: string, text: string): [string, unknown];
  list(root: string): [string, unknown];
  setMode(sessionId: string, mode: string): [string, unknown];
  cancel(sessionId: string): [string, unknown];
}

const options = (fake: FloodFake) => fakeProviderOptions(fake as Parameters<typeof fakeProviderOptions>[0], { safety: "full_access" });

/** The LSP front end (`agent-lsp --stdio`). */
export const LSP_FRONT: FloodFront = {
  name: "lsp",
  async start(root, fake) {
    const c = spawnWire(root, ["--stdio"], "lsp", (m) => (m.method === "workspace/applyEdit" ? { applied: true } : null));
    await answered(c.request("initialize", { processId: process.pid, rootUri: new URL(`file://${root}`).href, capabilities: {}, initializationOptions: options(fake) }));
    c.notify("initialized", {});
    return c;
  },
  newSession: async (c) => (await answered(c.request("agent/newSession", {}))).result.sessionId,
  prompt: (sessionId, prompt) => ["agent/prompt", { sessionId, prompt }],
  list: () => ["agent/listSessions", {}],
  setMode: (sessionId, mode) => ["agent/setMode", { sessionId, mode }],
  cancel: (sessionId) => ["agent/cancel", { sessionId }],
};

/** The ACP front end (`agent-lsp --acp`), its user config in a home of its own. */
export const ACP_FRONT: FloodFront = {
  name: "acp",
  async start(root, fake) {
    const home = userConfigHome(options(fake));
    const c = spawnWire(root, ["--acp"], "ndjson", () => ({ outcome: { outcome: "selected", optionId: "allow" } }), { XDG_CONFIG_HOME: home, XDG_STATE_HOME: home });
    await answered(c.request("initialize", { protocolVersion: 1, clientCapabilities: {} }));
    return c;
  },
  newSession: async (c, root) => (await answered(c.request("session/new", { cwd: root, mcpServers: [] }))).result.sessionId,
  prompt: (sessionId, text) => ["session/prompt", { sessionId, prompt: [{ type: "text", text }] }],
  list: (root) => ["session/list", { cwd: root }],
  setMode: (sessionId, modeId) => ["session/set_mode", { sessionId, modeId }],
  cancel: (sessionId) => ["session/cancel", { sessionId }],
};

/** The answer, or a throw naming the error the server gave. */
export async function answered(answer: Promise<WireMessage>): Promise<WireMessage> {
  const m = await answer;
  if (m.error) throw new Error(`the server refused a request: ${m.error.message}`);
  return m;
}

/** A server with a busy session and an idle one. */
export interface Flooded {
  c: WireClient;
  root: string;
  busy: string;
  other: string;
  /** The busy turn's answer (it ends when cancelled). */
  turn: Promise<WireMessage>;
  /**
   * Writes `count` prompts to the busy session in one write; `taken` gets the milliseconds until
   * the server's pipe took them all. Resolves with their answers.
   */
  burst(count: number, taken?: (ms: number) => void): Promise<WireMessage[]>;
  /** How many of the bursts' prompts have been answered so far. */
  answers(): number;
  dispose(): void;
}

/** Starts `front` with a busy session (a turn that hangs until cancelled) and an idle one. */
export async function startFlooded(front: FloodFront, fake: FloodFake): Promise<Flooded> {
  const root = tempProject("agent-lsp-flood-");
  const c = await front.start(root, fake);
  const busy = await front.newSession(c, root);
  const other = await front.newSession(c, root);
  await fake.enqueue({ hang: true });
  const turn = c.request(...front.prompt(busy, "run until cancelled"));
  // The turn runs once a second prompt is refused.
  while (!(await c.request(...front.prompt(busy, "again"))).error) await new Promise((r) => setTimeout(r, 10));
  let count = 0;
  return {
    c,
    root,
    busy,
    other,
    turn,
    burst(n, taken) {
      const prompts = Array.from({ length: n }, (_, i) => c.prepare(...front.prompt(busy, `flood ${i}`)));
      const t0 = performance.now();
      c.write(Buffer.concat(prompts.map((p) => p.frame)), () => taken?.(performance.now() - t0));
      return Promise.all(prompts.map((p) => p.answer.then((m) => (count++, m))));
    },
    answers: () => count,
    dispose() {
      c.kill();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
