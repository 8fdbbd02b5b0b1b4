/** The models one may switch to, and the check of a selection: each bad value named in its message. */
import { describe, expect, it } from "vitest";
import { configSchema } from "../../../server/src/config/schema.js";
import { checkModelChoice, modelChoices } from "../../../server/src/providers/model-choices.js";

const config = configSchema().parse({
  providers: {
    anthropic: { api_key: "sk-ant-test" },
    corp: { type: "openai-compatible", base_url: "http://127.0.0.1:9/v1", model: "big", models: ["big", "small"] },
  },
});
const env = {};

describe("checkModelChoice", () => {
  it.each([
    ["anthropic/claude-opus-4-1", undefined],
    ["corp/small", undefined],
    ["corp", undefined],
    ["corp/huge", 'Unknown model "corp/huge": [providers.corp] models lists corp/big, corp/small.'],
    ["openai/gpt-5", '"openai/gpt-5" needs the provider openai, which cannot be called: No API key for openai'],
    ["mystery", 'Cannot tell which provider serves "mystery"'],
  ])("%s", (selection, error) => {
    if (error === undefined) expect(() => checkModelChoice(selection, config, env)).not.toThrow();
    else expect(() => checkModelChoice(selection, config, env)).toThrow(error);
  });
});

describe("modelChoices", () => {
  it("lists callable providers: a provider's own list alone where it has one, else the known ids of its type", () => {
    const choices = modelChoices(config, env);
    expect(choices.map((c) => c.provider)).toEqual(["anthropic", "corp"]);
    expect(choices[1]!.models).toEqual(["corp/big", "corp/small"]);
    expect(choices[0]!.models).toContain("anthropic/claude-opus-4-1");
    expect(choices[0]!.models.every((m) => m.startsWith("anthropic/claude"))).toBe(true);
  });
});
