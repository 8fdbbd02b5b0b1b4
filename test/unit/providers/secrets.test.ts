/**
 * Provider keys never reach a log: keys written in config and keys held in the environment
 * (including a custom provider's api_key_env, which no well-known key pattern matches).
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG, type Config } from "../../../server/src/config/schema.js";
import { redactProviderKeys } from "../../../server/src/providers/registry.js";
import { redact } from "../../../server/src/util/log.js";

describe("redactProviderKeys", () => {
  const config: Config = {
    ...DEFAULT_CONFIG,
    providers: {
      local: { type: "openai-compatible", base_url: "http://127.0.0.1:8000/v1", api_key_env: "LOCAL_LLM_TOKEN" },
      written: { type: "openai-compatible", base_url: "http://127.0.0.1:8001/v1", api_key: "plainconfigtoken42" },
    },
  };

  it("redacts keys from config and from the key variables of the environment", () => {
    const custom = "zq7-custom-token-from-env";
    const builtin = "gm-builtin-token-from-env";
    expect(redact(`got ${custom}`)).toContain(custom); // no pattern knows this format
    redactProviderKeys(config, { LOCAL_LLM_TOKEN: custom, GEMINI_API_KEY: builtin, HOME: "/home/someone" });
    const line = redact(`401 for ${custom}, ${builtin} and plainconfigtoken42 in /home/someone`);
    expect(line).not.toContain(custom);
    expect(line).not.toContain(builtin);
    expect(line).not.toContain("plainconfigtoken42");
    // Only key variables are secrets: other environment values stay readable.
    expect(line).toContain("/home/someone");
  });
});
