/**
 * Model prices, in one table, for the cost estimates shown in `usage` updates. Prices are list
 * prices in US dollars per million tokens at standard (not batch, not priority) rates; long-context
 * surcharges (over 200k input tokens on some models) are not modelled, so estimates there are low.
 * A model missing from the table gets no estimate rather than a wrong one.
 */
import type { Usage } from "../vocabulary/messages.js";

/** USD per million tokens. */
export interface ModelPrice {
  input: number;
  output: number;
  /** Input read from the prompt cache. */
  cacheRead: number;
  /** Input written to the prompt cache (Anthropic's 5-minute cache; others charge plain input). */
  cacheWrite: number;
}

const anthropic = (input: number, output: number): ModelPrice => ({
  input,
  output,
  // Anthropic: cache reads cost a tenth of input, 5-minute cache writes 1.25 times input.
  cacheRead: round(input * 0.1),
  cacheWrite: round(input * 1.25),
});

/** OpenAI and Gemini: cached input is discounted, writing the cache costs plain input. */
const cached = (input: number, output: number, cacheRead: number): ModelPrice => ({ input, output, cacheRead, cacheWrite: input });

/**
 * Model id prefix -> price. The longest prefix that matches wins; a prefix matches the whole id
 * or an id continuing with `-`, `:` or `@` (dated snapshots, Bedrock/Vertex suffixes), so
 * `gpt-5` prices `gpt-5-2025-08-07` but never `gpt-5.4`, and an unlisted newer model stays unknown.
 */
const PRICES: Readonly<Record<string, ModelPrice>> = Object.freeze({
  // Anthropic
  "claude-opus-4-5": anthropic(5, 25),
  "claude-opus-4-1": anthropic(15, 75),
  "claude-opus-4-0": anthropic(15, 75),
  "claude-opus-4-20250514": anthropic(15, 75),
  "claude-sonnet-4-6": anthropic(3, 15),
  "claude-sonnet-4-5": anthropic(3, 15),
  "claude-sonnet-4-0": anthropic(3, 15),
  "claude-sonnet-4-20250514": anthropic(3, 15),
  "claude-haiku-4-5": anthropic(1, 5),
  "claude-3-7-sonnet": anthropic(3, 15),
  "claude-3-5-sonnet": anthropic(3, 15),
  "claude-3-5-haiku": anthropic(0.8, 4),
  "claude-3-opus": anthropic(15, 75),
  "claude-3-haiku": { input: 0.25, output: 1.25, cacheRead: 0.03, cacheWrite: 0.3 },
  // OpenAI
  "gpt-5": cached(1.25, 10, 0.125),
  "gpt-5-codex": cached(1.25, 10, 0.125),
  "gpt-5-mini": cached(0.25, 2, 0.025),
  "gpt-5-nano": cached(0.05, 0.4, 0.005),
  "gpt-5-pro": { input: 15, output: 120, cacheRead: 15, cacheWrite: 15 },
  "gpt-5.1": cached(1.25, 10, 0.125),
  "gpt-5.1-codex-mini": cached(0.25, 2, 0.025),
  "gpt-4.1": cached(2, 8, 0.5),
  "gpt-4.1-mini": cached(0.4, 1.6, 0.1),
  "gpt-4.1-nano": cached(0.1, 0.4, 0.025),
  "gpt-4o": cached(2.5, 10, 1.25),
  "gpt-4o-2024-05-13": { input: 5, output: 15, cacheRead: 5, cacheWrite: 5 },
  "gpt-4o-mini": cached(0.15, 0.6, 0.075),
  o3: cached(2, 8, 0.5),
  "o3-mini": cached(1.1, 4.4, 0.55),
  "o3-pro": { input: 20, output: 80, cacheRead: 20, cacheWrite: 20 },
  "o3-deep-research": cached(10, 40, 2.5),
  "o4-mini": cached(1.1, 4.4, 0.275),
  "o4-mini-deep-research": cached(2, 8, 0.5),
  // Gemini (prompts up to 200k tokens)
  "gemini-2.5-pro": cached(1.25, 10, 0.125),
  "gemini-2.5-flash": cached(0.3, 2.5, 0.03),
  "gemini-2.5-flash-lite": cached(0.1, 0.4, 0.01),
  "gemini-3-pro-preview": cached(2, 12, 0.2),
});

/** The price of `model` (without our `provider/` prefix, or with it), if the table knows it. */
export function priceOf(model: string): ModelPrice | undefined {
  return lookupModel(PRICES, model);
}

/**
 * The entry of a model table (model id prefix -> value) for `model`: the longest prefix that
 * matches the whole id or an id continuing with `-`, `:` or `@` (see PRICES).
 */
export function lookupModel<T>(table: Readonly<Record<string, T>>, model: string): T | undefined {
  const id = bareModelId(model);
  let best: string | undefined;
  for (const prefix of Object.keys(table)) {
    if (!matchesPrefix(id, prefix)) continue;
    if (best === undefined || prefix.length > best.length) best = prefix;
  }
  return best === undefined ? undefined : table[best];
}

/**
 * The estimated cost in US dollars of one model call, or `undefined` when the model's price is
 * unknown. `usage.inputTokens` counts uncached input only, as Anthropic reports it; adapters for
 * APIs whose input count includes cached tokens (OpenAI, Gemini) subtract the cache reads first.
 */
export function estimateCost(model: string, usage: Usage): number | undefined {
  const price = priceOf(model);
  if (!price) return undefined;
  const micro =
    usage.inputTokens * price.input +
    usage.outputTokens * price.output +
    usage.cacheReadTokens * price.cacheRead +
    usage.cacheWriteTokens * price.cacheWrite;
  return micro / 1_000_000;
}

function matchesPrefix(id: string, prefix: string): boolean {
  if (!id.startsWith(prefix)) return false;
  const next = id.charAt(prefix.length);
  return next === "" || next === "-" || next === ":" || next === "@";
}

/** Drops `anthropic/`, `models/` and Bedrock's `us.anthropic.` prefixes, and lower-cases. */
function bareModelId(model: string): string {
  const lower = model.trim().toLowerCase();
  return lower.slice(lower.lastIndexOf("/") + 1).replace(/^(?:[a-z]{2,4}\.)?anthropic\./, "");
}

function round(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

/** Every model id the price table lists (a source of model names to offer for completion). */
export function pricedModels(): string[] {
  return Object.keys(PRICES);
}
