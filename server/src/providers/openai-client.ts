/**
 * What both OpenAI adapters (Responses and Chat Completions) share: the `openai` SDK client,
 * tool-argument parsing and usage accounting. The SDK is imported on the first model call (never
 * at start-up) and the import is shared; retries are off because the agent loop retries with its
 * own backoff and tells the user it does.
 */
import type OpenAI from "openai";
import { memoizeAsync } from "../util/memo.js";
import { idleLimitedFetch } from "./idle-fetch.js";
import { pacedBodies } from "./paced-body.js";
import { wholeLinesFetch } from "./whole-lines-fetch.js";
import type { Usage } from "../vocabulary/messages.js";
import type { ProviderSettings } from "./provider.js";

const loadSdk = memoizeAsync(() => import("openai"));

/**
 * One adapter's client getter: built on the first call and reused; a failed build (the SDK could
 * not load) is retried on the next call.
 */
export function lazyOpenAIClient(settings: ProviderSettings, apiKey: string | undefined): () => Promise<OpenAI> {
  return memoizeAsync(() => createOpenAIClient(settings, apiKey));
}

/**
 * A client for one request whose event streams and body go through `wrap` (over the paced,
 * idle-limited fetch) instead of the shared whole-lines reader: the Responses adapter hides a
 * call's megabyte strings from the SDK per request (large-events.ts). Building one costs no more
 * than an object once the SDK is loaded.
 */
export async function openAIClientThrough(settings: ProviderSettings, apiKey: string | undefined, wrap: (inner: typeof fetch) => typeof fetch): Promise<OpenAI> {
  return createOpenAIClient(settings, apiKey, wrap);
}

/**
 * Builds a client from provider settings. `options` may hold `headers` (extra HTTP headers),
 * `organization`, `project` and `timeout_ms` from the provider's config table.
 */
async function createOpenAIClient(settings: ProviderSettings, apiKey: string | undefined, wrap: (inner: typeof fetch) => typeof fetch = wholeLinesFetch): Promise<OpenAI> {
  const { OpenAI: Client } = await loadSdk();
  const { headers, organization, project, timeout_ms } = settings.options;
  return new Client({
    apiKey,
    baseURL: settings.baseUrl,
    organization: typeof organization === "string" ? organization : undefined,
    project: typeof project === "string" ? project : undefined,
    defaultHeaders: isStringRecord(headers) ? headers : undefined,
    timeout: typeof timeout_ms === "number" ? timeout_ms : undefined,
    maxRetries: 0,
    fetch: wrap(pacedBodies(idleLimitedFetch(settings.streamIdleTimeoutMs))),
  });
}

function isStringRecord(v: unknown): v is Record<string, string> {
  return typeof v === "object" && v !== null && Object.values(v).every((x) => typeof x === "string");
}

/**
 * Both APIs count cached tokens inside the prompt total; ours are disjoint (as Anthropic reports
 * them), so cost is input x price + cached x cached price without double counting.
 */
export function disjointUsage(promptTokens: number, cachedTokens: number | undefined, outputTokens: number): Usage {
  const cached = cachedTokens ?? 0;
  return { inputTokens: Math.max(0, promptTokens - cached), outputTokens, cacheReadTokens: cached, cacheWriteTokens: 0 };
}

/**
 * Parses a call's JSON arguments. Malformed JSON stays the raw string: the tool's input check then
 * tells the model what it sent, and the history replays exactly that string.
 */
export function parseArguments(args: string): unknown {
  if (!args.trim()) return {};
  try {
    return JSON.parse(args);
  } catch {
    return args;
  }
}
