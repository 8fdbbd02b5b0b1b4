/**
 * Which search backend a configuration selects, whether it can run, and what to set when it
 * cannot. Pure (no backend code is loaded here): web_search is registered only when the selected
 * backend is viable, and `agent-lsp doctor` prints the same reasons.
 */
import type { Config } from "../../config/schema.js";
import type { BackendName } from "./types.js";

/** The variables holding each keyed backend's key, by default. */
export const KEY_ENV: Record<"brave" | "tavily" | "exa", string> = { brave: "BRAVE_API_KEY", tavily: "TAVILY_API_KEY", exa: "EXA_API_KEY" };

/** The backend a configuration selects, and whether (and why not) it can run. */
export type Selection =
  | { viable: true; backend: BackendName; key?: string; keyEnv?: string; url?: string; detail: string }
  | { viable: false; backend: BackendName; detail: string };

/** Selects the backend for `config` with the keys in `env`. */
export function selectBackend(config: Config, env: NodeJS.ProcessEnv = process.env): Selection {
  const web = config.web;
  const wanted = web.search_backend;
  if (wanted === "auto") {
    for (const name of ["brave", "tavily", "exa"] as const) {
      const keyEnv = web.search_api_key_env || KEY_ENV[name];
      if (env[keyEnv]) return keyed(name, web.search_api_key_env, env);
    }
    if (web.search_url) return { viable: true, backend: "searxng", url: web.search_url, detail: `auto: SearXNG at ${web.search_url}` };
    return { viable: true, backend: "duckduckgo", detail: "auto: DuckDuckGo (keyless; set BRAVE_API_KEY, TAVILY_API_KEY or EXA_API_KEY for an API backend)" };
  }
  if (wanted === "searxng") {
    return web.search_url
      ? { viable: true, backend: "searxng", url: web.search_url, detail: `SearXNG at ${web.search_url}` }
      : { viable: false, backend: "searxng", detail: 'search_backend = "searxng" needs [web] search_url, the address of your SearXNG instance' };
  }
  if (wanted === "duckduckgo") return { viable: true, backend: "duckduckgo", detail: "DuckDuckGo (keyless)" };
  return keyed(wanted, web.search_api_key_env, env);
}

function keyed(name: "brave" | "tavily" | "exa", configuredEnv: string, env: NodeJS.ProcessEnv): Selection {
  const keyEnv = configuredEnv || KEY_ENV[name];
  const key = env[keyEnv];
  if (!key) return { viable: false, backend: name, detail: `${name} needs its API key in the environment variable ${keyEnv} (or name another variable in [web] search_api_key_env)` };
  return { viable: true, backend: name, key, keyEnv, detail: `${name}, key from ${keyEnv}` };
}
