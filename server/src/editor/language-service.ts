/**
 * The editor's own language servers, as the core sees them: one request, answered with the
 * merged results of every server the editor runs for the file (never agent-lsp itself). Over
 * LSP it is `agent/languageService` (lsp/language-service.ts); a host without it has no
 * language service and the tools that need one are not offered.
 */
import type { LanguageServiceMethod } from "../protocol/method-names.js";

/** How a language-service request ended. */
export type LanguageServiceAnswer =
  | { ok: true; result: unknown }
  /** Why not, in words a model can read (no server attached, an error, a timeout, a cancel). */
  | { ok: false; reason: string };

/** One diagnostic as the editor has it: LSP shape, with the file it belongs to. */
export interface EditorDiagnostic {
  uri: string;
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  /** 1 error, 2 warning, 3 information, 4 hint (LSP DiagnosticSeverity). */
  severity?: number;
  message: string;
  source?: string;
  code?: string | number;
}

/** The language service of a document host. */
export interface LanguageService {
  /** The methods the editor serves (what it declared). */
  readonly methods: readonly LanguageServiceMethod[];
  /** Sends one request; never throws. `signal` withdraws it (a cancelled turn). */
  request(method: LanguageServiceMethod, params: unknown, signal: AbortSignal): Promise<LanguageServiceAnswer>;
}
