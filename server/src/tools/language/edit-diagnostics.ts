/**
 * Diagnostics after an edit: once a change set lands, the editor's own language servers get a
 * moment to look at the changed files, and their errors and warnings are appended to the tool's
 * result, so the model learns at once that its edit broke something (config `[tools]
 * diagnostics_after_edit`, `diagnostics_wait_ms`; only with an editor that serves
 * `textDocument/diagnostics`).
 *
 * When servers have published is not knowable from here, so the files' diagnostics are read at
 * once and then polled: a change from the first reading means the servers published, and the
 * result is taken when two readings agree; a reading that never changes is taken at the deadline.
 * When the editor says no language server is on any of the files, the first reading is the
 * answer: nothing is going to publish, and the edit does not wait for nothing.
 */
import path from "node:path";
import type { EditorDiagnostic, LanguageService } from "../../editor/language-service.js";
import { pathToUri } from "../../workspace/paths.js";
import { diagnosticLines, diagnosticsOf, countWords, problemsOf, serversOf } from "./diagnostics-format.js";
import type { ToolResult } from "../types.js";

/** Most diagnostics appended to one result. */
const MAX_APPENDED = 20;
/** Time between two readings. */
const POLL_MS = 100;

/** What the check needs. */
export interface EditDiagnosticsOptions {
  service: LanguageService | undefined;
  root: string;
  waitMs: number;
  signal: AbortSignal;
}

/** `result` with the changed files' errors and warnings appended (unchanged when there is nothing to check). */
export async function withEditDiagnostics(result: ToolResult, options: EditDiagnosticsOptions): Promise<ToolResult> {
  const { service } = options;
  if (result.isError || !result.changedFiles?.length || !service?.methods.includes("textDocument/diagnostics")) return result;
  const uris = result.changedFiles.map((f) => pathToUri(path.resolve(options.root, f)));
  const reading = await settledReading(service, uris, options);
  const text = reading.ok ? describe(options.root, problemsOf(reading.diagnostics)) : `Could not read the editor's diagnostics: ${reading.reason}`;
  return { ...result, content: [...result.content, { type: "text", text }] };
}

function describe(root: string, problems: EditorDiagnostic[]): string {
  if (!problems.length) return "The editor's language servers report no errors or warnings in the changed files.";
  return [`The editor's language servers report ${countWords(problems)} in the changed files:`, ...diagnosticLines(root, problems, MAX_APPENDED)].join("\n");
}

type Reading = { ok: true; diagnostics: EditorDiagnostic[]; key: string; nobodyPublishes: boolean } | { ok: false; reason: string };

/** Reads until the servers have visibly published and settled, or the wait is over. */
async function settledReading(service: LanguageService, uris: string[], options: EditDiagnosticsOptions): Promise<Reading> {
  const deadline = Date.now() + options.waitMs;
  const first = await read(service, uris, options.signal);
  if (!first.ok || first.nobodyPublishes) return first;
  let last = first;
  let changed = false;
  while (Date.now() + POLL_MS <= deadline && !options.signal.aborted) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    const next = await read(service, uris, options.signal);
    if (!next.ok) return last;
    if (changed && next.key === last.key) return next;
    changed ||= next.key !== first.key;
    last = next;
  }
  return last;
}

/** One reading of every changed file's diagnostics. */
async function read(service: LanguageService, uris: string[], signal: AbortSignal): Promise<Reading> {
  const answers = await Promise.all(uris.map((uri) => service.request("textDocument/diagnostics", { uri }, signal)));
  const diagnostics: EditorDiagnostic[] = [];
  let nobodyPublishes = true;
  for (const answer of answers) {
    if (!answer.ok) return answer;
    diagnostics.push(...diagnosticsOf(answer.result));
    if (serversOf(answer.result) !== 0) nobodyPublishes = false;
  }
  return { ok: true, diagnostics, nobodyPublishes, key: JSON.stringify(diagnostics.map((d) => [d.uri, d.range, d.severity, d.message])) };
}
