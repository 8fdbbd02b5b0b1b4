/**
 * Turns a model selection (`NAME/model-id`) into a Provider. Adapter modules (and with them the
 * SDKs) are imported on first use, so start-up never pays for them.
 */
import type { Config, ProviderConfig } from "../config/schema.js";
import { addSecrets } from "../util/log.js";
import type { Provider, ProviderSettings, ProviderType } from "./provider.js";

/** Built-in provider names and what they mean without a config table. */
const BUILTIN_PROVIDERS: Record<string, { type: ProviderType; keyEnv: string[]; baseUrlEnv?: string; baseUrl?: string }> = {
  anthropic: { type: "anthropic", keyEnv: ["ANTHROPIC_API_KEY"], baseUrlEnv: "ANTHROPIC_BASE_URL" },
  openai: { type: "openai", keyEnv: ["OPENAI_API_KEY"], baseUrlEnv: "OPENAI_BASE_URL" },
  gemini: { type: "gemini", keyEnv: ["GEMINI_API_KEY", "GOOGLE_API_KEY"], baseUrlEnv: "GEMINI_BASE_URL" },
  ollama: { type: "openai-compatible", keyEnv: [], baseUrl: "http://127.0.0.1:11434/v1" },
};

/** A model selection split into its provider and the provider's model id. */
export interface ModelRef {
  provider: string;
  model: string;
}

/** Environment variables that hold provider keys (kept out of commands and logs). */
export function providerKeyEnvNames(config: Config): string[] {
  const names = new Set<string>();
  for (const b of Object.values(BUILTIN_PROVIDERS)) for (const n of b.keyEnv) names.add(n);
  for (const p of Object.values(config.providers)) if (p.api_key_env) names.add(p.api_key_env);
  return [...names];
}

/**
 * Every environment variable the providers read: their keys (built-in names and each table's
 * api_key_env) and the base URLs of the built-in types. An editor that passes its environment on
 * to a running server (`agent/reloadConfig`) passes these.
 */
export function providerEnvNames(config: Config): string[] {
  const names = new Set(providerKeyEnvNames(config));
  for (const b of Object.values(BUILTIN_PROVIDERS)) if (b.baseUrlEnv) names.add(b.baseUrlEnv);
  return [...names].sort();
}

/**
 * Marks every provider key, written in config or held in a key variable of the environment, as a
 * secret the logs redact. Keys in the environment matter as much as keys in config: a custom
 * provider's key (api_key_env) has no well-known format for the log's patterns to catch.
 */
export function redactProviderKeys(config: Config, env: NodeJS.ProcessEnv = process.env): void {
  addSecrets(...Object.values(config.providers).map((p) => p.api_key), ...providerKeyEnvNames(config).map((n) => env[n]));
}

/**
 * Splits `NAME/model-id`. NAME must be a provider table or a built-in name; a bare model id
 * is matched to a provider by its family (claude → anthropic, gpt/o-series → openai, gemini).
 */
export function parseModelRef(selection: string, config: Config): ModelRef {
  const slash = selection.indexOf("/");
  if (slash > 0) {
    const head = selection.slice(0, slash);
    if (config.providers[head] || BUILTIN_PROVIDERS[head]) {
      const model = selection.slice(slash + 1) || config.providers[head]?.model || "";
      return { provider: head, model };
    }
  }
  if (config.providers[selection] || BUILTIN_PROVIDERS[selection]) {
    return { provider: selection, model: config.providers[selection]?.model ?? "" };
  }
  return { provider: guessProvider(selection), model: selection };
}

function guessProvider(model: string): string {
  if (/^claude/i.test(model)) return "anthropic";
  if (/^gemini/i.test(model)) return "gemini";
  if (/^(gpt|o\d|chatgpt|codex)/i.test(model)) return "openai";
  throw new Error(
    `Cannot tell which provider serves "${model}": write it as NAME/model-id, where NAME is a [providers.NAME] table or one of ${Object.keys(BUILTIN_PROVIDERS).join(", ")}.`,
  );
}

/** Settings (type, key and where it came from, base URL, options) of a provider name. */
export function providerSettings(name: string, config: Config, env: NodeJS.ProcessEnv = process.env): ProviderSettings {
  const table: ProviderConfig = config.providers[name] ?? {};
  const builtin = BUILTIN_PROVIDERS[name];
  const type = table.type ?? builtin?.type;
  if (!type) {
    throw new Error(`Provider "${name}" has no type: set type = "anthropic" | "openai" | "openai-compatible" | "gemini" in [providers.${name}].`);
  }
  const { type: _t, api_key, api_key_env, base_url, model: _m, ...options } = table;
  const keyEnv = api_key_env ? [api_key_env] : (builtin?.keyEnv ?? BUILTIN_PROVIDERS[type]?.keyEnv ?? []);
  const key = resolveKey(name, api_key, keyEnv, config, env);
  const baseEnv = builtin?.baseUrlEnv ?? BUILTIN_PROVIDERS[type]?.baseUrlEnv;
  const baseUrl = base_url ?? (baseEnv ? env[baseEnv] : undefined) ?? builtin?.baseUrl;
  const settings: ProviderSettings = { name, type, apiKey: key?.value, baseUrl: baseUrl || undefined, options };
  if (key) settings.keySource = key.source;
  else if (needsKey(type, options)) settings.missingKey = missingKeyMessage(name, keyEnv, Boolean(api_key_env));
  settings.streamIdleTimeoutMs = Math.round(config.retry.stream_idle_timeout_s * 1000);
  return settings;
}

/** The key and a description of where it was found: config's api_key first, then the environment. */
function resolveKey(
  name: string,
  apiKey: string | undefined,
  keyEnv: string[],
  config: Config,
  env: NodeJS.ProcessEnv,
): { value: string; source: string } | undefined {
  if (apiKey) return { value: apiKey, source: `api_key in ${config.keySources?.[name] ?? `[providers.${name}]`}` };
  const found = keyEnv.find((n) => env[n]);
  return found ? { value: env[found]!, source: `the environment variable ${found}` } : undefined;
}

/** Headers that carry credentials on their own (a gateway's token in `headers`). */
const AUTH_HEADERS = new Set(["authorization", "x-api-key", "x-goog-api-key", "api-key"]);

/**
 * Whether calls cannot work without a key. Compatible servers (Ollama, llama.cpp, vLLM) usually
 * take none, and a credential sent in `headers` counts as one.
 */
function needsKey(type: ProviderType, options: Record<string, unknown>): boolean {
  if (type === "openai-compatible") return false;
  const headers = options.headers;
  const names = typeof headers === "object" && headers !== null ? Object.keys(headers) : [];
  return !names.some((h) => AUTH_HEADERS.has(h.toLowerCase()));
}

function missingKeyMessage(name: string, keyEnv: string[], named: boolean): string {
  if (named) return `No API key for ${name}: ${keyEnv[0]} (named by [providers.${name}] api_key_env) is not set.`;
  const vars = keyEnv.length > 1 ? `${keyEnv.slice(0, -1).join(", ")} or ${keyEnv.at(-1)},` : keyEnv[0];
  return `No API key for ${name}: set ${vars ? `${vars} or ` : ""}[providers.${name}] api_key_env.`;
}

/** Whether a provider can be called: credentials present, or none needed. */
export function credentialStatus(name: string, config: Config, env: NodeJS.ProcessEnv = process.env): { ok: boolean; detail: string } {
  let settings: ProviderSettings;
  try {
    settings = providerSettings(name, config, env);
  } catch (err) {
    return { ok: false, detail: (err as Error).message };
  }
  if (settings.missingKey) return { ok: false, detail: settings.missingKey };
  const where = settings.baseUrl ? `, ${settings.baseUrl}` : "";
  if (settings.keySource) return { ok: true, detail: `key set (${settings.keySource})${where}` };
  if (settings.type === "openai-compatible") return { ok: true, detail: `no key needed, ${settings.baseUrl ?? "no base_url set"}` };
  return { ok: true, detail: `credentials in headers${where}` };
}

/** Every provider name that config or the built-ins know. */
export function knownProviders(config: Config): string[] {
  return [...new Set([...Object.keys(BUILTIN_PROVIDERS), ...Object.keys(config.providers)])];
}

/**
 * Creates the Provider for a settings record; the adapter module loads now, its SDK later.
 * Rejects at once when the provider has no key: no request could succeed, and the SDKs would
 * only fail later with a message that does not say what to set.
 */
export async function createProvider(settings: ProviderSettings): Promise<Provider> {
  if (settings.missingKey) throw new Error(settings.missingKey);
  switch (settings.type) {
    case "anthropic":
      return (await import("./anthropic.js")).createAnthropicProvider(settings);
    case "openai":
      return (await import("./openai-responses.js")).createOpenAIResponsesProvider(settings);
    case "openai-compatible":
      return (await import("./openai-chat.js")).createOpenAIChatProvider(settings);
    case "gemini":
      return (await import("./gemini.js")).createGeminiProvider(settings);
  }
}
