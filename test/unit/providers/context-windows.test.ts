/** Context windows come from the model table, matched like prices; unknown models get the fallback. */
import { describe, expect, it } from "vitest";
import { contextWindowOf } from "../../../server/src/providers/context-windows.js";

describe("contextWindowOf", () => {
  it.each([
    ["anthropic/claude-sonnet-4-6", 200_000],
    ["claude-opus-4-5-20251101", 200_000],
    ["openai/gpt-5", 400_000],
    ["gpt-4.1-mini-2025-04-14", 1_047_576],
    ["gemini/gemini-2.5-pro", 1_048_576],
    ["ollama/qwen2.5-coder:7b", 32_000],
    ["gpt-5.9", 32_000],
  ])("%s -> %i", (model, window) => {
    expect(contextWindowOf(model, 32_000)).toBe(window);
  });
});
