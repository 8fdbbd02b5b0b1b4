/**
 * agent/languageService: the editor's own language servers answer through the client. Sent only
 * for the methods the client declared in `capabilities.experimental.agent.languageService`; each
 * request is withdrawn ($/cancelRequest) on cancel or after the timeout, and every way it can
 * fail comes back as a reason the model can read.
 */
import type { CancellationToken, Connection } from "vscode-languageserver/node.js";
import type { LanguageService, LanguageServiceAnswer } from "../editor/language-service.js";
import { LANGUAGE_SERVICE_METHODS, LANGUAGE_SERVICE_REQUEST, type LanguageServiceMethod } from "../protocol/method-names.js";
import { sendWithdrawable } from "./client-requests.js";

/** The methods of `declared` that agent-lsp knows, in its own order; unknown names are ignored. */
export function declaredLanguageServiceMethods(declared: unknown): LanguageServiceMethod[] {
  if (!Array.isArray(declared)) return [];
  return LANGUAGE_SERVICE_METHODS.filter((m) => declared.includes(m));
}

/** The language service over an LSP connection. */
export class LspLanguageService implements LanguageService {
  constructor(
    private readonly connection: Connection,
    readonly methods: readonly LanguageServiceMethod[],
    /** Milliseconds the editor has to answer (read on each request: config reloads change it). */
    private readonly timeoutMs: () => number,
  ) {}

  async request(method: LanguageServiceMethod, params: unknown, signal: AbortSignal): Promise<LanguageServiceAnswer> {
    if (!this.methods.includes(method)) return { ok: false, reason: `The editor does not serve ${method}.` };
    const send = (token: CancellationToken) => this.connection.sendRequest(LANGUAGE_SERVICE_REQUEST, { method, params }, token);
    // A request that lets the editor wait (diagnostics of a file it opens) has that long on top.
    const waitMs = (params as { waitMs?: unknown } | null)?.waitMs;
    const outcome = await sendWithdrawable(signal, this.timeoutMs() + (typeof waitMs === "number" ? waitMs : 0), send).outcome;
    switch (outcome.kind) {
      case "answer":
        return { ok: true, result: outcome.value ?? null };
      case "error":
        return { ok: false, reason: `The editor's language server failed: ${(outcome.error as Error).message}` };
      case "timeout":
        return { ok: false, reason: `The editor's language servers did not answer ${method} (${outcome.note})` };
      case "cancelled":
        return { ok: false, reason: "Cancelled." };
    }
  }
}
