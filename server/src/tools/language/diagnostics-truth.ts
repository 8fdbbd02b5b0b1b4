/**
 * Where a file's diagnostics come from, and when they are not known. "No errors" is said only
 * when a language server has the file open and has reported on it; a file no server has open
 * (the editor runs none for it, or could not open it) is "unknown", never clean.
 */
import { diagnosticsOf, serversOf } from "./diagnostics-format.js";

/** How long the editor may wait for the first report on a file it opens to answer. */
export interface DiagnosticsParams {
  uri: string;
  /** The editor may open the file (unseen) and wait this long for its language servers' first report. */
  waitMs?: number;
}

/**
 * Why the diagnostics of `rel` in an answer to `textDocument/diagnostics` cannot be trusted as
 * complete, or undefined when they can: no language server has the file open, or those that
 * have it had not reported on it when the editor answered.
 */
export function unknownDiagnostics(result: unknown, rel: string): string | undefined {
  const servers = serversOf(result);
  if (servers === 0 && !diagnosticsOf(result).length) return `unknown: no language server has ${rel} open, so its errors are not known`;
  if ((result as { published?: unknown } | null)?.published === false) {
    return `unknown: ${servers === 1 ? "the language server" : "the language servers"} opened ${rel} but had not reported on it yet`;
  }
  return undefined;
}
