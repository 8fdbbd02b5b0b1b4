/** The shapes every search backend shares. */

/** One search hit. */
export interface SearchResult {
  title: string;
  url: string;
  snippet: string;
}

/** Names of the backends that really search (config's "auto" picks one of them). */
export type BackendName = "brave" | "tavily" | "exa" | "searxng" | "duckduckgo";

/** A search backend, ready to call. */
export interface SearchBackend {
  name: BackendName;
  search(query: string, count: number, signal: AbortSignal): Promise<SearchResult[]>;
}

/** A backend failure the user can act on (a bad key, a server down, an answer we cannot read). */
export class SearchError extends Error {}
