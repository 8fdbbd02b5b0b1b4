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

/** Which API the fake plays for a harness, and the model selected for it. */
export type FakeApi = "anthropic" | "openai" | "openai-compatible" | "gemini";

const FAKE_MODELS: Record<FakeApi, string> = {
  anthropic: "anthropic/claude-sonnet-4-6",
  openai: "openai/gpt-5",
  "openai-compatible": "ollama/qwen2.5-coder:7b",
  gemini: "gemini/gemini-2.5-flash",
};

/** initializationOptions pointing a provider (Anthropic by default) at the fake. */
export function fakeProviderOptions(fake: FakeProvider, extra: Record<string, unknown> = {}, api: FakeApi = "anthropic"): Record<string, unknown> {
  const providers: Record<FakeApi, Record<string, unknown>> = {
    anthropic: { anthropic: { base_url: fake.url, api_key: "sk-ant-test-key-0000" } },
    openai: { openai: { base_url: `${fake.url}/v1`, api_key: "sk-test-openai-000000000000" } },
    "openai-compatible": { ollama: { base_url: `${fake.url}/v1` } },
    gemini: { gemini: { base_url: fake.url, api_key: "AIza-test-gemini-key" } },
  };
  return {
    model: FAKE_MODELS[api],
    safety: "full_access",
    retry: { max_retries: 3, initial_delay_ms: 5, max_delay_ms: 50 },
    ...extra,
    // Extra provider tables (an image model's) come beside the fake's, not in place of it.
    providers: { ...providers[api], ...(extra.providers as Record<string, unknown> | undefined) },
  };
}

/** A new empty project folder (real path, so symlinked /tmp does not confuse root checks). */
export function tempProject(prefix = "agent-lsp-test-"): string {
  return realpathSync(mkdtempSync(path.join(os.tmpdir(), prefix)));
}

/**
 * The test client declares no agent protocol, so the chat file is on for it; its approvals and
 * questions go to window/showMessageRequest (`[editor] approvals = "message"`) unless a test says
 * otherwise, as most tests script the answer there.
 */
function messageApprovals(options: Record<string, unknown> = {}): Record<string, unknown> {
  const editor = (options.editor ?? {}) as Record<string, unknown>;
  return { ...options, editor: { approvals: "message", ...editor } };
}

/** Starts everything. */
export async function startAgentHarness(
  options: {
    root?: string;
    options?: Record<string, unknown>;
    capabilities?: ClientCapabilities;
    clientInfo?: { name: string; version?: string };
    api?: FakeApi;
    createProvider?: Parameters<typeof startLspPair>[0]["createProvider"];
  } = {},
): Promise<AgentHarness> {
  const root = options.root ?? tempProject();
  const fake = await startFakeProvider();
  const pair = await startLspPair({
    root,
    initializationOptions: fakeProviderOptions(fake, messageApprovals(options.options), options.api),
    ...(options.capabilities ? { capabilities: options.capabilities } : {}),
    ...(options.clientInfo ? { clientInfo: options.clientInfo } : {}),
    ...(options.createProvider ? { createProvider: options.createProvider } : {}),
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
