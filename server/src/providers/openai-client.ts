/**
 * The `openai` SDK client both OpenAI adapters use. The SDK is imported on the first model call
 * (never at start-up) and the import is shared; retries are off because the agent loop retries
 * with its own backoff and tells the user it does.
 */
import type OpenAI from "openai";
import type { ProviderSettings } from "./provider.js";

let sdk: Promise<typeof import("openai")> | undefined;

/** Imports the SDK once; a failed import is not cached, so the next call tries again. */
function loadSdk(): Promise<typeof import("openai")> {
  sdk ??= import("openai").catch((error: unknown) => {
    sdk = undefined;
    throw error;
  });
  return sdk;
}

/**
 * Builds a client from provider settings. `options` may hold `headers` (extra HTTP headers),
 * `organization`, `project` and `timeout_ms` from the provider's config table.
 */
export async function createOpenAIClient(settings: ProviderSettings, apiKey: string | undefined): Promise<OpenAI> {
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
  });
}

function isStringRecord(v: unknown): v is Record<string, string> {
  return typeof v === "object" && v !== null && Object.values(v).every((x) => typeof x === "string");
}
