/**
 * agent/saveDocuments: asks an editor that declares `experimental.agent.saveDocuments` to write
 * the listed buffers to disk (commands read the disk, not the buffers). The answer is checked:
 * a URI the editor neither saved nor reported as failed counts as failed, and no answer (or a
 * cancel) fails them all, with the reason.
 */
import type { CancellationToken, Connection } from "vscode-languageserver/node.js";
import type { SaveResult } from "../editor/document-host.js";
import { sendWithdrawable, type RequestOutcome } from "./client-requests.js";
import { normalizeUri } from "./uris.js";

/** The method name. */
const SAVE_DOCUMENTS = "agent/saveDocuments";

/** Sends agent/saveDocuments for `uris`; never throws. */
export async function saveDocumentsOverLsp(connection: Connection, uris: string[], signal: AbortSignal, timeoutMs: number): Promise<SaveResult> {
  if (!uris.length) return { saved: [], failed: [] };
  const outcome = await sendWithdrawable(signal, timeoutMs, (token: CancellationToken) => connection.sendRequest(SAVE_DOCUMENTS, { uris }, token)).outcome;
  if (outcome.kind !== "answer") return { saved: [], failed: uris.map((uri) => ({ uri, reason: unanswered(outcome) })) };
  return readAnswer(uris, outcome.value);
}

function unanswered(outcome: Exclude<RequestOutcome, { kind: "answer" }>): string {
  if (outcome.kind === "error") return `the editor could not save: ${(outcome.error as Error).message}`;
  return outcome.kind === "timeout" ? `the editor did not answer (${outcome.note})` : "cancelled";
}

/** Matches the answer to the URIs asked for (clients may encode URIs differently). */
function readAnswer(uris: string[], value: unknown): SaveResult {
  const answer = (value ?? {}) as { saved?: unknown; failed?: unknown };
  const saved = new Set((Array.isArray(answer.saved) ? answer.saved : []).filter((u): u is string => typeof u === "string").map(normalizeUri));
  const reasons = new Map<string, string>();
  for (const f of Array.isArray(answer.failed) ? answer.failed : []) {
    if (typeof f?.uri === "string") reasons.set(normalizeUri(f.uri), typeof f.reason === "string" ? f.reason : "no reason given");
  }
  const result: SaveResult = { saved: [], failed: [] };
  for (const uri of uris) {
    const key = normalizeUri(uri);
    if (saved.has(key)) result.saved.push(uri);
    else result.failed.push({ uri, reason: reasons.get(key) ?? "the editor did not say it saved it" });
  }
  return result;
}
