/**
 * The models a user or the model may switch to: for each provider that can be called (its key
 * is there, or it needs none), its `model`, its `models` list, and the ids of its type agent-lsp
 * knows prices of. Also the check that a model selection names such a provider (and, where the
 * provider lists its models, one of them), with a message naming the value and the choices.
 */
import type { Config } from "../config/schema.js";
import { pricedModels } from "./pricing.js";
import { credentialStatus, knownProviders, parseModelRef, providerSettings } from "./registry.js";

/** One provider's models, as `NAME/model-id`. */
export interface ProviderModels {
  provider: string;
  models: string[];
}

const FAMILY: Record<string, RegExp> = {
  anthropic: /^claude/,
  openai: /^(gpt|o\d|codex)/,
  gemini: /^gemini/,
};

/** The callable providers and their models (providers with none to offer are left out). */
export function modelChoices(config: Config, env: NodeJS.ProcessEnv = process.env): ProviderModels[] {
  const out: ProviderModels[] = [];
  for (const name of knownProviders(config)) {
    if (!credentialStatus(name, config, env).ok) continue;
    const table = config.providers[name];
    const family = FAMILY[providerSettings(name, config, env).type];
    const listed = [table?.model, ...(table?.models ?? [])].filter((m): m is string => !!m);
    const known = table?.models ? [] : family ? pricedModels().filter((m) => family.test(m)) : [];
    const models = [...new Set([...listed, ...known])].map((m) => `${name}/${m}`);
    if (models.length) out.push({ provider: name, models });
  }
  return out;
}

/**
 * Throws an Error naming `selection` when it names no provider, a provider that cannot be called,
 * no model id, or an id its provider's `models` list does not have.
 */
export function checkModelChoice(selection: string, config: Config, env: NodeJS.ProcessEnv = process.env): void {
  const ref = parseModelRef(selection, config);
  providerSettings(ref.provider, config, env);
  const status = credentialStatus(ref.provider, config, env);
  if (!status.ok) throw new Error(`"${selection}" needs the provider ${ref.provider}, which cannot be called: ${status.detail}`);
  if (!ref.model) throw new Error(`"${selection}" names no model id: write it as ${ref.provider}/MODEL-ID.`);
  const listed = config.providers[ref.provider]?.models;
  if (listed && !listed.includes(ref.model) && ref.model !== config.providers[ref.provider]?.model) {
    throw new Error(`Unknown model "${selection}": [providers.${ref.provider}] models lists ${listed.map((m) => `${ref.provider}/${m}`).join(", ")}.`);
  }
}
