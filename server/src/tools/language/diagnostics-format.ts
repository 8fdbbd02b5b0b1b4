/**
 * The editor's diagnostics as the model reads them: `path:line:column: error [source] message`,
 * errors first, then by file and position, capped; and the reading of an answer to
 * `textDocument/diagnostics` (which the tools trust only as far as its shape goes).
 */
import type { EditorDiagnostic } from "../../editor/language-service.js";
import { displayPath } from "./language-locations.js";

const SEVERITY = ["", "error", "warning", "info", "hint"];

/**
 * The well-formed diagnostics of an answer (`{diagnostics, servers?}`, or a bare list); anything
 * else in it is left out.
 */
export function diagnosticsOf(result: unknown): EditorDiagnostic[] {
  const list = Array.isArray(result) ? result : (result as { diagnostics?: unknown } | null)?.diagnostics;
  if (!Array.isArray(list)) return [];
  return list.filter(
    (d): d is EditorDiagnostic => typeof d?.uri === "string" && typeof d?.message === "string" && typeof d?.range?.start?.line === "number",
  );
}

/** Errors and warnings only (a diagnostic without a severity counts as an error, as LSP says a client may). */
export function problemsOf(diagnostics: EditorDiagnostic[]): EditorDiagnostic[] {
  return diagnostics.filter((d) => (d.severity ?? 1) <= 2);
}

/** Counts in words: "2 errors, 1 warning". */
export function countWords(diagnostics: EditorDiagnostic[]): string {
  const counts = new Map<string, number>();
  for (const d of diagnostics) counts.set(SEVERITY[d.severity ?? 1] ?? "info", (counts.get(SEVERITY[d.severity ?? 1] ?? "info") ?? 0) + 1);
  return [...counts].map(([name, n]) => `${n} ${name}${n === 1 ? "" : "s"}`).join(", ");
}

/** One line per diagnostic, most severe first, at most `max`, with a note of the rest. */
export function diagnosticLines(root: string, diagnostics: EditorDiagnostic[], max: number): string[] {
  const keyed = diagnostics.map((d) => ({ d, shown: displayPath(root, d.uri) }));
  keyed.sort(
    (a, b) =>
      (a.d.severity ?? 1) - (b.d.severity ?? 1) ||
      a.shown.localeCompare(b.shown) ||
      a.d.range.start.line - b.d.range.start.line ||
      a.d.range.start.character - b.d.range.start.character,
  );
  const lines = keyed.slice(0, max).map(({ d, shown }) => {
    const source = d.source ? ` [${d.source}${d.code !== undefined ? ` ${d.code}` : ""}]` : "";
    const message = d.message.replace(/\s*\n\s*/g, " ");
    return `${shown}:${d.range.start.line + 1}:${d.range.start.character + 1}: ${SEVERITY[d.severity ?? 1] ?? "info"}${source} ${message}`;
  });
  if (keyed.length > max) lines.push(`[... ${keyed.length - max} more]`);
  return lines;
}

/** How many language servers the editor has on the file (undefined: it did not say). */
export function serversOf(result: unknown): number | undefined {
  const servers = (result as { servers?: unknown } | null)?.servers;
  return typeof servers === "number" ? servers : undefined;
}
