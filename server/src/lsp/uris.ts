/** File URI normalisation: clients differ in how they percent-encode (e.g. `:` and spaces). */
import path from "node:path";
import { pathToFileURL } from "node:url";
import { uriToPath } from "../workspace/paths.js";

/** A canonical form of a file URI for comparisons; other schemes are returned unchanged. */
export function normalizeUri(uri: string): string {
  const p = uriToPath(uri);
  return p ? pathToFileURL(p).href : uri;
}

/** The file name of a file URI, for messages ("math.js"); other URIs are returned whole. */
export function uriFileName(uri: string): string {
  const p = uriToPath(uri);
  return p ? path.basename(p) : uri;
}
