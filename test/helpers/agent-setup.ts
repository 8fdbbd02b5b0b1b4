/**
 * The usual integration set-up: a temp project, the fake provider, and an in-process server
 * configured to call the fake as Anthropic.
 */
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ClientCapabilities } from "vscode-languageserver/node.js";
import { startFakeProvider, type FakeProvider } from "./fake-provider/index.js";
import { startLspPair, type LspPair } from "./lsp-pair.js";

/** A project, a fake model and a connected server. */
export interface AgentHarness extends LspPair {
  root: string;
  fake: FakeProvider;
  /** Starts a session and returns its id. */
  newSession(params?: Record<string, unknown>): Promise<string>;
  /** Sends agent/prompt and waits for the answer. */
  prompt(sessionId: string, prompt: unknown, extra?: Record<string, unknown>): Promise<any>;
  dispose(): Promise<void>;
}

/** initializationOptions pointing the anthropic provider at the fake. */
export function fakeProviderOptions(fake: FakeProvider, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    model: "anthropic/claude-sonnet-4-6",
    safety: "full_access",
    providers: { anthropic: { base_url: fake.url, api_key: "sk-ant-test-key-0000" } },
    retry: { max_retries: 3, initial_delay_ms: 5, max_delay_ms: 50 },
    ...extra,
  };
}

/** A new empty project folder (real path, so symlinked /tmp does not confuse root checks). */
export function tempProject(prefix = "agent-lsp-test-"): string {
  return realpathSync(mkdtempSync(path.join(os.tmpdir(), prefix)));
}

/** Starts everything. */
export async function startAgentHarness(options: { root?: string; options?: Record<string, unknown>; capabilities?: ClientCapabilities } = {}): Promise<AgentHarness> {
  const root = options.root ?? tempProject();
  const fake = await startFakeProvider();
  const pair = await startLspPair({
    root,
    initializationOptions: fakeProviderOptions(fake, options.options),
    ...(options.capabilities ? { capabilities: options.capabilities } : {}),
  });
  const conn = pair.client.connection;
  return {
    ...pair,
    root,
    fake,
    async newSession(params = {}) {
      const res = (await conn.sendRequest("agent/newSession", params)) as { sessionId: string };
      return res.sessionId;
    },
    prompt(sessionId, prompt, extra = {}) {
      return conn.sendRequest("agent/prompt", { sessionId, prompt, ...extra });
    },
    async dispose() {
      await pair.close();
      await fake.close();
      if (!options.root) rmSync(root, { recursive: true, force: true });
    },
  };
}
