/** The one HTTP call search backends make: JSON or text, with the backend named in every error. */
import { SearchError } from "./types.js";

/** Fetches `url` and returns the body; a non-2xx answer is a SearchError quoting the service. */
export async function searchRequest(backend: string, url: string, init: RequestInit, signal: AbortSignal): Promise<string> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal });
  } catch (err) {
    if (signal.aborted) throw err;
    // The address without its query: some backends take the key as a query parameter.
    const where = new URL(url);
    throw new SearchError(`${backend} could not be reached at ${where.origin}${where.pathname} (${(err as Error).cause instanceof Error ? ((err as Error).cause as Error).message : (err as Error).message}).`);
  }
  const body = await res.text();
  if (!res.ok) {
    const hint = res.status === 401 || res.status === 403 ? " Check the API key." : res.status === 429 ? " The rate limit or quota is used up." : "";
    throw new SearchError(`${backend} answered ${res.status} ${res.statusText}: ${body.slice(0, 200).trim()}${hint}`);
  }
  return body;
}

/** Parses a backend's JSON answer, or says it could not. */
export function parseJson(backend: string, body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    throw new SearchError(`${backend} answered with something that is not JSON: ${body.slice(0, 120)}`);
  }
}
