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
 * answer: nothing is going to publish, and the edit does not wait for nothing. A file no server
 * has open is reported as unknown, never as free of errors; the first reading lets the editor
 * open a changed file it did not have open (unseen) and wait for its servers' first report.
 */
import path from "node:path";
import type { EditorDiagnostic, LanguageService, LanguageServiceAnswer } from "../../editor/language-service.js";
import { pathToUri } from "../../workspace/paths.js";
import { diagnosticLines, diagnosticsOf, countWords, problemsOf, serversOf } from "./diagnostics-format.js";
import { unknownDiagnostics } from "./diagnostics-truth.js";
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
  const files = result.changedFiles.map((rel) => ({ rel, uri: pathToUri(path.resolve(options.root, rel)) }));
  const reading = await settledReading(service, files, options);
  const text = reading.ok ? describe(options.root, reading) : `Could not read the editor's diagnostics: ${reading.reason}`;
  return { ...result, content: [...result.content, { type: "text", text }] };
}

/** What the reading says: the problems of the files it knows, and which files it does not. */
function describe(root: string, reading: Extract<Reading, { ok: true }>): string {
  const problems = problemsOf(reading.diagnostics);
  const lines: string[] = [];
  if (problems.length) {
    lines.push(`The editor's language servers report ${countWords(problems)} in the changed files:`, ...diagnosticLines(root, problems, MAX_APPENDED));
  } else if (reading.known.length) {
    const where = reading.unknown.length ? reading.known.join(", ") : "the changed files";
    lines.push(`The editor's language servers report no errors or warnings in ${where}.`);
  }
  for (const note of reading.unknown) lines.push(`Diagnostics ${note} (not "no errors").`);
  return lines.join("\n");
}

type Reading =
  | { ok: true; diagnostics: EditorDiagnostic[]; key: string; nobodyPublishes: boolean; known: string[]; unknown: string[] }
  | { ok: false; reason: string };

/** Reads until the servers have visibly published and settled, or the wait is over. */
async function settledReading(service: LanguageService, files: ChangedFile[], options: EditDiagnosticsOptions): Promise<Reading> {
  const deadline = Date.now() + options.waitMs;
  // The first reading may make the editor open a file no server had open, wait for its servers'
  // first report and close it again: that answer is the file's, and is not asked again.
  const settled = new Map<string, LanguageServiceAnswer>();
  const first = await read(service, files, options.signal, { waitMs: options.waitMs, settled });
  if (!first.ok || first.nobodyPublishes) return first;
  let last = first;
  let changed = false;
  while (Date.now() + POLL_MS <= deadline && !options.signal.aborted && settled.size < files.length) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    const next = await read(service, files, options.signal, { settled });
    if (!next.ok) return last;
    if (changed && next.key === last.key) return next;
    changed ||= next.key !== first.key;
    last = next;
  }
  return last;
}

interface ChangedFile {
  rel: string;
  uri: string;
}

/**
 * One reading of every changed file's diagnostics. `waitMs` lets the editor open a file it does
 * not have and wait for its report; such an answer (`opened`) goes into `settled`, and a settled
 * file is not asked again.
 */
async function read(
  service: LanguageService,
  files: ChangedFile[],
  signal: AbortSignal,
  how: { waitMs?: number; settled: Map<string, LanguageServiceAnswer> },
): Promise<Reading> {
  const params = (uri: string) => (how.waitMs === undefined ? { uri } : { uri, waitMs: how.waitMs });
  const ask = async (f: ChangedFile): Promise<LanguageServiceAnswer> => {
    const known = how.settled.get(f.uri);
    if (known) return known;
    const answer = await service.request("textDocument/diagnostics", params(f.uri), signal);
    if (answer.ok && (answer.result as { opened?: unknown } | null)?.opened === true) how.settled.set(f.uri, answer);
    return answer;
  };
  const answers = await Promise.all(files.map(ask));
  const diagnostics: EditorDiagnostic[] = [];
  const known: string[] = [];
  const unknown: string[] = [];
  let nobodyPublishes = true;
  for (const [i, answer] of answers.entries()) {
    if (!answer.ok) return answer;
    diagnostics.push(...diagnosticsOf(answer.result));
    if (serversOf(answer.result) !== 0) nobodyPublishes = false;
    const why = unknownDiagnostics(answer.result, files[i]!.rel);
    if (why) unknown.push(`of ${files[i]!.rel} are ${why}`);
    else known.push(files[i]!.rel);
  }
  const key = JSON.stringify([unknown, diagnostics.map((d) => [d.uri, d.range, d.severity, d.message])]);
  return { ok: true, diagnostics, nobodyPublishes, known, unknown, key };
}
