/**
 * Context windows, in tokens, beside the price table and matched the same way (pricing.ts
 * `lookupModel`). A model missing here gets `[compaction] default_context_window`.
 */
import { lookupModel } from "./pricing.js";

const WINDOWS: Readonly<Record<string, number>> = Object.freeze({
  // Anthropic (the standard window; the 1M-token beta is opt-in and not assumed)
  "claude-opus-4-5": 200_000,
  "claude-opus-4-1": 200_000,
  "claude-opus-4-0": 200_000,
  "claude-opus-4-20250514": 200_000,
  "claude-sonnet-4-6": 200_000,
  "claude-sonnet-4-5": 200_000,
  "claude-sonnet-4-0": 200_000,
  "claude-sonnet-4-20250514": 200_000,
  "claude-haiku-4-5": 200_000,
  "claude-3-7-sonnet": 200_000,
  "claude-3-5-sonnet": 200_000,
  "claude-3-5-haiku": 200_000,
  "claude-3-opus": 200_000,
  "claude-3-haiku": 200_000,
  // OpenAI
  "gpt-5": 400_000,
  "gpt-5-codex": 400_000,
  "gpt-5-mini": 400_000,
  "gpt-5-nano": 400_000,
  "gpt-5-pro": 400_000,
  "gpt-5.1": 400_000,
  "gpt-5.1-codex-mini": 400_000,
  "gpt-4.1": 1_047_576,
  "gpt-4.1-mini": 1_047_576,
  "gpt-4.1-nano": 1_047_576,
  "gpt-4o": 128_000,
  "gpt-4o-mini": 128_000,
  o3: 200_000,
  "o3-mini": 200_000,
  "o3-pro": 200_000,
  "o4-mini": 200_000,
  // Gemini
  "gemini-2.5-pro": 1_048_576,
  "gemini-2.5-flash": 1_048_576,
  "gemini-2.5-flash-lite": 1_048_576,
  "gemini-3-pro-preview": 1_048_576,
});

/** The context window of `model` (with or without our `provider/` prefix), or `fallback` when unknown. */
export function contextWindowOf(model: string, fallback: number): number {
  return lookupModel(WINDOWS, model) ?? fallback;
}
