/**
 * The keyless default: DuckDuckGo's HTML results page, read with linkedom. Each result's link is
 * DuckDuckGo's redirect (`/l/?uddg=<target>`); the target is taken out of it.
 */
import { parseHTML } from "linkedom";
import { searchRequest } from "./http.js";
import { SearchError, type SearchBackend, type SearchResult } from "./types.js";

/** DuckDuckGo's HTML endpoint as a backend. */
export function duckduckgoBackend(endpoint: string): SearchBackend {
  return {
    name: "duckduckgo",
    async search(query, count, signal) {
      const init = {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", "user-agent": "Mozilla/5.0 (X11; Linux x86_64) agent-lsp" },
        body: new URLSearchParams({ q: query }).toString(),
      };
      return parseResults(await searchRequest("DuckDuckGo", endpoint, init, signal), endpoint).slice(0, count);
    },
  };
}

/** The results of a DuckDuckGo HTML page. */
function parseResults(html: string, base: string): SearchResult[] {
  const { document } = parseHTML(html);
  const links = [...document.querySelectorAll("a.result__a")];
  if (!links.length && !/no results|No more results/i.test(html) && !document.querySelector(".no-results")) {
    if (/anomaly|captcha|challenge/i.test(html)) throw new SearchError("DuckDuckGo asked for a challenge (too many searches from this address); try later or configure another backend.");
  }
  return links.map((a) => {
    const result = a.closest(".result");
    const snippet = result?.querySelector(".result__snippet")?.textContent ?? "";
    return { title: (a.textContent ?? "").trim(), url: targetOf(a.getAttribute("href") ?? "", base), snippet: snippet.replace(/\s+/g, " ").trim() };
  });
}

function targetOf(href: string, base: string): string {
  try {
    const url = new URL(href, base);
    return url.searchParams.get("uddg") ?? url.href;
  } catch {
    return href;
  }
}
