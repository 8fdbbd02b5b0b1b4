/** Which key a provider uses, where it came from, and what to set when there is none. */
import { describe, expect, it } from "vitest";
import { mergeLayers } from "../../../server/src/config/load.js";
import type { ConfigFile } from "../../../server/src/config/schema.js";
import { credentialStatus, providerSettings } from "../../../server/src/providers/registry.js";

const config = (file: ConfigFile, keySources?: Record<string, string>) => ({ ...mergeLayers([file]), ...(keySources ? { keySources } : {}) });

describe("providerSettings: the key and its source", () => {
  it("names the environment variable a built-in provider's key came from, and the second one Gemini reads", () => {
    expect(providerSettings("anthropic", config({}), { ANTHROPIC_API_KEY: "k" })).toMatchObject({ apiKey: "k", keySource: "the environment variable ANTHROPIC_API_KEY" });
    expect(providerSettings("gemini", config({}), { GOOGLE_API_KEY: "g" })).toMatchObject({ apiKey: "g", keySource: "the environment variable GOOGLE_API_KEY" });
  });

  it("names the config layer that wrote api_key, which wins over the environment", () => {
    const c = config({ providers: { openai: { api_key: "sk-file" } } }, { openai: "/home/me/.config/agent-lsp/config.toml" });
    const s = providerSettings("openai", c, { OPENAI_API_KEY: "sk-env" });
    expect(s).toMatchObject({ apiKey: "sk-file", keySource: "api_key in /home/me/.config/agent-lsp/config.toml" });
    expect(JSON.stringify({ keySource: s.keySource, missingKey: s.missingKey })).not.toContain("sk-");
  });

  it("says which variable to set, naming a table's own api_key_env when it has one", () => {
    expect(providerSettings("openai", config({}), {}).missingKey).toBe("No API key for openai: set OPENAI_API_KEY or [providers.openai] api_key_env.");
    const custom = config({ providers: { work: { type: "anthropic", api_key_env: "WORK_CLAUDE_KEY" } } });
    expect(providerSettings("work", custom, {}).missingKey).toBe("No API key for work: WORK_CLAUDE_KEY (named by [providers.work] api_key_env) is not set.");
  });

  it("needs no key for OpenAI-compatible servers, nor when headers carry the credential", () => {
    expect(providerSettings("ollama", config({}), {}).missingKey).toBeUndefined();
    const gateway = config({ providers: { anthropic: { headers: { Authorization: "Bearer gw" } } } });
    expect(providerSettings("anthropic", gateway, {}).missingKey).toBeUndefined();
    expect(credentialStatus("anthropic", gateway, {})).toMatchObject({ ok: true, detail: "credentials in headers" });
  });

  it("carries the idle limit in milliseconds", () => {
    expect(providerSettings("ollama", config({ retry: { stream_idle_timeout_s: 0.25 } }), {}).streamIdleTimeoutMs).toBe(250);
  });
});

describe("credentialStatus", () => {
  it("reports a missing key with what to set, and a present one with where it came from", () => {
    expect(credentialStatus("gemini", config({}), {})).toEqual({ ok: false, detail: "No API key for gemini: set GEMINI_API_KEY or GOOGLE_API_KEY, or [providers.gemini] api_key_env." });
    expect(credentialStatus("anthropic", config({}), { ANTHROPIC_API_KEY: "k" })).toEqual({ ok: true, detail: "key set (the environment variable ANTHROPIC_API_KEY)" });
  });
});
