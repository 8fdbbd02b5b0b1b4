/**
 * `agent-lsp doctor --live`: checks that need the network, asked for explicitly. The config can
 * look right and still fail: a revoked key, a base URL with a typo, a local server (Ollama) that
 * is not running. One tiny call to the configured model (one output token) proves the key and
 * the URL; a GET of `/models` on each keyless local server says whether it listens.
 */
import type { Config } from "../config/schema.js";
import { createProvider, knownProviders, parseModelRef, providerSettings } from "../providers/registry.js";

/** How long each check may take before it counts as no answer. */
const CALL_TIMEOUT_MS = 20_000;
const LISTEN_TIMEOUT_MS = 3_000;

/** The report lines of the live checks; a failed call to the configured model is an `ERROR`. */
export async function liveReport(config: Config): Promise<string[]> {
  const out = ["", "Live checks:"];
  out.push(await modelCall(config));
  for (const name of knownProviders(config)) {
    const line = await localServer(name, config);
    if (line) out.push(line);
  }
  return out;
}

/** One prompt of one output token to the configured model. */
async function modelCall(config: Config): Promise<string> {
  let label = config.model;
  try {
    const ref = parseModelRef(config.model, config);
    label = `${ref.provider}/${ref.model}`;
    const settings = providerSettings(ref.provider, config);
    if (settings.missingKey) return `  not checked ${label}: ${settings.missingKey}`;
    const provider = await createProvider(settings);
    const signal = AbortSignal.timeout(CALL_TIMEOUT_MS);
    const request = {
      model: ref.model,
      system: "You are checked for reachability. Answer with one word.",
      messages: [{ role: "user" as const, content: [{ type: "text" as const, text: "ping" }] }],
      tools: [],
      maxTokens: 1,
    };
    for await (const event of provider.stream(request, signal)) {
      if (event.type === "error") return `ERROR live call to ${label} failed: ${event.message}`;
    }
    if (signal.aborted) return `ERROR live call to ${label}: no answer within ${CALL_TIMEOUT_MS / 1000} s`;
    return `  ok      live call to ${label}: the model answered${settings.baseUrl ? ` (${settings.baseUrl})` : ""}`;
  } catch (err) {
    return `ERROR live call to ${label} failed: ${(err as Error).message}`;
  }
}

/** Whether a keyless OpenAI-compatible server (Ollama, llama.cpp, vLLM) answers at its base URL. */
async function localServer(name: string, config: Config): Promise<string | undefined> {
  let baseUrl: string | undefined;
  try {
    const settings = providerSettings(name, config);
    if (settings.type !== "openai-compatible" || !settings.baseUrl) return undefined;
    baseUrl = settings.baseUrl.replace(/\/+$/, "");
    const res = await fetch(`${baseUrl}/models`, { signal: AbortSignal.timeout(LISTEN_TIMEOUT_MS) });
    return `  ${res.ok ? "ok     " : "answers"} ${name} is listening at ${baseUrl}${res.ok ? "" : ` (GET /models: HTTP ${res.status})`}`;
  } catch (err) {
    if (!baseUrl) return undefined;
    const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).name;
    return `  not running ${name}: nothing answers at ${baseUrl} (${cause})`;
  }
}
