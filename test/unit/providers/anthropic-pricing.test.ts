// The price table covers every provider; it lives with the Anthropic tests because that adapter
// is the first to report costs.
import { describe, expect, it } from "vitest";
import { estimateCost, priceOf } from "../../../server/src/providers/pricing.js";

const usage = (inputTokens: number, outputTokens: number, cacheReadTokens = 0, cacheWriteTokens = 0) => ({
  inputTokens,
  outputTokens,
  cacheReadTokens,
  cacheWriteTokens,
});

describe("priceOf", () => {
  const cases: Array<[string, number | undefined, number | undefined]> = [
    // [model, input $/MTok, output $/MTok]
    ["claude-sonnet-4-5", 3, 15],
    ["claude-sonnet-4-5-20250929", 3, 15],
    ["claude-opus-4-5-20251101", 5, 25],
    ["claude-opus-4-1-20250805", 15, 75],
    ["claude-opus-4-20250514", 15, 75],
    ["claude-haiku-4-5", 1, 5],
    ["claude-3-5-haiku-20241022", 0.8, 4],
    ["claude-3-haiku-20240307", 0.25, 1.25],
    ["anthropic/claude-sonnet-4-5", 3, 15],
    ["us.anthropic.claude-sonnet-4-5-20250929-v1:0", 3, 15],
    ["claude-sonnet-4-5@20250929", 3, 15],
    ["gpt-5", 1.25, 10],
    ["gpt-5-2025-08-07", 1.25, 10],
    ["gpt-5-mini", 0.25, 2],
    ["gpt-5-nano-2025-08-07", 0.05, 0.4],
    ["gpt-5.1-codex", 1.25, 10],
    ["gpt-4.1-mini", 0.4, 1.6],
    ["gpt-4o", 2.5, 10],
    ["gpt-4o-2024-08-06", 2.5, 10],
    ["gpt-4o-mini", 0.15, 0.6],
    ["o3", 2, 8],
    ["o4-mini", 1.1, 4.4],
    ["gemini-2.5-pro", 1.25, 10],
    ["models/gemini-2.5-flash", 0.3, 2.5],
    ["gemini-2.5-flash-lite", 0.1, 0.4],
    // Unknown models and unlisted newer versions get no price rather than a neighbour's.
    ["gpt-5.9", undefined, undefined],
    ["claude-opus-4-9", undefined, undefined],
    ["llama3.1:8b", undefined, undefined],
    ["o30", undefined, undefined],
  ];
  it.each(cases)("%s", (model, input, output) => {
    const price = priceOf(model);
    expect(price?.input).toBe(input);
    expect(price?.output).toBe(output);
  });

  it("prices Anthropic cache reads at a tenth and cache writes at 1.25 times input", () => {
    expect(priceOf("claude-sonnet-4-5")).toEqual({ input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 });
  });
});

describe("estimateCost", () => {
  it("adds input, output, cache reads and cache writes at their own prices", () => {
    // 1M input at $3 + 0.5M output at $15 + 2M cache read at $0.30 + 0.2M cache write at $3.75
    expect(estimateCost("claude-sonnet-4-5", usage(1_000_000, 500_000, 2_000_000, 200_000))).toBeCloseTo(
      3 + 7.5 + 0.6 + 0.75,
      10,
    );
  });

  it("prices OpenAI cached input at its discount", () => {
    expect(estimateCost("gpt-4.1", usage(1_000_000, 0, 1_000_000))).toBeCloseTo(2 + 0.5, 10);
  });

  it("is zero for no tokens and undefined for an unknown model", () => {
    expect(estimateCost("gemini-2.5-pro", usage(0, 0))).toBe(0);
    expect(estimateCost("my-local-model", usage(10, 10))).toBeUndefined();
  });
});
