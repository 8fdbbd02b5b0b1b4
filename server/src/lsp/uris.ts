/** File URI normalisation: clients differ in how they percent-encode (e.g. `:` and spaces). */
import { pathToFileURL } from "node:url";
import { uriToPath } from "../workspace/paths.js";

/** A canonical form of a file URI for comparisons; other schemes are returned unchanged. */
export function normalizeUri(uri: string): string {
  const p = uriToPath(uri);
  return p ? pathToFileURL(p).href : uri;
}
