/**
 * Recovery without a restart: a key set after the server started is taken up. An editor hands
 * over its provider variables with agent/reloadConfig (a running server never sees its editor's
 * environment change), and a key written into a config file is read when the file changes.
 * Both answer how the server will now call each provider, so a health report can show that.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempProject } from "../helpers/agent-setup.js";
import { startFakeProvider, type FakeProvider } from "../helpers/fake-provider/index.js";
import { startLspPair, type LspPair } from "../helpers/lsp-pair.js";

const KEY_VAR = "AGENT_LSP_RELOAD_TEST_KEY";
let pair: LspPair | undefined;
let fake: FakeProvider | undefined;
let root: string | undefined;
afterEach(async () => {
  delete process.env[KEY_VAR];
  await pair?.close();
  await fake?.close();
  if (root) rmSync(root, { recursive: true, force: true });
  pair = fake = root = undefined;
});

/** A server whose anthropic provider (the fake) reads its key from KEY_VAR, which is not set. */
async function keyless(): Promise<{ pair: LspPair; fake: FakeProvider; session: string; root: string }> {
  delete process.env[KEY_VAR];
  fake = await startFakeProvider();
  root = tempProject();
  const initializationOptions = { model: "anthropic/claude-sonnet-4-5", safety: "full_access", retry: { max_retries: 0 }, providers: { anthropic: { base_url: fake.url, api_key_env: KEY_VAR } } };
  pair = await startLspPair({ root, initializationOptions });
  const { sessionId } = (await pair.client.connection.sendRequest("agent/newSession", {})) as { sessionId: string };
  return { pair, fake, session: sessionId, root };
}

type Report = { providers: { provider: string; ok: boolean; detail: string }[]; env: string[]; ignored?: string[] };
type PromptResult = { stopReason: string; error?: string };

describe("taking up a key without a restart", () => {
  it("agent/reloadConfig takes a key set in the editor after the server started, and says so", async () => {
    const { pair, fake, session } = await keyless();
    const send = (method: string, params: object) => pair.client.connection.sendRequest(method, params);
    const before = (await send("agent/prompt", { sessionId: session, prompt: "hello" })) as PromptResult;
    expect(before.stopReason).toBe("error");
    expect(before.error).toContain(`No API key for anthropic: ${KEY_VAR}`);
    const report = (await send("agent/reloadConfig", { env: { [KEY_VAR]: "sk-ant-set-later-0000", PATH: "/nowhere" } })) as Report;
    expect(report.providers.find((p) => p.provider === "anthropic")).toEqual({ provider: "anthropic", ok: true, detail: expect.stringContaining(`the environment variable ${KEY_VAR}`) });
    expect(report.env).toContain(KEY_VAR);
    expect(report.ignored).toEqual(["PATH"]);
    expect(process.env.PATH).not.toBe("/nowhere");
    fake.enqueue({ text: "Now it works." });
    expect(((await send("agent/prompt", { sessionId: session, prompt: "hello again" })) as PromptResult).stopReason).toBe("end_turn");
    const unset = (await send("agent/reloadConfig", { env: { [KEY_VAR]: null } })) as Report;
    expect(unset.providers.find((p) => p.provider === "anthropic")!.ok).toBe(false);
    await expect(send("agent/reloadConfig", { env: { [KEY_VAR]: 5 } })).rejects.toMatchObject({ code: -32602 });
  });

  it("a key written into the project's config.toml is read once the file changed, without a reload", async () => {
    const { pair, fake, session, root } = await keyless();
    const send = (method: string, params: object) => pair.client.connection.sendRequest(method, params);
    expect(((await send("agent/prompt", { sessionId: session, prompt: "hello" })) as PromptResult).error).toContain("No API key");
    mkdirSync(path.join(root, ".agent-lsp"), { recursive: true });
    writeFileSync(path.join(root, ".agent-lsp/config.toml"), '[providers.anthropic]\napi_key = "sk-ant-from-the-file-0000"\n');
    fake.enqueue({ text: "Read the file." });
    // The files are looked at most once a second: a prompt a moment later sees the key.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const after = (await send("agent/prompt", { sessionId: session, prompt: "hello again" })) as PromptResult;
    expect(after.stopReason).toBe("end_turn");
    expect(fake.requests.at(-1)!.headers.authorization).toBe("Bearer sk-ant-from-the-file-0000");
  });
});
