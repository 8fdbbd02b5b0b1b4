/**
 * Provider errors that say what to fix: a missing key fails at once (no request, no retries) and
 * names what to set; a refused key names where it came from (never the key); a server that is
 * not there names the base URL. Every API, through the agent and the real SDKs.
 */
import { createServer } from "node:net";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Runtime } from "../../server/src/agent/runtime.js";
import { createRuntime } from "../../server/src/agent/runtime.js";
import { mergeLayers } from "../../server/src/config/load.js";
import type { ConfigFile } from "../../server/src/config/schema.js";
import { fakeProviderOptions, startAgentHarness, tempProject, type FakeApi } from "../helpers/agent-setup.js";
import { FakeEditor } from "../helpers/fake-editor.js";
import { startFakeProvider, type FakeProvider } from "../helpers/fake-provider/index.js";

type KeyedApi = Exclude<FakeApi, "openai-compatible">;
const KEY_ENV: Record<KeyedApi, string> = { anthropic: "ANTHROPIC_API_KEY", openai: "OPENAI_API_KEY", gemini: "GEMINI_API_KEY" };
const MISSING: Record<KeyedApi, string> = {
  anthropic: "set ANTHROPIC_API_KEY or [providers.anthropic] api_key_env",
  openai: "set OPENAI_API_KEY or [providers.openai] api_key_env",
  gemini: "set GEMINI_API_KEY or GOOGLE_API_KEY, or [providers.gemini] api_key_env",
};
const PROVIDER: Record<FakeApi, string> = { anthropic: "anthropic", openai: "openai", gemini: "gemini", "openai-compatible": "ollama" };

let fake: FakeProvider;
let runtime: Runtime | undefined;
let editor: FakeEditor;

beforeEach(async () => {
  fake = await startFakeProvider();
  editor = new FakeEditor();
  // No key from the machine running the tests may leak in.
  for (const name of ["ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "OPENAI_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY"]) vi.stubEnv(name, "");
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await runtime?.dispose();
  runtime = undefined;
  await fake.close();
});

/** The harness's settings for `api` without the key (and with `baseUrl` when given). */
function optionsWithoutKey(api: FakeApi, baseUrl?: string): ConfigFile {
  const options = fakeProviderOptions(fake, {}, api) as ConfigFile;
  const table = options.providers![PROVIDER[api]]!;
  delete table.api_key;
  if (baseUrl) table.base_url = api === "gemini" || api === "anthropic" ? baseUrl : `${baseUrl}/v1`;
  return options;
}

/** Runs one prompt on a runtime built from `options`; returns the result and the updates. */
async function promptOnce(options: ConfigFile) {
  const config = mergeLayers([options]);
  runtime = createRuntime({ editor, root: tempProject(), config: () => config });
  editor.follow(runtime.events);
  const { sessionId } = runtime.agent.newSession({});
  const result = await runtime.agent.prompt({ sessionId, prompt: "hi" });
  const of = (kind: string) => editor.updates.map((u) => u.update).filter((u) => u.kind === kind) as any[];
  return { result, errors: of("error").map((u) => u.message as string), statuses: of("status").map((u) => u.text as string) };
}

/** A local port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe.each<KeyedApi>(["anthropic", "openai", "gemini"])("%s", (api) => {
  it("without a key fails at once, names what to set, and sends no request", async () => {
    const { result, errors, statuses } = await promptOnce(optionsWithoutKey(api));
    expect(result.stopReason).toBe("error");
    expect(errors[0]).toContain(MISSING[api]);
    // At once: not a single retry, not a single request.
    expect(statuses).toEqual([]);
    expect(fake.requests).toHaveLength(0);
  });

  it("names the environment variable the refused key came from, and not the key", async () => {
    vi.stubEnv(KEY_ENV[api], "sk-wrong-key-from-env-0001");
    fake.enqueue({ error: { status: 401, message: "invalid api key" } });
    const { errors } = await promptOnce(optionsWithoutKey(api));
    expect(errors[0]).toContain(`the key came from the environment variable ${KEY_ENV[api]}`);
    expect(errors[0]).not.toContain("sk-wrong-key-from-env-0001");
    expect(fake.requests).toHaveLength(1);
  });
});

describe.each<FakeApi>(["anthropic", "openai", "openai-compatible", "gemini"])("%s", (api) => {
  it("names the base URL when nothing listens there, without retrying", async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    vi.stubEnv(KEY_ENV[api as KeyedApi] ?? "UNUSED_KEY_VARIABLE", "sk-some-key-0002");
    const { result, errors, statuses } = await promptOnce(optionsWithoutKey(api, url));
    expect(result.stopReason).toBe("error");
    expect(errors[0]).toContain(url);
    expect(errors[0]).toMatch(/ECONNREFUSED/);
    expect(statuses).toEqual([]);
  });
});

describe("keys", () => {
  it("an OpenAI-compatible local server needs none", async () => {
    fake.enqueue({ text: "Local answer." });
    const { result } = await promptOnce(optionsWithoutKey("openai-compatible"));
    expect(result.stopReason).toBe("end_turn");
    expect(fake.requests).toHaveLength(1);
  });

  it("a refused key from initializationOptions is named as such", async () => {
    const h = await startAgentHarness();
    try {
      h.fake.enqueue({ error: { status: 401, message: "invalid x-api-key" } });
      await h.prompt(await h.newSession(), "hi");
      const message = h.client.updatesOf("error")[0].message as string;
      expect(message).toContain("the key came from api_key in initializationOptions");
      expect(message).not.toContain("sk-ant-test-key-0000");
    } finally {
      await h.dispose();
    }
  });
});
