/**
 * The search APIs with keys (Brave, Tavily, Exa) and SearXNG, each speaking its own request and
 * response format. Endpoints default to the public APIs; config `[web] search_url` replaces them.
 */
import { parseJson, searchRequest } from "./http.js";
import { SearchError, type SearchBackend, type SearchResult } from "./types.js";

/** The public endpoints. */
export const DEFAULT_ENDPOINTS = {
  brave: "https://api.search.brave.com/res/v1/web/search",
  tavily: "https://api.tavily.com/search",
  exa: "https://api.exa.ai/search",
  duckduckgo: "https://html.duckduckgo.com/html/",
} as const;

/** Brave Search API: GET with X-Subscription-Token; `web.results[].{title,url,description}`. */
export function braveBackend(key: string, endpoint: string): SearchBackend {
  return {
    name: "brave",
    async search(query, count, signal) {
      const url = `${endpoint}?${new URLSearchParams({ q: query, count: String(count) })}`;
      const body = await searchRequest("Brave", url, { headers: { accept: "application/json", "x-subscription-token": key } }, signal);
      const data = parseJson("Brave", body) as { web?: { results?: { title?: string; url?: string; description?: string }[] } };
      return hits("Brave", data.web?.results ?? [], (r) => ({ title: r.title, url: r.url, snippet: r.description }));
    },
  };
}

/** Tavily: POST JSON with a bearer key; `results[].{title,url,content}`. */
export function tavilyBackend(key: string, endpoint: string): SearchBackend {
  return {
    name: "tavily",
    async search(query, count, signal) {
      const init = { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${key}` }, body: JSON.stringify({ query, max_results: count }) };
      const data = parseJson("Tavily", await searchRequest("Tavily", endpoint, init, signal)) as { results?: { title?: string; url?: string; content?: string }[] };
      return hits("Tavily", data.results ?? [], (r) => ({ title: r.title, url: r.url, snippet: r.content }));
    },
  };
}

/** Exa: POST JSON with x-api-key; `results[].{title,url,text|highlights}`. */
export function exaBackend(key: string, endpoint: string): SearchBackend {
  return {
    name: "exa",
    async search(query, count, signal) {
      const init = {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": key },
        body: JSON.stringify({ query, numResults: count, contents: { text: { maxCharacters: 300 } } }),
      };
      const data = parseJson("Exa", await searchRequest("Exa", endpoint, init, signal)) as { results?: { title?: string; url?: string; text?: string; highlights?: string[] }[] };
      return hits("Exa", data.results ?? [], (r) => ({ title: r.title, url: r.url, snippet: r.highlights?.[0] ?? r.text }));
    },
  };
}

/** SearXNG: GET `<instance>/search?format=json`; `results[].{title,url,content}`. */
export function searxngBackend(instance: string): SearchBackend {
  return {
    name: "searxng",
    async search(query, count, signal) {
      const url = `${instance.replace(/\/+$/, "")}/search?${new URLSearchParams({ q: query, format: "json" })}`;
      const body = await searchRequest("SearXNG", url, { headers: { accept: "application/json" } }, signal);
      const data = parseJson("SearXNG", body) as { results?: { title?: string; url?: string; content?: string }[] };
      return hits("SearXNG", data.results ?? [], (r) => ({ title: r.title, url: r.url, snippet: r.content })).slice(0, count);
    },
  };
}

/** Results with a URL, trimmed; an answer whose results are not a list is a SearchError. */
function hits<T>(backend: string, list: T[], pick: (r: T) => { title?: string | undefined; url?: string | undefined; snippet?: string | undefined }): SearchResult[] {
  if (!Array.isArray(list)) throw new SearchError(`${backend}'s answer has no list of results.`);
  return list
    .map(pick)
    .filter((r): r is { title?: string; url: string; snippet?: string } => typeof r.url === "string" && r.url !== "")
    .map((r) => ({ title: (r.title ?? "").trim() || r.url, url: r.url, snippet: (r.snippet ?? "").replace(/\s+/g, " ").trim() }));
}
